import JSON
import Model
import Store
import TestSupport
import Testing

@Suite("The ledger keeps what the meter saw of the limits, and grants only at the limit")
struct LedgerMeterTests {
  let social = Rule(name: "social", apps: ["Instagram"], maxGrantsPerDay: 3)
  let today = LocalDay("2026-11-29")!

  @Test("The meter's record is stored as the documented JSON, beside the grants and the use")
  func documentedForm() throws {
    var ledger = Ledger()
    ledger.recordUsedSeconds(300, for: "social", on: today)
    ledger.recordMeter(metered: ["video", "social"], limitReached: ["social": 0], on: today)
    try ledger.recordGrant(for: social, on: today)
    ledger.recordMeter(metered: ["video"], limitReached: [:], on: today.adding(days: -1)!)
    #expect(
      ledger.json.serialized
        == #"{"version":1,"days":[{"date":"2026-11-28","grants":{},"metered":["video"]},"#
        + #"{"date":"2026-11-29","grants":{"social":1},"usedSeconds":{"social":300},"#
        + #""metered":["social","video"],"limitReached":{"social":0}}]}"#)
  }

  @Test("A ledger with the meter's record survives its stored form unchanged")
  func roundTrip() throws {
    var random = SeededRandom(seed: 20)
    let names = ["social", "video", "Spiele", "x\"y"]
    for _ in 0..<50 {
      var ledger = Ledger()
      for _ in 0..<Int(random.next() % 20) {
        let day = today.adding(days: -Int(random.next() % 7))!
        let name = names[Int(random.next() % 4)]
        switch random.next() % 4 {
        case 0: _ = try? ledger.recordGrant(for: Rule(name: name, apps: []), on: day)
        case 1: ledger.recordUsedSeconds(Int(random.next() % 90_001), for: name, on: day)
        case 2: ledger.recordMeter(metered: [name], limitReached: [:], on: day)
        default: ledger.recordMeter(metered: [], limitReached: [name: Int(random.next() % 5)], on: day)
        }
      }
      let text = ledger.json.serialized
      var warnings: [LedgerWarning] = []
      #expect(try Ledger(json: JSONValue(parsing: text), warnings: &warnings) == ledger)
      #expect(warnings.isEmpty)
      #expect(try Ledger(json: JSONValue(parsing: text)).json.serialized == text)
    }
  }

  @Test("A file written before the meter's record is read without loss: nothing is metered")
  func oldFile() throws {
    let text =
      #"{"version":1,"days":[{"date":"2026-11-29","grants":{"social":2},"usedSeconds":{"social":700}}]}"#
    let ledger = try Ledger(json: JSONValue(parsing: text))
    #expect(ledger.grants(for: "social", on: today) == 2)
    #expect(ledger.usedSeconds(for: "social", on: today) == 700)
    #expect(ledger.metered(on: today).isEmpty)
    #expect(ledger.limitReached(for: "social", on: today) == nil)
    #expect(ledger.grantStanding(of: social, on: today) == .open)
    #expect(ledger.json.serialized == text)
  }

  @Test("A day may hold the meter's record alone; a bad one is refused like bad grants")
  func strictReading() throws {
    let alone = try Ledger(json: JSONValue(parsing: #"{"version":1,"days":[{"date":"2026-11-29","metered":["a"]}]}"#))
    #expect(alone.metered(on: today) == ["a"])
    #expect(alone.days.isEmpty)
    for bad in [
      #"{"version":1,"days":[{"date":"2026-11-29","grants":{},"metered":"social"}]}"#,
      #"{"version":1,"days":[{"date":"2026-11-29","grants":{},"metered":[1]}]}"#,
      #"{"version":1,"days":[{"date":"2026-11-29","grants":{},"limitReached":[]}]}"#,
      #"{"version":1,"days":[{"date":"2026-11-29","grants":{},"limitReached":{"social":-1}}]}"#,
      #"{"version":1,"days":[{"date":"2026-11-29","grants":{},"limitReached":{"social":"0"}}]}"#,
    ] {
      #expect(throws: LedgerFormatError.self, "\(bad)") { try Ledger(json: JSONValue(parsing: bad)) }
    }
  }

  @Test("The meter's record only grows during a day, and old days are dropped with the rest")
  func growsAndIsForgotten() {
    var ledger = Ledger()
    ledger.recordMeter(metered: ["social", "video"], limitReached: ["social": 2], on: today)
    ledger.recordMeter(metered: ["video"], limitReached: ["social": 1, "video": 0], on: today)
    #expect(ledger.metered(on: today) == ["social", "video"])
    #expect(ledger.limitReached(for: "social", on: today) == 2)
    #expect(ledger.limitReached(for: "video", on: today) == 0)
    let old = today.adding(days: -Ledger.keptDays)!
    ledger.recordMeter(metered: ["social"], limitReached: ["social": 0], on: old)
    ledger.forgetOldDays(before: today)
    #expect(ledger.meteredByDay.keys.sorted() == [today])
    #expect(ledger.limitReachedByDay.keys.sorted() == [today])
  }

  @Test("Metered and under the limit: refused; at the limit: granted; the next grant needs the limit again")
  func atLimitRule() throws {
    var ledger = Ledger()
    ledger.recordMeter(metered: ["social"], limitReached: [:], on: today)
    #expect(ledger.grantStanding(of: social, on: today) == .notAtLimit)
    #expect(throws: GrantRefusal.notAtLimit(rule: "social", grantsToday: 0, day: today)) {
      try ledger.recordGrant(for: social, on: today)
    }
    ledger.recordMeter(metered: ["social"], limitReached: ["social": 0], on: today)
    #expect(ledger.grantStanding(of: social, on: today) == .open)
    #expect(try ledger.recordGrant(for: social, on: today) == 1)
    // The grant raised the limit: the meter has not seen the new one reached.
    #expect(ledger.grantStanding(of: social, on: today) == .notAtLimit)
    #expect(throws: GrantRefusal.notAtLimit(rule: "social", grantsToday: 1, day: today)) {
      try ledger.recordGrant(for: social, on: today)
    }
    ledger.recordMeter(metered: ["social"], limitReached: ["social": 1], on: today)
    #expect(try ledger.recordGrant(for: social, on: today) == 2)
    // Yesterday's limit does not open today.
    let tomorrow = today.adding(days: 1)!
    ledger.recordMeter(metered: ["social"], limitReached: [:], on: tomorrow)
    #expect(ledger.grantStanding(of: social, on: tomorrow) == .notAtLimit)
  }

  @Test("Not metered: granted up to the maximum, as before; used up comes first, metered or not")
  func unmeteredAndUsedUp() throws {
    var ledger = Ledger()
    ledger.recordMeter(metered: ["video"], limitReached: [:], on: today)
    for count in 1...3 { #expect(try ledger.recordGrant(for: social, on: today) == count) }
    #expect(ledger.grantStanding(of: social, on: today) == .usedUp)
    ledger.recordMeter(metered: ["social"], limitReached: ["social": 3], on: today)
    #expect(ledger.grantStanding(of: social, on: today) == .usedUp)
    #expect(throws: GrantRefusal.grantsUsedUp(rule: "social", maximum: 3, day: today)) {
      try ledger.recordGrant(for: social, on: today)
    }
  }

  @Test("recordMeter writes use and the meter's record at once, and returns the ledger after it")
  func storeWrite() throws {
    let state = try TemporaryDirectory()
    let store = LedgerStore(directory: state.path)
    let day = store.today
    let written = try store.recordMeter(
      usage: [day: ["social": 300]], metered: ["social"], limitReached: ["social": 0], on: day)
    #expect(written.value.usedSeconds(for: "social", on: day) == 300)
    #expect(written.value.limitReached(for: "social", on: day) == 0)
    let read = try store.load().value
    #expect(read == written.value)
    #expect(read.metered(on: day) == ["social"])
    #expect(try store.recordGrant(for: social).value.status.grantsToday == 1)
    #expect(throws: LedgerError.notAtLimit(rule: "social", grantsToday: 1, day: day)) {
      try store.recordGrant(for: social)
    }
  }

  @Test("Grants racing for one limit: exactly one is recorded, however many puzzles were solved")
  func raceForOneLimit() throws {
    let state = try TemporaryDirectory()
    let rule = Rule(name: "social", apps: [], maxGrantsPerDay: 5)
    let store = LedgerStore(directory: state.path)
    let day = store.today
    _ = try store.recordMeter(usage: [:], metered: ["social"], limitReached: ["social": 0], on: day)
    let race = raceGrants(for: rule, in: state.path) { if case .notAtLimit = $0 { true } else { false } }
    #expect(race.granted == 1)
    #expect(race.refused == 7)
    #expect(try store.status(of: rule).value.grantsToday == 1)
  }
}
