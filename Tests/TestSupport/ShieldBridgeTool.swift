import Foundation
public import Spawn

/// The `shieldbridge` executable built beside the tests, and ways to run it.
public enum ShieldBridgeTool {
  /// The path of the built `shieldbridge` binary, in the same build folder as the test bundle.
  public static var path: String {
    let testBinary =
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments[0]
    return URL(fileURLWithPath: testBinary).deletingLastPathComponent()
      .appendingPathComponent("shieldbridge").path
  }

  /// Runs `shieldbridge` with `arguments` and returns what it printed and how it ended.
  ///
  /// - Parameters:
  ///   - input: Bytes written to its stdin, which is then closed.
  ///   - environment: Variables set on top of this process's environment
  ///     (an empty value removes the variable).
  ///   - timeout: After this the process is killed and `termination` is `nil`.
  /// Children that exit before reading all their input must not end the test process.
  private static let pipeSignalIgnored: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

  public static func run(
    _ arguments: [String],
    input: String = "",
    environment: [String: String] = [:],
    timeout: Duration = .seconds(30)
  ) async throws -> Subprocess.Result {
    _ = pipeSignalIgnored
    let command = [path] + arguments
    let bytes = Array(input.utf8)
    let merged = mergedEnvironment(environment)
    // The wait for the child runs on a thread of its own: on the few threads that run every
    // test's tasks, waits like it starve the other tests' handlers and timers on a busy machine.
    return try await onOwnThread {
      try Subprocess.run(command, input: bytes, environment: merged, timeout: timeout)
    }
  }

  /// `SHIELDBRIDGE_TEST_RUN` with this run's mark, for a command started with an emptied environment
  /// (`env -i`), so that `scripts/check-leftovers` still sees it; empty outside `make test`.
  public static var testRunMark: [String: String] {
    ProcessInfo.processInfo.environment["SHIELDBRIDGE_TEST_RUN"].map { ["SHIELDBRIDGE_TEST_RUN": $0] } ?? [:]
  }

  /// This process's environment with `changes` applied; an empty value removes a variable.
  public static func mergedEnvironment(_ changes: [String: String]) -> [String: String] {
    var environment = ProcessInfo.processInfo.environment
    for (key, value) in changes {
      environment[key] = value.isEmpty ? nil : value
    }
    return environment
  }
}

/// A temporary directory removed when the value is released.
public final class TemporaryDirectory: Sendable {
  public let path: String

  public init(prefix: String = "shieldbridge-test") throws {
    let template = NSTemporaryDirectory() + "/\(prefix).XXXXXX"
    var bytes = Array(template.utf8CString)
    guard let result = mkdtemp(&bytes) else {
      throw CocoaError(.fileWriteUnknown)
    }
    path = String(cString: result)
  }

  /// A path inside the directory.
  public func file(_ name: String) -> String { path + "/" + name }

  deinit {
    try? FileManager.default.removeItem(atPath: path)
  }
}
