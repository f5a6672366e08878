import Model
import Posix
import Testing

/// Counts `rule` without a break from `day`'s local midnight, calling the meter
/// at each of its deadlines, until the next day begins; returns every event.
private func countWholeDay(_ day: LocalDay, rule: Rule) -> (UsageMeter, [MeterEvent]) {
  var clock = MeterClock(wall: day.start)
  var meter = makeMeter([rule], clock: clock)
  var events = meter.inUse([rule.name], at: clock.now)
  for _ in 0..<10 {
    guard let deadline = meter.nextDeadline() else { break }
    clock.pass(until: deadline)
    let due = meter.advance(to: clock.now)
    events += due
    if due.contains(.newDay(day.adding(days: 1)!)) { break }
  }
  return (meter, events)
}

// The zone is process-wide, so these run in exit tests (a process of their own),
// as the local-day tests do: the other tests never see TZ change under them.
@Suite("A local day is 23 or 25 hours long on the days DST changes, and the meter counts all of it")
struct UsageMeterDSTTests {
  @Test("Berlin's spring day has 23 hours of use, split at its real midnight")
  func springDay() async {
    await #expect(processExitsWith: .success) {
      useTimeZone("Europe/Berlin")
      let day = LocalDay("2026-03-29")!
      let rule = Rule(name: "all", apps: ["Game"], dailyLimitMinutes: 1_440, warnMinutes: 0)
      let (meter, events) = countWholeDay(day, rule: rule)
      #expect(events == [.newDay(day.adding(days: 1)!)])
      #expect(meter.usedSeconds(on: day) == ["all": 23 * 3_600])
      #expect(meter.usedSecondsToday == [:])
      #expect(meter.usage(of: "all")?.limitSeconds == 86_400)
    }
  }

  @Test("Berlin's autumn day has 25 hours of use: a whole-day limit is reached an hour before midnight")
  func autumnDay() async {
    await #expect(processExitsWith: .success) {
      useTimeZone("Europe/Berlin")
      let day = LocalDay("2026-10-25")!
      let rule = Rule(name: "all", apps: ["Game"], dailyLimitMinutes: 1_440, warnMinutes: 0)
      let (meter, events) = countWholeDay(day, rule: rule)
      #expect(
        events == [.limitReached(rule: "all"), .newDay(day.adding(days: 1)!), .lifted(rule: "all")])
      #expect(meter.usedSeconds(on: day) == ["all": 25 * 3_600])
      #expect(meter.usedSeconds(on: day).values.allSatisfy { $0 <= Ledger.maximumUsedSeconds })
    }
  }

  @Test("Across the spring change, time that spans midnight splits at 00:00 CEST")
  func springSplit() async {
    await #expect(processExitsWith: .success) {
      useTimeZone("Europe/Berlin")
      let day = LocalDay("2026-03-29")!
      // 23:59 CEST is 21:59 UTC.
      var clock = MeterClock(wall: utc(2026, 3, 29, 21, 59))
      var meter = makeMeter(
        [Rule(name: "all", apps: ["Game"], dailyLimitMinutes: 1_440, warnMinutes: 0)], clock: clock)
      _ = meter.inUse(["all"], at: clock.now)
      #expect(meter.nextDeadline() == MonotonicTime(nanoseconds: clock.now.monotonic.nanoseconds + 60_000_000_000))
      clock.pass(.seconds(100))
      #expect(meter.advance(to: clock.now) == [.newDay(day.adding(days: 1)!)])
      #expect(meter.usedSeconds(on: day) == ["all": 60])
      #expect(meter.usedSecondsToday == ["all": 40])
    }
  }
}
