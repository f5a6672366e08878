import JSON
import Model
import Posix
import Store
import TestSupport
import Testing

/// A meter over the social rule with a whole day's limit on boot `bootID`, in use from `clock`'s now.
private func anchoredMeter(_ clock: MeterClock, ledger: Ledger = Ledger(), bootID: String = "boot-1") -> UsageMeter {
  var meter = UsageMeter(
    settings: UsageMeter.Settings(
      rules: RuleSet([socialRule(dailyLimitMinutes: 1_440, warnMinutes: 0)]), calendar: .system),
    ledger: ledger, now: clock.now, bootID: bootID)
  _ = meter.inUse(["social"], at: clock.now)
  return meter
}

/// The ledger a meter's save leaves: its use and its day's anchor.
private func saved(_ meter: UsageMeter) -> Ledger {
  var ledger = Ledger()
  for (day, seconds) in meter.usedSecondsByDay { ledger.recordUsedSeconds(seconds, on: day) }
  ledger.dayAnchor = meter.dayAnchor
  return ledger
}

/// A store whose clocks read `clock`'s wall and boot times on boot `bootID`.
private func store(in directory: String, _ clock: MeterClock, bootID: String = "boot-1") -> LedgerStore {
  let now = clock.now
  return LedgerStore(
    directory: directory, clock: WallClock(now: { now.wall }, boot: { now.boot }, bootID: { bootID }))
}

@Suite("The meter's day outlives a restart on the same boot, and every grant lands on it (issue 22, point 4)")
struct DayAnchorTests {
  let monday = LocalDay("2026-06-15")!

  @Test("A restart with the clock a day ahead stays on the day the meter was on, with its use")
  func restartWithClockAhead() {
    var clock = MeterClock(wall: localNoon("2026-06-15"))
    var meter = anchoredMeter(clock)
    clock.pass(.seconds(60))
    _ = meter.advance(to: clock.now)
    let ledger = saved(meter)
    #expect(ledger.dayAnchor?.day == monday)
    clock.setWall(by: .seconds(86_400))
    clock.pass(.seconds(5))
    let restarted = anchoredMeter(clock, ledger: ledger)
    #expect(restarted.day == monday)
    #expect(restarted.used("social") == .seconds(60))
    // The day still ends at the real midnight.
    #expect(restarted.dayAnchor?.midnight == monday.adding(days: 1)!.start)
  }

  @Test("After a reboot the stored anchor is not used: the wall clock is all there is")
  func otherBoot() {
    var clock = MeterClock(wall: localNoon("2026-06-15"))
    let ledger = saved(anchoredMeter(clock))
    clock.setWall(by: .seconds(86_400))
    #expect(anchoredMeter(clock, ledger: ledger, bootID: "boot-2").day == monday.adding(days: 1)!)
    // A meter given no boot id neither reads nor offers one.
    let unbooted = UsageMeter(
      settings: UsageMeter.Settings(rules: RuleSet([socialRule()]), calendar: .system), ledger: ledger, now: clock.now)
    #expect(unbooted.day == monday.adding(days: 1)!)
    #expect(unbooted.dayAnchor == nil)
  }

  @Test("A restart after the real midnight moves on to the next day, and the day after it lasts its hours")
  func restartAfterMidnight() {
    var clock = MeterClock(wall: localNoon("2026-06-15"))
    let ledger = saved(anchoredMeter(clock))
    clock.pass(.seconds(13 * 3_600))
    let restarted = anchoredMeter(clock, ledger: ledger)
    #expect(restarted.day == monday.adding(days: 1)!)
    #expect(restarted.dayAnchor?.midnight == monday.adding(days: 2)!.start)
  }

  @Test("A restart in another zone keeps the day the zone of its start gave it")
  func restartInAnotherZone() async {
    await #expect(processExitsWith: .success) {
      useTimeZone("UTC")
      var clock = MeterClock(wall: utc(2026, 6, 15, 20))
      let monday = LocalDay("2026-06-15")!
      let ledger = saved(anchoredMeter(clock))
      useTimeZone("Pacific/Kiritimati")  // UTC+14: the wall clock says Tuesday 10:00
      clock.pass(.seconds(60))
      #expect(LocalDay.containing(clock.now.wall) == monday.adding(days: 1)!)
      let restarted = anchoredMeter(clock, ledger: ledger)
      #expect(restarted.day == monday)
      // Monday ends at UTC midnight, as the zone that opened it said.
      #expect(restarted.dayAnchor?.midnight == utc(2026, 6, 16))
    }
  }

  @Test("The ledger's today follows the anchor of this boot: the clock set forward or back, then the real midnight")
  func storeToday() throws {
    let state = try TemporaryDirectory()
    var clock = MeterClock(wall: localNoon("2026-06-15"))
    let ledger = saved(anchoredMeter(clock))
    #expect(store(in: state.path, clock).today(in: ledger) == monday)
    clock.setWall(by: .seconds(3 * 86_400))
    #expect(store(in: state.path, clock).today(in: ledger) == monday)
    #expect(store(in: state.path, clock, bootID: "boot-2").today(in: ledger) == monday.adding(days: 3)!)
    clock.setWall(by: .seconds(-4 * 86_400))
    #expect(store(in: state.path, clock).today(in: ledger) == monday)
    clock.setWall(by: .seconds(86_400))
    clock.pass(.seconds(12 * 3_600))
    #expect(store(in: state.path, clock).today(in: ledger) == monday.adding(days: 1)!)
  }

  @Test("A grant with the clock a day ahead is recorded on the meter's day, which is at its limit")
  func grantOnTheMetersDay() throws {
    let state = try TemporaryDirectory()
    let rule = socialRule(dailyLimitMinutes: 1, warnMinutes: 0)
    var clock = MeterClock(wall: localNoon("2026-06-15"))
    let meterStore = store(in: state.path, clock)
    var meter = UsageMeter(
      settings: UsageMeter.Settings(rules: RuleSet([rule]), calendar: .system), ledger: Ledger(), now: clock.now,
      bootID: "boot-1")
    _ = meter.inUse(["social"], at: clock.now)
    clock.pass(.seconds(60))
    #expect(meter.advance(to: clock.now) == [.limitReached(rule: "social")])
    _ = try meterStore.recordMeter(
      usage: meter.usedSecondsByDay, metered: ["social"], limitReached: ["social": 0], on: meter.day,
      anchor: meter.dayAnchor)
    clock.setWall(by: .seconds(86_400))
    clock.pass(.seconds(1))
    let ahead = store(in: state.path, clock)
    #expect(ahead.today == monday)
    let recorded = try ahead.recordGrant(for: rule).value
    #expect(recorded.day == monday)
    #expect(try ahead.load().value.grants(for: "social", on: monday) == 1)
    // The anchor the meter wrote is still there for the next grant and the next start.
    #expect(try ahead.load().value.dayAnchor == meter.dayAnchor)
  }

  @Test("The anchor is stored and read back exactly; one that cannot be read is no anchor, and the ledger stays")
  func storedForm() throws {
    let anchor = DayAnchor(
      bootID: "5d2e4f0c-0d7b-4a4b-9a55-2b1a3c9e8f01", boot: BootTime(nanoseconds: 123_456_789_012),
      wall: WallTime(secondsSince1970: 1_781_517_600, nanoseconds: 250), day: monday,
      midnight: WallTime(secondsSince1970: 1_781_560_800))
    var ledger = Ledger()
    ledger.recordUsedSeconds(["social": 60], on: monday)
    ledger.dayAnchor = anchor
    #expect(try Ledger(json: JSONValue(parsing: ledger.json.serialized)) == ledger)
    for broken in [
      #"{"bootId":"","bootNanoseconds":1,"wall":[1,0],"day":"2026-06-15"}"#,
      #"{"bootId":"b","bootNanoseconds":-1,"wall":[1,0],"day":"2026-06-15"}"#,
      #"{"bootId":"b","bootNanoseconds":1,"wall":[1,1000000000],"day":"2026-06-15"}"#,
      #"{"bootId":"b","bootNanoseconds":1,"wall":[1,0],"day":"2026-02-30"}"#,
      #"{"bootId":"b","bootNanoseconds":1,"wall":[1,0],"day":"2026-06-15","midnight":"soon"}"#,
      #"[]"#,
    ] {
      let text =
        #"{"version":1,"days":[{"date":"2026-06-15","grants":{"social":1}}],"dayAnchor":"#
        + broken + "}"
      let read = try Ledger(json: JSONValue(parsing: text))
      #expect(read.dayAnchor == nil, "\(broken)")
      #expect(read.grants(for: "social", on: monday) == 1)
    }
  }
}
