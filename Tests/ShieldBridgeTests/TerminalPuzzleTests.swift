import Foundation
import JSON
import Spawn
import TestSupport
import Testing

/// A tmux server of the test's own, on a socket in the sandbox, with no
/// configuration but `remain-on-exit` (so that the last screen can still be
/// read after the program has ended). It is killed when the value goes.
private final class Tmux: Sendable {
  private let tmux: String
  private let socket: String
  private let configuration: String
  private let environment: [String: String]
  static let session = "puzzle"

  init(sandbox: Sandbox) throws {
    tmux = try requiredTool("tmux", package: "tmux")
    socket = sandbox.root.file("tmux.socket")
    configuration = sandbox.root.file("tmux.conf")
    environment = ShieldBridgeTool.mergedEnvironment(sandbox.isolatedEnvironment)
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

@Suite("The terminal puzzle in a real terminal (tmux)")
struct TerminalPuzzleTests {
  @Test func aWrongAnswerGetsANewTaskAndTheRightOneRecordsOneGrant() async throws {
    let sandbox = try Sandbox()
    try sandbox.writeServiceConfig()
    let seed: UInt64 = 2026
    let drawn = tasks(seed: seed, count: 2)
    let (first, second) = (drawn[0], drawn[1])
    let tmux = try Tmux(sandbox: sandbox)
    try await tmux.start([ShieldBridgeTool.path, "puzzle", "--app", "Instagram", "--seed", String(seed)])

    _ = try await tmux.waitForScreen("the first task") { $0.contains("What is \(first.text)?") }
    try await tmux.type(String(first.answer + 1))
    let wrong = "That is not the answer. Here is a new task."
    let afterWrong = try await tmux.waitForScreen("a new task") { screen in
      screen.components(separatedBy: wrong).dropFirst().first?.contains("What is \(second.text)?") == true
    }
    // The terminal echoed what was typed.
    #expect(afterWrong.contains("Answer: \(first.answer + 1)\n"))

    try await tmux.type(String(second.answer))
    let solved = try await tmux.waitForScreen("the unlocked line") { $0.contains("unlocked") }
    #expect(solved.contains("5 more minutes for Instagram are unlocked for today."))

    let environment = sandbox.isolatedEnvironment
    let status = try await onOwnThread { try ShieldBridgeTool.run(["status", "--json"], environment: environment) }
    #expect(status.status == 0, "\(status.error)")
    let rules = try JSONValue(parsing: status.output)["rules"]?.arrayValue
    #expect(rules?.first?["grantsToday"]?.integerValue == 1)
    #expect(rules?.first?["limitTodayMinutes"]?.integerValue == 10)
  }

  @Test func theWayOutIsOfferedBeforeTheTaskAndQTakesIt() async throws {
    let sandbox = try Sandbox()
    try sandbox.writeServiceConfig()
    let seed: UInt64 = 11
    let task = tasks(seed: seed, count: 1)[0]
    let tmux = try Tmux(sandbox: sandbox)
    try await tmux.start([ShieldBridgeTool.path, "puzzle", "--app", "Instagram", "--seed", String(seed)])
    let asked = try await tmux.waitForScreen("the task") { $0.contains("What is \(task.text)?") }
    let offer = "To close Instagram instead, type q."
    #expect(asked.contains(offer), "\(asked)")
    let offered = asked.range(of: offer)?.lowerBound ?? asked.endIndex
    #expect(offered < (asked.range(of: "What is")?.lowerBound ?? asked.startIndex))
    try await tmux.type("q")
    _ = try await tmux.waitForScreen("the paused line") { $0.contains("Answer: q\n\nInstagram is paused") }
    let store = sandbox.store
    #expect(try store.load().value.backedOut(for: "social", on: store.today) == 1)
    #expect(try store.load().value.grants(for: "social", on: store.today) == 0)
  }

  @Test func aRulesPauseCountsDownOnOneLineBeforeTheAnswerIsRead() async throws {
    let sandbox = try Sandbox()
    try sandbox.writeConfig(#"{"rules":[{"name":"social","apps":["Instagram"],"pauseSeconds":4}]}"#)
    let seed: UInt64 = 5
    let task = tasks(seed: seed, count: 1)[0]
    let tmux = try Tmux(sandbox: sandbox)
    try await tmux.start([ShieldBridgeTool.path, "puzzle", "--app", "Instagram", "--seed", String(seed)])
    _ = try await tmux.waitForScreen("the countdown") { $0.contains("What is \(task.text)?\nWait ") }
    // The countdown rewrites its one line: a later second replaces the first, never a second line.
    let later = try await tmux.waitForScreen("a later second") {
      $0.contains("Wait 2 seconds before you answer.") || $0.contains("Wait 1 second before you answer.")
    }
    #expect(later.components(separatedBy: "before you answer.").count == 2, "\(later)")
    // capture-pane drops the prompt's trailing space.
    let prompt = try await tmux.waitForScreen("the prompt after the pause") { $0.contains("Answer:") }
    #expect(!prompt.contains("before you answer."), "\(prompt)")
    try await tmux.type(String(task.answer))
    _ = try await tmux.waitForScreen("the unlocked line") { $0.contains("unlocked") }
  }

  @Test func theLastScreenStaysUntilEnter() async throws {
    let sandbox = try Sandbox()
    try sandbox.writeServiceConfig()
    let seed: UInt64 = 7
    let task = tasks(seed: seed, count: 1)[0]
    let tmux = try Tmux(sandbox: sandbox)
    try await tmux.start([ShieldBridgeTool.path, "puzzle", "--app", "Instagram", "--seed", String(seed)])
    _ = try await tmux.waitForScreen("the task") { $0.contains("What is \(task.text)?") }
    try await tmux.type(String(task.answer))
    _ = try await tmux.waitForScreen("the unlocked line") { $0.contains("unlocked") }
    #expect(try await !tmux.programEnded(), "the last screen closed without Enter")
    try await tmux.run(["send-keys", "-t", Tmux.session, "Enter"])
    _ = try await poll("the puzzle ending after Enter", timeout: .seconds(8)) {
      try await tmux.programEnded() ? true : nil
    }
  }
}
