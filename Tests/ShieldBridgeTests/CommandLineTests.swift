import TestSupport
import Testing

@Suite("The command line answers --help on every level, --version, and refuses what it does not know")
struct CommandLineTests {
  /// The subcommand names listed under "Commands:" in a help text.
  static func subcommands(in help: String) -> [String] {
    guard let start = help.range(of: "Commands:\n") else { return [] }
    return help[start.upperBound...].split(separator: "\n").prefix { $0.hasPrefix("  ") }
      .compactMap { $0.split(separator: " ").first.map(String.init) }
  }

  @Test func everyLevelAnswersHelpOnStdoutWithExitZero() async throws {
    var pending: [[String]] = [[]]
    var visited = 0
    while let path = pending.popLast() {
      let result = try await ShieldBridgeTool.run(path + ["--help"])
      #expect(result.status == 0, "\(path) --help exited \(String(describing: result.status))")
      #expect(result.output.contains("Usage: shieldbridge"), "\(path) --help printed \(result.output)")
      #expect(result.error.isEmpty)
      visited += 1
      pending += Self.subcommands(in: result.output).map { path + [$0] }
    }
    #expect(visited > 5)
  }

  @Test func versionIsPrinted() async throws {
    let result = try await ShieldBridgeTool.run(["--version"])
    #expect(result.status == 0)
    #expect(result.output.hasPrefix("shieldbridge "))
  }

  @Test(arguments: [["frobnicate"], ["status", "--no-such-flag"], ["link", "frobnicate"], ["status", "extra"], []])
  func unknownCommandsAndFlagsPrintUsageToStderrAndExit64(_ arguments: [String]) async throws {
    let result = try await ShieldBridgeTool.run(arguments)
    #expect(result.status == 64)
    #expect(result.output.isEmpty)
    #expect(result.error.contains("Usage: shieldbridge"))
  }

  @Test func anOptionMissingItsValueIsAUsageError() async throws {
    let result = try await ShieldBridgeTool.run(["puzzle", "--app"])
    #expect(result.status == 64)
    #expect(result.error.contains("--app needs a value"))
  }
}
