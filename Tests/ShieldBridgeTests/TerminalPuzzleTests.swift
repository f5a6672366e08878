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
    let status = try await ShieldBridgeTool.run(["status", "--json"], environment: environment)
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
    // The longest pause, so that a busy machine still sees the countdown running and a later second of it;
    // the answer taken after the pause is PuzzleCommandTests' (piped, with a short pause).
    try sandbox.writeConfig(#"{"rules":[{"name":"social","apps":["Instagram"],"pauseSeconds":60}]}"#)
    let seed: UInt64 = 5
    let task = tasks(seed: seed, count: 1)[0]
    let tmux = try Tmux(sandbox: sandbox)
    try await tmux.start([ShieldBridgeTool.path, "puzzle", "--app", "Instagram", "--seed", String(seed)])
    func secondsShown(_ screen: String) -> Int? {
      guard let wait = screen.range(of: "\nWait ") else { return nil }
      return Int(screen[wait.upperBound...].prefix { $0.isNumber })
    }
    let first = try await tmux.waitForScreen("the countdown") { $0.contains("What is \(task.text)?\nWait ") }
    let shown = try #require(secondsShown(first))
    // The countdown rewrites its one line: a later second replaces the first, never a second line.
    let later = try await tmux.waitForScreen("a later second") { screen in
      secondsShown(screen).map { $0 < shown } ?? false
    }
    #expect(later.components(separatedBy: "before you answer.").count == 2, "\(later)")
    #expect(!later.contains("Answer:"), "\(later)")
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
