import Testing

@testable import ShieldBridgeCLI

@Suite("Every locales command that reads the catalogs takes --dir, as 'locales --help' promises")
struct LocalesDirectoryTests {
  /// A folder that does not exist, so that a command that takes `--dir` stops at it with exit 66.
  static let missing = "/nonexistent/shieldbridge-locales"

  static let locales = CommandLevel.all.first { $0.path == ["shieldbridge", "locales"] }

  /// The subcommands `locales --help` says take `--dir`: those it names before "find the catalogs".
  static func promised(in help: String) -> Set<String> {
    guard let sentence = help.split(separator: "\n\n").first(where: { $0.contains("find the catalogs") }),
      let end = sentence.firstRange(of: "find the catalogs")
    else { return [] }
    let names = sentence[..<end.lowerBound]
    return Set(
      names.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\n" }).map(String.init)
        .filter { $0 != "and" })
  }

  @Test func theHelpNamesExactlyTheCommandsThatDeclareDir() throws {
    let level = try #require(Self.locales)
    let declaring = Set(
      level.command.subcommands.filter { $0.options.contains { $0.name == "--dir" } }.map(\.name))
    #expect(!declaring.isEmpty)
    #expect(Self.promised(in: level.command.help(path: level.path)) == declaring)
    // Every command but template reads the catalogs; template prints the built-in messages.
    #expect(declaring == Set(level.command.subcommands.map(\.name)).subtracting(["template"]))
  }

  @Test(
    "--dir names the folder",
    arguments: [["check"], ["check", "--json"], ["preview"], ["plural", "ru", "1"], ["negotiate"]])
  func aMissingFolderNamedWithDirIsNoInput(_ arguments: [String]) async {
    #expect(
      await Command.root.run(["locales"] + arguments + ["--dir", Self.missing])
        == Command.Ending(status: .noInput, error: "shieldbridge: no catalog folder at '\(Self.missing)'"))
  }

  @Test func checkTakesTheFolderAsDirOrAsAnArgumentButNotBoth() async {
    #expect(
      await Command.root.run(["locales", "check", Self.missing])
        == Command.Ending(status: .noInput, error: "shieldbridge: no catalog folder at '\(Self.missing)'"))
    #expect(
      await Command.root.run(["locales", "check", "--dir=\(Self.missing)"])
        == Command.Ending(status: .noInput, error: "shieldbridge: no catalog folder at '\(Self.missing)'"))
    #expect(
      await Command.root.run(["locales", "check", "locales", "--dir", Self.missing])
        == ParsingTests.usage(
          "name the catalog folder once, as DIR or with --dir", at: ["shieldbridge", "locales", "check"]))
  }
}
