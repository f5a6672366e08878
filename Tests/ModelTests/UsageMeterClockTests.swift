import Model
import Posix
import Testing

/// A meter over the social rule with a whole day's limit, in use from `clock`'s now.
private func countingMeter(_ clock: MeterClock, ledger: Ledger = Ledger()) -> UsageMeter {
  var meter = makeMeter([socialRule(dailyLimitMinutes: 1_440, warnMinutes: 0)], ledger: ledger, clock: clock)
  _ = meter.inUse(["social"], at: clock.now)
  return meter
}

@Suite("The clock is no way around the limit: a day ends when the wall clock and the boot time both say so")
struct UsageMeterClockTests {
  @Test("A clock set forward a day at noon gives no fresh day: the limit stays reached, and back again nothing begins")
  func forwardOneDayAndBack() {
    let monday = LocalDay("2026-06-15")!
    var clock = MeterClock(wall: localNoon("2026-06-15"))
    var meter = makeMeter([socialRule(warnMinutes: 0)], clock: clock)
    _ = meter.inUse(["social"], at: clock.now)
    clock.pass(.seconds(300))
    #expect(meter.advance(to: clock.now) == [.limitReached(rule: "social")])
    clock.setWall(by: .seconds(86_400))
    clock.pass(.seconds(1))
    #expect(meter.advance(to: clock.now) == [])
    #expect(meter.day == monday)
    #expect(meter.usage(of: "social")?.overLimit == true)
    // Seven days forward is no different.
    clock.setWall(by: .seconds(6 * 86_400))
    clock.pass(.seconds(1))
    #expect(meter.inUse([], at: clock.now) == [])
    #expect(meter.inUse(["social"], at: clock.now) == [])
    #expect(meter.usage(of: "social")?.overLimit == true)
    #expect(meter.day == monday)
    clock.setWall(by: .seconds(-7 * 86_400))
    clock.pass(.seconds(1))
    #expect(meter.advance(to: clock.now) == [])
    #expect(meter.usedSecondsByDay == [monday: ["social": 303]])
  }

  @Test("With the clock set past midnight, the next deadline is the real midnight, not at once")
  func forwardPastMidnightWaits() {
    var clock = MeterClock(wall: localNoon("2026-06-15"))
    var meter = countingMeter(clock)
    clock.setWall(by: .seconds(86_400))
    clock.pass(.seconds(1))
    #expect(meter.advance(to: clock.now) == [])
    // Noon plus what the boot time vouches for: the day can end in 12 h less the tolerance, not now.
    let early = Duration.seconds(12 * 3_600) - UsageMeter.wallClockTolerance - .seconds(1)
    #expect(meter.nextDeadline() == clock.now.monotonic.advanced(by: early))
  }

  @Test("With the clock a day ahead, the next day still comes at the real midnight, and only one")
  func forwardThenRealMidnight() {
    let monday = LocalDay("2026-06-15")!
    let tuesday = monday.adding(days: 1)!
    var clock = MeterClock(wall: localNoon("2026-06-15"))
    var meter = countingMeter(clock)
    clock.setWall(by: .seconds(86_400))
    // The day ends at most the tolerance early: the boot time vouches for noon plus 11 h 55 min and 5 min.
    let early = Duration.seconds(12 * 3_600) - UsageMeter.wallClockTolerance
    clock.pass(early - .seconds(1))
    #expect(meter.advance(to: clock.now) == [])
    clock.pass(.seconds(1))
    #expect(meter.advance(to: clock.now) == [.newDay(tuesday)])
    #expect(meter.usedSeconds(on: monday) == ["social": 12 * 3_600 - 300])
    // Tuesday lasts a whole day of boot time, though the wall clock says Wednesday noon already.
    #expect(meter.nextDeadline() == clock.now.monotonic.advanced(by: .seconds(86_400)))
    clock.pass(.seconds(86_400 - 1))
    #expect(meter.advance(to: clock.now) == [])
    clock.pass(.seconds(1))
    // Tuesday's whole-day limit was reached in the same second: the new day lifts it.
    #expect(meter.advance(to: clock.now) == [.newDay(tuesday.adding(days: 1)!), .lifted(rule: "social")])
    #expect(meter.usedSeconds(on: tuesday) == ["social": 86_400])
  }

  @Test("A clock set back keeps the day until the wall clock reaches its midnight again")
  func setBack() {
    let monday = LocalDay("2026-06-15")!
    var clock = MeterClock(wall: localNoon("2026-06-15"))
    var meter = countingMeter(clock)
    clock.setWall(by: .seconds(-6 * 3_600))
    clock.pass(.seconds(12 * 3_600))
    #expect(meter.advance(to: clock.now) == [])
    clock.pass(.seconds(6 * 3_600))
    #expect(meter.advance(to: clock.now) == [.newDay(monday.adding(days: 1)!)])
    #expect(meter.usedSeconds(on: monday) == ["social": 18 * 3_600])
  }

  @Test("A real midnight slept through: the next input opens the new day, and the sleep counts as no use")
  func suspendOverMidnight() {
    let monday = LocalDay("2026-06-15")!
    let tuesday = monday.adding(days: 1)!
    var clock = MeterClock(wall: localNoon("2026-06-15"))
    var meter = countingMeter(clock)
    clock.pass(.seconds(11 * 3_600))
    #expect(meter.advance(to: clock.now) == [])
    clock.suspend(.seconds(9 * 3_600))
    clock.pass(.seconds(60))
    #expect(meter.advance(to: clock.now) == [.newDay(tuesday)])
    // The minute after the wake is measured before anyone can tell where midnight fell: it stays on Monday.
    #expect(meter.usedSeconds(on: monday) == ["social": 11 * 3_600 + 60])
    #expect(meter.usedSecondsToday == [:])
    clock.pass(.seconds(60))
    _ = meter.advance(to: clock.now)
    #expect(meter.usedSecondsToday == ["social": 60])
    // Three days asleep: the boot time vouches for all three.
    clock.suspend(.seconds(3 * 86_400))
    clock.pass(.seconds(1))
    #expect(meter.advance(to: clock.now) == [.newDay(LocalDay("2026-06-19")!)])
  }

  @Test("A wall clock set forward during a sleep counts only as far as the sleep")
  func forwardDuringSuspend() {
    let monday = LocalDay("2026-06-15")!
    var clock = MeterClock(wall: localNoon("2026-06-15"))
    var meter = countingMeter(clock)
    clock.suspend(.seconds(3_600))
    clock.setWall(by: .seconds(86_400))
    clock.pass(.seconds(1))
    #expect(meter.advance(to: clock.now) == [])
    #expect(meter.day == monday)
  }

  @Test("A zone moved east to UTC+14 at noon keeps the day to its own midnight, and the next lasts 23 hours at least")
  func zoneChangeMidDay() async {
    await #expect(processExitsWith: .success) {
      useTimeZone("Europe/Berlin")
      let monday = LocalDay("2026-06-15")!
      // Noon in Berlin (UTC+2).
      var clock = MeterClock(wall: utc(2026, 6, 15, 10))
      var meter = countingMeter(clock)
      // POSIX names the zone 14 hours east of UTC Etc/GMT-14: there it is 00:00 on Tuesday.
      useTimeZone("Etc/GMT-14")
      #expect(LocalDay.containing(clock.now.wall) == monday.adding(days: 1)!)
      clock.pass(.seconds(1))
      #expect(meter.advance(to: clock.now) == [])
      #expect(meter.day == monday)
      // Monday ends at its own midnight, Berlin's, 12 hours after noon; it is noon on Tuesday in UTC+14.
      clock.pass(.seconds(12 * 3_600 - 2))
      #expect(meter.advance(to: clock.now) == [])
      clock.pass(.seconds(1))
      #expect(meter.advance(to: clock.now) == [.newDay(monday.adding(days: 1)!)])
      #expect(meter.usedSeconds(on: monday) == ["social": 12 * 3_600])
      // Tuesday ends not at UTC+14's midnight, 12 hours on, but after the shortest day there is.
      #expect(meter.nextDeadline() == clock.now.monotonic.advanced(by: UsageMeter.minimumDayLength))
      clock.pass(.seconds(12 * 3_600))
      #expect(meter.advance(to: clock.now) == [])
      clock.pass(UsageMeter.minimumDayLength - .seconds(12 * 3_600))
      #expect(meter.advance(to: clock.now) == [.newDay(LocalDay("2026-06-17")!)])
      #expect(meter.usedSeconds(on: monday.adding(days: 1)!) == ["social": 23 * 3_600 - 300])
    }
  }

  @Test("A zone moved west makes the day after midnight the next day, not the same one again")
  func zoneChangeWest() async {
    await #expect(processExitsWith: .success) {
      useTimeZone("Europe/Berlin")
      let monday = LocalDay("2026-06-15")!
      var clock = MeterClock(wall: utc(2026, 6, 15, 10))
      var meter = makeMeter([socialRule()], clock: clock)
      // UTC−10: Berlin's midnight is 12:00 on Monday there.
      useTimeZone("Etc/GMT+10")
      clock.pass(.seconds(12 * 3_600))
      #expect(meter.advance(to: clock.now) == [.newDay(monday.adding(days: 1)!)])
      // Tuesday ends at UTC−10's midnight after it, 36 hours on.
      clock.pass(.seconds(36 * 3_600 - 1))
      #expect(meter.advance(to: clock.now) == [])
      clock.pass(.seconds(1))
      #expect(meter.advance(to: clock.now) == [.newDay(LocalDay("2026-06-17")!)])
    }
  }
}
