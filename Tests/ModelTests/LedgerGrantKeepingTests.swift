import Foundation
import JSON
import Model
import Posix
import Store
import TestSupport
import Testing

/// Issue 22, point 2: a grant once recorded is never lost while a process that
/// knew it runs, and what the ledger says is capped by the rule.
@Suite("Grants are merged by the larger count and counted no higher than the rule allows")
struct LedgerGrantKeepingTests {
  let social = socialRule(dailyLimitMinutes: 10, grantMinutes: 5, maxGrantsPerDay: 3)
  let today = LocalDay("2026-11-29")!

  @Test("Known grants merge per day and rule by the larger count, within the stored range")
  func mergeKeepsTheLarger() throws {
    var ledger = Ledger()
    ledger.recordMeter(metered: ["social"], limitReached: ["social": 0], on: today)
    try ledger.recordGrant(for: social, on: today)
    let yesterday = today.adding(days: -1)!
    ledger.recordKnownGrants([today: ["social": 3, "video": 2], yesterday: ["social": 1]])
    #expect(ledger.grants(for: "social", on: today) == 3)
    #expect(ledger.grants(for: "video", on: today) == 2)
    #expect(ledger.grants(for: "social", on: yesterday) == 1)

    // A writer that knows fewer (an older view, a count below zero) takes nothing back.
    ledger.recordKnownGrants([today: ["social": 1, "video": -4], yesterday: ["social": 0]])
    #expect(ledger.grants(for: "social", on: today) == 3)
    #expect(ledger.grants(for: "video", on: today) == 2)
    #expect(ledger.grants(for: "social", on: yesterday) == 1)

    // No count the file could not hold again.
    ledger.recordKnownGrants([today: ["video": Int.max]])
    #expect(ledger.grants(for: "video", on: today) == Ledger.maximumStoredGrants)
    #expect(try Ledger(json: JSONValue(parsing: ledger.json.serialized)) == ledger)
  }

  @Test("The meter's save puts back the grants a pruned or replaced file lost, and never lowers a count")
  func storeMergesOnSave() throws {
    let directory = try TemporaryDirectory()
    let store = LedgerStore(directory: directory.path)
    let day = store.today
    _ = try store.recordMeter(usage: [day: ["social": 600]], metered: ["social"], limitReached: ["social": 0], on: day)
    _ = try store.recordGrant(for: social)
    #expect(try store.status(of: social).value.grantsToday == 1)

    // The day left the file (a clock set forward a week and back, a hand edit).
    try #"{"version":1,"days":[]}"#.write(toFile: store.path, atomically: true, encoding: .utf8)
    #expect(try store.status(of: social).value.grantsToday == 0)
    let saved = try store.recordMeter(
      usage: [day: ["social": 660]], grants: [day: ["social": 3]], metered: ["social"],
      limitReached: ["social": 3], on: day)
    #expect(saved.value.grants(for: "social", on: day) == 3)
    #expect(try store.status(of: social).value.isUsedUp)
    #expect(throws: LedgerError.grantsUsedUp(rule: "social", maximum: 3, day: day)) {
      try store.recordGrant(for: social)
    }

    // A save from an older view keeps the stored count.
    _ = try store.recordMeter(
      usage: [:], grants: [day: ["social": 1]], metered: ["social"], limitReached: [:], on: day)
    #expect(try store.load().value.grants(for: "social", on: day) == 3)
  }

  @Test("A hand edit to 10,000 grants counts as the rule's maximum, with a warning, and asks no task")
  func capOnRead() throws {
    let directory = try TemporaryDirectory()
    let store = LedgerStore(directory: directory.path)
    let day = store.today
    let text =
      #"{"version":1,"days":[{"date":"\#(day)","grants":{"social":10000},"usedSeconds":{"social":-5,"video":1e12}}]}"#
    try text.write(toFile: store.path, atomically: true, encoding: .utf8)

    let status = try store.status(of: RuleSet([social]))
    #expect(status.value.rules[0].grantsToday == 3)
    #expect(status.value.rules[0].limitTodayMinutes == 25)
    #expect(status.value.rules[0].isUsedUp)
    #expect(status.warnings.contains(.grantsAboveMaximum(day: day, rule: "social", found: 10_000, maximum: 3)))
    #expect(
      status.warnings.map(\.description).contains(
        "the ledger holds 10000 grants for the rule 'social' on \(day), more than its maxGrantsPerDay of 3; 3 count"))

    let prepared = try PuzzleRun.prepare(for: social, in: store, random: SeededRandom(seed: 1))
    guard case .usedUp(let standing) = prepared.value else {
      Issue.record("a task was offered beyond the maximum")
      return
    }
    #expect(standing.grantsToday == 3)
    #expect(prepared.warnings.map(\.code).contains("ledger-grants-above-maximum"))

    // The meter's limit: 10 minutes and 3 grants of 5, not 10,000 of them; the use read within range.
    let loaded = try store.loadForMeter(rules: RuleSet([social]))
    #expect(
      loaded.warnings.map(\.code).sorted() == [
        "ledger-grants-above-maximum", "ledger-usage-out-of-range", "ledger-usage-out-of-range",
      ])
    let meter = UsageMeter(
      settings: UsageMeter.Settings(rules: RuleSet([social]), calendar: .system), ledger: loaded.value,
      now: .now(wall: store.clock))
    #expect(meter.usage(of: "social")?.limit == .seconds(25 * 60))
    #expect(meter.usage(of: "social")?.grantsToday == 3)
    #expect(meter.usage(of: "social")?.used == .zero)
    // The file keeps what it holds: the cap is on reading.
    #expect(try store.load().value.grants(for: "social", on: day) == 10_000)
  }

  @Test("A clock set forward a week and back keeps the day, its grants still in the meter, which saves them")
  func meterKeepsAWeekOldDay() {
    var clock = MeterClock(wall: localNoon("2026-11-29"))
    var ledger = Ledger()
    ledger.recordKnownGrants([today: ["social": 2]])
    var meter = makeMeter([social], ledger: ledger, clock: clock)
    _ = meter.inUse(["social"], at: clock.now)
    clock.pass(.seconds(60))
    _ = meter.advance(to: clock.now)

    // The boot time says a second passed, not a week: the day stays (issue 22, point 4).
    clock.setWall(by: .seconds(7 * 86_400))
    clock.pass(.seconds(1))
    #expect(!meter.advance(to: clock.now).contains(.newDay(today.adding(days: 7)!)))
    #expect(meter.usage(of: "social")?.grantsToday == 2)
    clock.setWall(by: .seconds(-7 * 86_400))
    clock.pass(.seconds(1))
    _ = meter.advance(to: clock.now)
    #expect(meter.day == today)
    #expect(meter.usage(of: "social")?.grantsToday == 2)
    #expect(meter.grantsByDay[today] == ["social": 2])
    // Every second stays on the day the meter never left.
    #expect(meter.usedSeconds(on: today)["social"] == 62)
  }
}
