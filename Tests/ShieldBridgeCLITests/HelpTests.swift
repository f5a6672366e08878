import Testing
import Version

@testable import ShieldBridgeCLI

@Suite("--help answers on every level, and lists exactly the options the command declares")
struct HelpTests {
  @Test(arguments: CommandLevel.all)
  func everyLevelAnswersHelpWithExitZero(_ level: CommandLevel) async {
    let expected = Command.Ending(status: .success, output: level.command.help(path: level.path))
    #expect(await Command.root.run(level.arguments + ["--help"]) == expected)
    // `-h` is help unless the command takes it as a short option (notify's `--hint`); `-?` always is.
    let shortHelp = level.command.options.contains { $0.short == "h" } ? "-?" : "-h"
    #expect(await Command.root.run(level.arguments + [shortHelp]) == expected)
    #expect(await Command.root.run(level.arguments + ["-?"]) == expected)
    #expect(expected.output?.hasPrefix("\(level.path.joined(separator: " ")): \(level.command.abstract)\n") == true)
  }

  @Test(arguments: CommandLevel.all.filter { !$0.command.subcommands.isEmpty })
  func aLevelWithSubcommandsAlsoTakesTheWordHelp(_ level: CommandLevel) async {
    let ending = await Command.root.run(level.arguments + ["help"])
    #expect(ending == Command.Ending(status: .success, output: level.command.help(path: level.path)))
  }

  @Test(arguments: CommandLevel.leaves)
  func helpAfterOptionsStillAnswersHelp(_ level: CommandLevel) async throws {
    // A value option swallows the next word, so only flags go before --help.
    let flags = level.command.options.filter { $0.kind == .flag }.map(\.name)
    let ending = await Command.root.run(level.arguments + flags + ["--help"])
    #expect(ending == Command.Ending(status: .success, output: level.command.help(path: level.path)))
  }

  /// The option names in the "Options:" block of a help text, `--app` for `  --app NAME  …`, `-u`, `--urgency` for `  -u, --urgency LEVEL  …`.
  static func optionNames(in help: String) -> [String] {
    let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
    guard let start = lines.firstIndex(of: "Options:") else { return [] }
    return lines[(start + 1)...].prefix { $0.hasPrefix("  ") }
      .flatMap { line -> [String] in
        let entry = line.dropFirst(2)
        // An entry with a short option names two: "-h, --help  Show this help."
        if !entry.hasPrefix("--"), entry.dropFirst(2).hasPrefix(", ") {
          return [String(entry.prefix(2)), String(entry.dropFirst(4).prefix { $0 != " " })]
        }
        return [String(entry.prefix { $0 != " " })]
      }
  }

  @Test(arguments: CommandLevel.all)
  func helpListsExactlyTheDeclaredOptions(_ level: CommandLevel) {
    let help = level.command.help(path: level.path)
    let shortHelp = level.command.options.contains { $0.short == "h" } ? "-?" : "-h"
    var expected =
      level.command.options.flatMap { option in [option.short.map { "-\($0)" }, option.name].compactMap { $0 } }
      + [shortHelp, "--help"]
    if level.path.count == 1 { expected.append("--version") }
    #expect(Self.optionNames(in: help) == expected)
    for option in level.command.options {
      let names = option.short.map { "-\($0), \(option.name)" } ?? option.name
      let line = help.split(separator: "\n").first { $0.hasPrefix("  \(names) ") || $0 == "  \(names)" }
      switch option.kind {
      case .flag: #expect(line?.contains(option.help) == true)
      case .value(let placeholder):
        #expect(line?.hasPrefix("  \(names) \(placeholder) ") == true)
        #expect(line?.hasSuffix(option.help) == true)
      case .repeated(let placeholder):
        #expect(line?.hasPrefix("  \(names) \(placeholder) ") == true)
        #expect(line?.hasSuffix(option.help + " (repeatable)") == true)
      }
    }
  }

  @Test(arguments: CommandLevel.leaves)
  func everyOptionIsDeclaredOnceWithItsDashes(_ level: CommandLevel) {
    let names = level.command.options.map(\.name)
    #expect(Set(names).count == names.count, "\(names)")
    for name in names {
      #expect(name.hasPrefix("--") && name.count > 2 && !name.contains("="), "\(name)")
      #expect(name != "--help" && name != "--version")
    }
    let shorts = level.command.options.compactMap(\.short)
    #expect(Set(shorts).count == shorts.count, "\(shorts)")
    #expect(!shorts.contains("?"))
  }

  @Test func aLeafHelpTextKeepsItsLayout() {
    let level = CommandLevel.all.first { $0.path == ["shieldbridge", "locales", "negotiate"] }
    #expect(
      level?.command.help(path: level?.path ?? []) == """
        shieldbridge locales negotiate: Print the catalog chain chosen from the environment, best first, ending with en.

        Usage: shieldbridge locales negotiate [options]

        Options:
          --locale L  An explicit choice (a locale or a colon list) instead of the environment.
          --dir DIR   The catalog folder (default: found as 'shieldbridge locales --help' says).
          -h, --help  Show this help.

        As gettext: LANGUAGE (a colon list, ignored when the locale is C or POSIX), then LC_ALL,
        LC_MESSAGES and LANG; .codeset and @modifier are dropped and de_AT falls back to de.
        Only locales with a catalog (or a pseudo-locale) are listed.
        """)
  }

  @Test func theRootAnswersItsVersion() async {
    #expect(
      await Command.root.run(["--version"])
        == Command.Ending(status: .success, output: "shieldbridge \(shieldBridgeVersion)"))
  }
}
