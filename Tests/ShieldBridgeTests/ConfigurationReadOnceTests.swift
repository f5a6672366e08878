import Foundation
import Spawn
import TestSupport
import Testing

/// `config.json` is read once per command (issue 40 point 3): the day start the
/// ledger needs comes from the configuration the command read, not from a second read.
@Suite("A command reads config.json once")
struct ConfigurationReadOnceTests {
  /// How many times `arguments` opens the sandbox's `config.json`, seen by strace.
  private func opens(of sandbox: Sandbox, running arguments: [String]) async throws -> Int {
    let strace = try requiredTool("strace", package: "strace")
    let trace = sandbox.root.file("trace")
    let result = try await onOwnThread {
      try Subprocess.run(
        [strace, "-f", "-qq", "-o", trace, "-e", "trace=open,openat,openat2", ShieldBridgeTool.path] + arguments,
        environment: ShieldBridgeTool.mergedEnvironment(sandbox.isolatedEnvironment), timeout: .seconds(60))
    }
    #expect(result.status == 0, "\(arguments): \(result.output) \(result.error)")
    let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
    return lines.filter { $0.contains("\"\(sandbox.configPath)\"") && !$0.contains("ENOENT") }.count
  }

  @Test("report and status each open config.json once", arguments: [["report", "--days", "1"], ["status", "--json"]])
  func onceEach(arguments: [String]) async throws {
    let sandbox = try Sandbox()
    try sandbox.writeConfig(
      #"{"dayStartsAt":"04:00","rules":[{"name":"social","apps":["Instagram"],"dailyLimitMinutes":5}]}"#)
    #expect(try await opens(of: sandbox, running: arguments) == 1)
  }
}
