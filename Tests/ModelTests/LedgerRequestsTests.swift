import Dispatch
import Foundation
import JSON
import Model
import Store
import Synchronization
import TestSupport
import Testing

@Suite("The ledger counts the tasks asked and the way outs taken per rule and day")
struct LedgerRequestsTests {
  let today = LocalDay("2026-11-29")!

  @Test("A ledger written before the counts existed reads them as zero")
  func oldLedgerReadsZero() throws {
    let text = #"{"version":1,"days":[{"date":"2026-11-29","grants":{"social":2},"usedSeconds":{"social":610}}]}"#
    let ledger = try Ledger(json: JSONValue(parsing: text))
    #expect(ledger.tasksAsked(for: "social", on: today) == 0)
    #expect(ledger.backedOut(for: "social", on: today) == 0)
    #expect(ledger.grants(for: "social", on: today) == 2)
    // Nothing is added to the file until something is counted.
    #expect(ledger.json.serialized == text)
  }

  @Test("Counts are kept per rule and day, written beside the grants, and read back")
  func recordAndRoundTrip() throws {
    var ledger = Ledger()
    let yesterday = today.adding(days: -1)!
    #expect(ledger.recordTaskAsked(for: "social", on: today) == 1)
    // Another task at the same limit is the same request; after a grant, the next limit's is the next.
    #expect(ledger.recordTaskAsked(for: "social", on: today) == 1)
    try ledger.recordGrant(for: Rule(name: "social", apps: ["Instagram"]), on: today)
    #expect(ledger.recordTaskAsked(for: "social", on: today) == 2)
    #expect(ledger.recordTaskAsked(for: "video", on: today) == 1)
    #expect(ledger.recordBackedOut(for: "social", on: today) == 1)
    #expect(ledger.recordTaskAsked(for: "social", on: yesterday) == 1)
    #expect(ledger.tasksAsked(for: "social", on: today) == 2)
    #expect(ledger.tasksAsked(for: "social", on: yesterday) == 1)
    #expect(ledger.backedOut(for: "video", on: today) == 0)
    let text = ledger.json.serialized
    #expect(
      text
        == #"{"version":1,"days":[{"date":"2026-11-28","grants":{},"tasksAsked":{"social":1},"#
        + #""tasksAskedAt":{"social":0}},{"date":"2026-11-29","grants":{"social":1},"#
        + #""tasksAsked":{"social":2,"video":1},"backedOut":{"social":1},"tasksAskedAt":{"social":1,"video":0}}]}"#)
    let read = try Ledger(json: JSONValue(parsing: text))
    #expect(read == ledger)
    #expect(read.json.serialized == text)
  }

  @Test("Over seeded sequences of asks, grants and days, a request counts exactly when its rule's shield is new")
  func oncePerShield() throws {
    var random = SeededRandom(seed: 25)
    let rules = ["social", "video"].map { Rule(name: $0, apps: [AppPattern(name: $0)], maxGrantsPerDay: 100) }
    for _ in 0..<300 {
      var ledger = Ledger()
      // The model: per day and rule, the grants at the last counted request, and the count.
      var lastShield: [LocalDay: [String: Int]] = [:]
      var counts: [LocalDay: [String: Int]] = [:]
      for _ in 0..<40 {
        let rule = rules[Int.random(in: 0..<rules.count, using: &random)]
        let day = today.adding(days: Int.random(in: 0..<2, using: &random))!
        if Int.random(in: 0..<3, using: &random) == 0 {
          try ledger.recordGrant(for: rule, on: day)
          continue
        }
        let shield = ledger.grants(for: rule.name, on: day)
        let isNew = lastShield[day]?[rule.name] != shield
        if isNew {
          lastShield[day, default: [:]][rule.name] = shield
          counts[day, default: [:]][rule.name, default: 0] += 1
        }
        let counted = ledger.recordTaskAsked(for: rule.name, on: day)
        #expect(counted == counts[day]?[rule.name])
        // What is written reads back to the same decisions.
        ledger = try Ledger(json: JSONValue(parsing: ledger.json.serialized))
      }
    }
  }

  @Test("A day with only counts may leave out its grants, as a day of use may")
  func countsAlone() throws {
    let text = #"{"version":1,"days":[{"date":"2026-11-29","backedOut":{"social":3}}]}"#
    let ledger = try Ledger(json: JSONValue(parsing: text))
    #expect(ledger.backedOut(for: "social", on: today) == 3)
    #expect(ledger.grants(for: "social", on: today) == 0)
  }

  @Test(
    "A count that is not a whole number in range makes the ledger damaged, naming it",
    arguments: [
      (#"{"social":-1}"#, "the count for 'social' is not valid"),
      (#"{"social":1.5}"#, "the count for 'social' is not valid"),
      (#"{"social":"2"}"#, "the count for 'social' is not valid"),
      (#"{"social":10001}"#, "the count for 'social' is not valid"),
      (#"[1]"#, "is not an object"),
    ])
  func badCounts(value: String, problem: String) throws {
    for key in ["tasksAsked", "backedOut"] {
      let text = #"{"version":1,"days":[{"date":"2026-11-29","grants":{},"\#(key)":\#(value)}]}"#
      #expect {
        _ = try Ledger(json: JSONValue(parsing: text))
      } throws: { error in
        "\(error)".contains("days[0].\(key)") && "\(error)".contains(problem)
      }
    }
  }

  @Test("Old days' counts are dropped with their day")
  func forgetsOldDays() {
    var ledger = Ledger()
    ledger.recordTaskAsked(for: "social", on: today.adding(days: -Ledger.keptDays)!)
    ledger.recordBackedOut(for: "social", on: today.adding(days: -Ledger.keptDays)!)
    ledger.recordTaskAsked(for: "social", on: today.adding(days: -1)!)
    ledger.forgetOldDays(before: today)
    #expect(ledger.tasksAskedByDay.keys.sorted() == [today.adding(days: -1)!])
    #expect(ledger.backedOutByDay.isEmpty)
  }

  @Test("The store counts under the lock: a grant and the meter's save keep the counts")
  func storeKeepsCounts() throws {
    let state = try TemporaryDirectory()
    let store = LedgerStore(directory: state.path)
    let rule = Rule(name: "social", apps: ["Instagram"])
    #expect(try store.recordTaskAsked(for: "social").value.count == 1)
    #expect(try store.recordTaskAsked(for: "social").value == DayCount(day: store.today, count: 1))
    #expect(try store.recordBackedOut(for: "social").value.count == 1)
    _ = try store.recordGrant(for: rule)
    #expect(try store.recordTaskAsked(for: "social").value == DayCount(day: store.today, count: 2))
    _ = try store.recordMeter(
      usage: [store.today: ["social": 120]], metered: ["social"], limitReached: ["social": 1], on: store.today)
    let ledger = try store.load().value
    #expect(ledger.tasksAsked(for: "social", on: store.today) == 2)
    #expect(ledger.backedOut(for: "social", on: store.today) == 1)
    #expect(ledger.grants(for: "social", on: store.today) == 1)
    #expect(ledger.usedSeconds(for: "social", on: store.today) == 120)
  }

  @Test("Counts made at the same moment by separate stores are all kept; the requests are one shield's")
  func concurrentCounts() throws {
    let state = try TemporaryDirectory()
    let stores = (0..<4).map { _ in LedgerStore(directory: state.path) }
    let failures = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: 40) { index in
      let store = stores[index % stores.count]
      let counted =
        index.isMultiple(of: 2)
        ? try? store.recordTaskAsked(for: "social") : try? store.recordBackedOut(for: "social")
      if counted == nil { failures.add(1, ordering: .relaxed) }
    }
    #expect(failures.load(ordering: .relaxed) == 0)
    let ledger = try stores[0].load().value
    #expect(ledger.tasksAsked(for: "social", on: stores[0].today) == 1)
    #expect(ledger.backedOut(for: "social", on: stores[0].today) == 20)
  }

  @Test("A ledger that cannot be written refuses the count and is left as it was")
  func unwritable() throws {
    let state = try TemporaryDirectory()
    let store = LedgerStore(directory: state.path)
    _ = try store.recordTaskAsked(for: "social")
    let before = try String(contentsOfFile: store.path, encoding: .utf8)
    try "not a folder".write(toFile: state.file("file"), atomically: false, encoding: .utf8)
    let blocked = LedgerStore(directory: state.file("file") + "/shieldbridge")
    #expect(throws: LedgerError.self) { try blocked.recordTaskAsked(for: "social") }
    #expect(try String(contentsOfFile: store.path, encoding: .utf8) == before)
  }
}
