import Testing

@testable import ShieldBridgeCLI

@Suite("notify takes notify-send's short options as GLib parses them, and -? is help")
struct ShortOptionTests {
  /// `arguments` parsed as `shieldbridge notify` parses them; `nil` when they ask for help.
  private static func parse(_ arguments: [String]) throws(CommandFailure) -> ParsedArguments? {
    try Command.notify.parse(arguments[...], options: Command.notify.options)
  }

  @Test func everyShortOptionOfNotifySendNamesItsLongOption() throws {
    let shorts = Dictionary(
      uniqueKeysWithValues: Command.notify.options.compactMap { option in option.short.map { ($0, option.name) } })
    #expect(
      shorts == [
        "u": "--urgency", "t": "--expire-time", "a": "--app-name", "i": "--icon", "c": "--category",
        "e": "--transient", "h": "--hint", "p": "--print-id", "r": "--replace-id", "w": "--wait", "A": "--action",
      ])
  }

  @Test func flagsClusterAndEachLetterThatTakesAValueTakesTheNextWord() throws {
    let parsed = try #require(
      try Self.parse([
        "-u", "low", "-pwe", "-h", "int:x:1", "-A", "Open", "-a", "App", "-i", "Icon", "Summary", "-", "-eA", "x=Y",
        "-t", "5",
      ]))
    #expect(parsed.positionals == ["Summary", "-"])
    #expect(parsed.values["--urgency"] == ["low"])
    #expect(parsed.values["--print-id"] == [""])
    #expect(parsed.values["--wait"] == [""])
    #expect(parsed.values["--transient"] == ["", ""])
    #expect(parsed.values["--hint"] == ["int:x:1"])
    #expect(parsed.values["--action"] == ["Open", "x=Y"])
    #expect(parsed.values["--app-name"] == ["App"])
    #expect(parsed.values["--icon"] == ["Icon"])
    #expect(parsed.values["--expire-time"] == ["5"])
  }

  @Test func aValueIsNeverAttachedAsGLibNeverAttachesIt() async {
    // notify-send rejects `-ulow` too: it is -u, -l, -o, -w.
    let ending = await Command.root.run(["notify", "x", "-ulow", "normal"])
    #expect(ending.status == .usage)
    #expect(ending.error?.contains("unknown option '-l'") == true)
    // Nor does a word give values to two letters: notify-send fails on `-ut low 0` too.
    let two = await Command.root.run(["notify", "x", "-ut", "low", "0"])
    #expect(two.status == .usage)
    #expect(two.error?.contains("-t and -u both take a value") == true)
  }

  @Test func questionMarkIsHelpAndHIsTheHintInNotifyButHelpElsewhere() throws {
    #expect(try Self.parse(["-?"]) == nil)
    #expect(try Self.parse(["-p?"]) == nil)
    #expect(try Self.parse(["--help"]) == nil)
    #expect(try Self.parse(["x", "-h", "string:a:b"])?.values["--hint"] == ["string:a:b"])
    let status = try #require(Command.root.subcommands.first { $0.name == "status" })
    #expect(try status.parse(["-h"], options: status.options) == nil)
    #expect(try status.parse(["-?"], options: status.options) == nil)
  }

  @Test func anUnknownLetterOrAMissingValueIsAUsageError() async {
    let unknown = await Command.root.run(["notify", "x", "-Z"])
    #expect(unknown.status == .usage)
    #expect(unknown.error?.contains("unknown option '-Z'") == true)
    let missing = await Command.root.run(["notify", "x", "-u"])
    #expect(missing.status == .usage)
    #expect(missing.error?.contains("-u needs a value") == true)
  }
}
