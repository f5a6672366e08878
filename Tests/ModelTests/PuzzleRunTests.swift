import Dispatch
import Foundation
import Model
import Store
import Synchronization
import TestSupport
import Testing

@Suite("One puzzle path: prepare, ask, check, grant")
struct PuzzleRunTests {
  let social = Rule(name: "social", apps: ["Instagram"], maxGrantsPerDay: 2)

  /// A run prepared on `store`, which must be ready to ask.
  func ready(_ store: LedgerStore, seed: UInt64) throws -> PuzzleRun<SeededRandom> {
    let prepared = try PuzzleRun.prepare(for: social, in: store, random: SeededRandom(seed: seed))
    guard case .ready(let run) = prepared.value else {
      Issue.record("expected a task, got \(prepared.value)")
      throw CancellationError()
    }
    return run
  }

  @Test("The four steps with a seeded random: the tasks of PuzzleSession, wrong and blank, then the grant")
  func fourSteps() throws {
    let state = try TemporaryDirectory()
    let store = LedgerStore(directory: state.file("shieldbridge"))
    var run = try ready(store, seed: 42)
    #expect(run.status.grantsToday == 0)
    // Preparing creates nothing on disk: the write check only looks.
    #expect(!FileManager.default.fileExists(atPath: state.file("shieldbridge")))

    var session = PuzzleSession(random: SeededRandom(seed: 42))
    #expect(run.puzzle == session.puzzle)
    let first = run.puzzle
    guard case .blank = run.check("  ") else {
      Issue.record("a blank answer is blank")
      return
    }
    #expect(run.puzzle == first)
    guard case .wrong = run.check(String(first.answer + 1)) else {
      Issue.record("a wrong answer is wrong")
      return
    }
    _ = session.answer(String(first.answer + 1))
    #expect(run.puzzle == session.puzzle)
    #expect(try store.status(of: social).value.grantsToday == 0)

    guard case .solved(let solved) = run.check(" \(run.puzzle.answer)\n") else {
      Issue.record("the right answer solves it")
      return
    }
    let granted = try solved.grant()
    guard case .granted(let grant) = granted.value else {
      Issue.record("expected a grant, got \(granted.value)")
      return
    }
    #expect(grant.day == store.today)
    #expect(grant.status.grantsToday == 1)
    #expect(try store.status(of: social).value.grantsToday == 1)
  }

  @Test("Used up: no task; the last grant taken while a task was open: an outcome, nothing recorded")
  func usedUp() throws {
    let state = try TemporaryDirectory()
    let store = LedgerStore(directory: state.path)
    var run = try ready(store, seed: 1)
    _ = try store.recordGrant(for: social)
    _ = try store.recordGrant(for: social)
    guard case .solved(let solved) = run.check(String(run.puzzle.answer)) else {
      Issue.record("the right answer solves it")
      return
    }
    #expect(try solved.grant().value == .usedUp)
    #expect(try store.status(of: social).value.grantsToday == 2)
    let again = try PuzzleRun.prepare(for: social, in: store, random: SeededRandom(seed: 1)).value
    guard case .usedUp(let status) = again else {
      Issue.record("expected used up, got \(again)")
      return
    }
    #expect(status.grantsToday == 2)
  }

  @Test("Metered and under the limit: no task; at the limit: a task whose grant is recorded once")
  func atLimit() throws {
    let state = try TemporaryDirectory()
    let store = LedgerStore(directory: state.path)
    let day = store.today
    _ = try store.recordMeter(usage: [day: ["social": 11]], metered: ["social"], limitReached: [:], on: day)
    let early = try PuzzleRun.prepare(for: social, in: store, random: SeededRandom(seed: 3)).value
    guard case .notAtLimit(let status) = early else {
      Issue.record("expected not at the limit, got \(early)")
      return
    }
    #expect(status.grantsToday == 0)

    _ = try store.recordMeter(usage: [day: ["social": 300]], metered: ["social"], limitReached: ["social": 0], on: day)
    var first = try ready(store, seed: 3)
    var second = try ready(store, seed: 4)
    guard case .solved(let one) = first.check(String(first.puzzle.answer)),
      case .solved(let two) = second.check(String(second.puzzle.answer))
    else {
      Issue.record("the right answers solve them")
      return
    }
    guard case .granted = try one.grant().value else {
      Issue.record("the first grant at the limit is recorded")
      return
    }
    // The first grant raised the limit while the second task was open.
    #expect(try two.grant().value == .notAtLimit)
    #expect(try store.status(of: social).value.grantsToday == 1)
  }

  @Test("A state folder the grant could not be written to fails before the task")
  func writeCheckFirst() throws {
    let state = try TemporaryDirectory()
    try "not a folder".write(toFile: state.file("file"), atomically: false, encoding: .utf8)
    let store = LedgerStore(directory: state.file("file") + "/shieldbridge")
    #expect(throws: LedgerError.self) {
      try PuzzleRun.prepare(for: social, in: store, random: SeededRandom(seed: 1))
    }
  }

  @Test("Solved puzzles granting at the same moment never exceed the day's maximum")
  func concurrentGrants() throws {
    let state = try TemporaryDirectory()
    let store = LedgerStore(directory: state.path)
    let solved = try (0..<8).map { index -> SolvedPuzzle in
      var run = try ready(store, seed: UInt64(index))
      guard case .solved(let solved) = run.check(String(run.puzzle.answer)) else { throw CancellationError() }
      return solved
    }
    let granted = Atomic<Int>(0)
    let usedUp = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: solved.count) { index in
      switch try? solved[index].grant().value {
      case .granted?: granted.add(1, ordering: .relaxed)
      case .usedUp?: usedUp.add(1, ordering: .relaxed)
      default: break
      }
    }
    #expect(granted.load(ordering: .relaxed) == social.maxGrantsPerDay)
    #expect(usedUp.load(ordering: .relaxed) == solved.count - social.maxGrantsPerDay)
    #expect(try store.status(of: social).value.grantsToday == social.maxGrantsPerDay)
  }
}

@Suite("A task asked is counted in the ledger")
struct PuzzleRunAskTests {
  @Test("Preparing counts nothing; ask() counts one request per shield, per rule and day, solved or not")
  func askCounts() throws {
    let state = try TemporaryDirectory()
    let store = LedgerStore(directory: state.file("shieldbridge"))
    let social = Rule(name: "social", apps: ["Instagram"])
    let prepared = try PuzzleRun.prepare(for: social, in: store, random: SeededRandom(seed: 1)).value
    guard case .ready(let run) = prepared else {
      Issue.record("expected a task, got \(prepared)")
      return
    }
    #expect(!FileManager.default.fileExists(atPath: state.file("shieldbridge")))
    #expect(try run.ask().value == 1)
    // Asked again at the same limit (the task closed and opened again): the same request.
    #expect(try run.ask().value == 1)
    let ledger = try store.load().value
    #expect(ledger.tasksAsked(for: "social", on: store.today) == 1)
    #expect(ledger.tasksAsked(for: "video", on: store.today) == 0)
    #expect(ledger.grants(for: "social", on: store.today) == 0)
  }
}
