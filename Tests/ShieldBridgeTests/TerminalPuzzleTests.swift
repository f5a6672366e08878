import Foundation
import JSON
import Spawn
import TestSupport
import Testing

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
