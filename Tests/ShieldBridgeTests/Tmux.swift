import Foundation
import Spawn
import TestSupport

/// A tmux server of the test's own, on a socket in the sandbox, with no
/// configuration but `remain-on-exit` (so that the last screen can still be
/// read after the program has ended). It is killed when the value goes.
final class Tmux: Sendable {
  /// Held so that the sandbox, and the server's socket in it, outlive the server:
  /// a test's sandbox may go before its last use of the server.
  private let sandbox: Sandbox
  private let tmux: String
  private let socket: String
  private let configuration: String
  private let environment: [String: String]
  static let session = "puzzle"

  /// - Parameter environment: The programs' environment; the sandbox's isolated one unless given.
  init(sandbox: Sandbox, environment: [String: String]? = nil) throws {
    self.sandbox = sandbox
    tmux = try requiredTool("tmux", package: "tmux")
    socket = sandbox.root.file("tmux.socket")
    configuration = sandbox.root.file("tmux.conf")
    self.environment = ShieldBridgeTool.mergedEnvironment(environment ?? sandbox.isolatedEnvironment)
    try "set-option -g remain-on-exit on\n".write(toFile: configuration, atomically: true, encoding: .utf8)
  }

  deinit {
    _ = try? runBlocking(["kill-server"])
  }

  /// Runs a tmux command against this server; `-u`: the screen is UTF-8 whatever the locale.
  @discardableResult
  func run(_ arguments: [String]) async throws -> Subprocess.Result {
    try await onOwnThread { try self.runBlocking(arguments) }
  }

  private func runBlocking(_ arguments: [String]) throws -> Subprocess.Result {
    let result = try Subprocess.run(
      [tmux, "-u", "-f", configuration, "-S", socket] + arguments, environment: environment, timeout: .seconds(10))
    guard result.status == 0 else {
      throw DesktopError("tmux \(arguments.joined(separator: " ")) failed: \(result.error)")
    }
    return result
  }

  /// Starts the server with a detached session that runs `argv` directly (no shell) in an 80×24 terminal.
  func start(_ argv: [String]) async throws {
    try await run(["new-session", "-d", "-s", Self.session, "-x", "80", "-y", "24", "--"] + argv)
  }

  /// What the terminal shows now.
  func screen() async throws -> String {
    try await run(["capture-pane", "-p", "-t", Self.session]).output
  }

  /// Waits until the screen satisfies `condition`; returns it.
  func waitForScreen(_ what: String, until condition: @escaping (String) -> Bool) async throws -> String {
    try await poll("\(what) on the terminal", every: .milliseconds(50)) {
      let screen = try await self.screen()
      return condition(screen) ? screen : nil
    }
  }

  /// Whether the program in the session's pane has ended (`remain-on-exit` keeps the pane).
  func programEnded() async throws -> Bool {
    try await run(["display-message", "-p", "-t", Self.session, "#{pane_dead}"]).output.hasPrefix("1")
  }

  /// Types `text` and Enter, as keys.
  func type(_ text: String) async throws {
    try await run(["send-keys", "-t", Self.session, "-l", text])
    try await run(["send-keys", "-t", Self.session, "Enter"])
  }
}
