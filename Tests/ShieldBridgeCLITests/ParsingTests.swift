import Testing

@testable import ShieldBridgeCLI

@Suite("Command lines are parsed against the declared options, and mistakes are usage errors (64)")
struct ParsingTests {
  /// The message the tree prints for a usage mistake at `path`.
  static func usage(_ message: String, at path: [String]) -> Command.Ending {
    let command = CommandLevel.all.first { $0.path == path }?.command
    return Command.Ending(
      status: .usage, error: "shieldbridge: \(message)\n\n" + (command?.usage(path: path) ?? "no such command"))
  }

  @Test func anUnknownOptionIsAUsageError() async {
    #expect(
      await Command.root.run(["status", "--no-such-flag"])
        == Self.usage("unknown option '--no-such-flag'", at: ["shieldbridge", "status"]))
    // Another command's option is unknown here too.
    #expect(
      await Command.root.run(["status", "--app", "Firefox"])
        == Self.usage("unknown option '--app'", at: ["shieldbridge", "status"]))
    #expect(
      await Command.root.run(["link", "build", "puzzle", "--scheme=x", "--view=home"])
        == Self.usage("unknown option '--view'", at: ["shieldbridge", "link", "build", "puzzle"]))
  }

  @Test func anUnknownOrMissingCommandIsAUsageError() async {
    #expect(
      await Command.root.run(["frobnicate"]) == Self.usage("unknown command 'frobnicate'", at: ["shieldbridge"]))
    #expect(await Command.root.run([]) == Self.usage("missing command", at: ["shieldbridge"]))
    #expect(
      await Command.root.run(["link", "build"]) == Self.usage("missing command", at: ["shieldbridge", "link", "build"]))
    // --version belongs to the root only.
    #expect(
      await Command.root.run(["link", "--version"])
        == Self.usage("unknown command '--version'", at: ["shieldbridge", "link"]))
  }

  @Test func anOptionMissingItsValueIsAUsageError() async {
    #expect(
      await Command.root.run(["puzzle", "--app"]) == Self.usage("--app needs a value", at: ["shieldbridge", "puzzle"]))
    #expect(
      await Command.root.run(["notify", "--hint"])
        == Self.usage("--hint needs a value", at: ["shieldbridge", "notify"]))
  }

  @Test func aFlagTakesNoValue() async {
    #expect(
      await Command.root.run(["status", "--json=yes"])
        == Self.usage("--json takes no value", at: ["shieldbridge", "status"]))
  }

  @Test func anIntegerOutsideItsDeclaredRangeIsAUsageErrorNamingTheRange() async {
    #expect(
      await Command.root.run(["link", "build", "puzzle", "--grant", "0"])
        == Self.usage(
          "--grant takes a whole number from 1 to 120, not '0'", at: ["shieldbridge", "link", "build", "puzzle"]))
    #expect(
      await Command.root.run(["link", "build", "puzzle", "--grant=many"])
        == Self.usage(
          "--grant takes a whole number from 1 to 120, not 'many'", at: ["shieldbridge", "link", "build", "puzzle"]))
    #expect(
      await Command.root.run(["notify", "--expire-time", "-2", "Hello"])
        == Self.usage(
          "--expire-time takes a whole number from -1 to 2147483647, not '-2'", at: ["shieldbridge", "notify"]))
    #expect(
      await Command.root.run(["notify", "--replace-id", "4294967296", "Hello"])
        == Self.usage(
          "--replace-id takes a whole number from 1 to 4294967295, not '4294967296'", at: ["shieldbridge", "notify"]))
    #expect(
      await Command.root.run(["puzzle", "--seed", "+5"])
        == Self.usage(
          "--seed takes a whole number from 0 to 18446744073709551615, not '+5'", at: ["shieldbridge", "puzzle"]))
  }

  @Test func positionalArgumentsAreCounted() async {
    #expect(
      await Command.root.run(["status", "extra"])
        == Self.usage("unexpected argument 'extra'", at: ["shieldbridge", "status"]))
    #expect(
      await Command.root.run(["notify"])
        == Self.usage("missing argument, expected: SUMMARY [BODY]", at: ["shieldbridge", "notify"]))
    #expect(
      await Command.root.run(["open", "a", "b"]) == Self.usage("unexpected argument 'b'", at: ["shieldbridge", "open"]))
  }
}
