import Testing

@testable import ShieldBridgeCLI

/// A group with one option of each kind, declared as a command declares its own.
private struct SampleOptions: OptionGroup {
  let name: Option<String>
  let count: Option<Int>
  let seed: Option<UInt64>
  let tag: RepeatedOption
  let verbose: Flag

  init(declaring options: inout OptionDeclarations) {
    name = options.value("--name", "NAME", "A name.")
    count = options.integer("--count", "N", in: 1...10, "A count.")
    seed = options.integer("--seed", "S", in: 0...UInt64.max, digitsOnly: true, "A seed.")
    tag = options.repeated("--tag", "TAG", "A tag.")
    verbose = options.flag("--verbose", "Say more.")
  }
}

/// A leaf that reads its count, under a root of its own.
private let sampleTree = Command(
  name: "sample", abstract: "A sample tree.",
  subcommands: [
    Command(
      name: "leaf", abstract: "A sample leaf.", arguments: "[WORD…]", argumentCount: 0...Int.max,
      options: SampleOptions.self
    ) { invocation in
      ExitCode(rawValue: Int32(try invocation[\.count] ?? 0))
    }
  ])

@Suite("Options are read through the keys their command declared")
struct OptionReadingTests {
  /// `arguments` parsed as a command with `SampleOptions` parses them.
  private static func invocation(_ arguments: [String]) throws(CommandFailure) -> Invocation<SampleOptions> {
    var declarations = OptionDeclarations()
    let options = SampleOptions(declaring: &declarations)
    let leaf = sampleTree.subcommands[0]
    guard let parsed = try leaf.parse(arguments[...], options: declarations.all) else {
      throw CommandFailure("help was asked for")
    }
    return Invocation(options: options, arguments: parsed)
  }

  @Test func theDeclarationsAreWhatParsingAndHelpUseInTheirOrder() {
    var declarations = OptionDeclarations()
    _ = SampleOptions(declaring: &declarations)
    #expect(
      declarations.all == [
        OptionDeclaration(name: "--name", kind: .value("NAME"), help: "A name."),
        OptionDeclaration(name: "--count", kind: .value("N"), help: "A count."),
        OptionDeclaration(name: "--seed", kind: .value("S"), help: "A seed."),
        OptionDeclaration(name: "--tag", kind: .repeated("TAG"), help: "A tag."),
        OptionDeclaration(name: "--verbose", kind: .flag, help: "Say more."),
      ])
    #expect(sampleTree.subcommands[0].options == declarations.all)
    #expect(
      sampleTree.subcommands[0].help(path: ["sample", "leaf"]) == """
        sample leaf: A sample leaf.

        Usage: sample leaf [options] [WORD…]

        Options:
          --name NAME  A name.
          --count N    A count.
          --seed S     A seed.
          --tag TAG    A tag. (repeatable)
          --verbose    Say more.
          -h, --help   Show this help.
        """)
  }

  @Test func optionsNotGivenReadAsAbsent() throws {
    let invocation = try Self.invocation([])
    #expect(invocation[\.name] == nil)
    #expect(try invocation[\.count] == nil)
    #expect(invocation[\.tag] == [])
    #expect(!invocation[\.verbose])
  }

  @Test func aRepeatedValueOptionKeepsTheLastAndARepeatableOneKeepsAllInOrder() throws {
    let invocation = try Self.invocation([
      "--name", "a", "--tag", "x", "--name=b", "--tag=y", "--count", "2", "--tag", "x", "--count=3",
      "--verbose", "--verbose",
    ])
    #expect(invocation[\.name] == "b")
    #expect(try invocation[\.count] == 3)
    #expect(invocation[\.tag] == ["x", "y", "x"])
    #expect(invocation[\.verbose])
  }

  @Test func aValueMayLookLikeAnOptionAndDoubleDashEndsTheOptions() throws {
    let invocation = try Self.invocation(["--name", "--verbose", "word", "-", "--", "--tag", "-x"])
    #expect(invocation[\.name] == "--verbose")
    #expect(!invocation[\.verbose])
    #expect(invocation[\.tag] == [])
    #expect(invocation.positionals == ["word", "-", "--tag", "-x"])
    #expect(invocation.positional(3) == "-x")
    #expect(invocation.positional(4) == nil)
  }

  @Test func anIntegerIsCheckedAgainstItsDeclaredRangeWhenRead() throws {
    #expect(try Self.invocation(["--count", "+4"])[\.count] == 4)
    #expect(try Self.invocation(["--count", "10"])[\.count] == 10)
    for text in ["0", "11", "-1", "1.5", "", "ten", "99999999999999999999"] {
      let invocation = try Self.invocation(["--count", text])
      #expect(throws: CommandFailure.self) { try invocation[\.count] }
      do {
        _ = try invocation[\.count]
      } catch {
        #expect(error.exitCode == .usage)
        #expect(error.message == "--count takes a whole number from 1 to 10, not '\(text)'")
      }
    }
  }

  @Test func aDigitsOnlyIntegerRefusesASign() throws {
    #expect(try Self.invocation(["--seed", "007"])[\.seed] == 7)
    #expect(try Self.invocation(["--seed", "18446744073709551615"])[\.seed] == UInt64.max)
    for text in ["+5", "-0", "18446744073709551616", " 1"] {
      let invocation = try Self.invocation(["--seed", text])
      #expect(throws: CommandFailure.self) { try invocation[\.seed] }
    }
  }

  @Test func theNamesGivenAreListedSorted() throws {
    let invocation = try Self.invocation(["--verbose", "--tag", "a", "--name", "n", "--tag", "b"])
    #expect(invocation.givenOptionNames == ["--name", "--tag", "--verbose"])
  }

  @Test func aFailureWhileReadingIsAUsageErrorOfItsCommand() async {
    #expect(
      await sampleTree.run(["leaf", "--count", "0"])
        == Command.Ending(
          status: .usage,
          error: """
            sample: --count takes a whole number from 1 to 10, not '0'

            Usage: sample leaf [options] [WORD…]
            See 'sample leaf --help'.
            """))
    #expect(await sampleTree.run(["leaf", "--count=7", "word"]) == Command.Ending(status: ExitCode(rawValue: 7)))
    #expect(
      await sampleTree.run(["leaf", "--count"])
        == Command.Ending(
          status: .usage,
          error: """
            sample: --count needs a value

            Usage: sample leaf [options] [WORD…]
            See 'sample leaf --help'.
            """))
  }
}
