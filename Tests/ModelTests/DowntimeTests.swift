import Model
import Posix
import Testing

private func period(_ from: String, _ to: String, _ days: String? = nil) -> DowntimePeriod {
  DowntimePeriod(from: ClockTime(from)!, to: ClockTime(to)!, days: days.map { try! Weekdays(parsing: $0) } ?? .all)
}

/// Whether `time` (UTC) lies in `periods`, worked out by plain arithmetic on minutes of the week.
private func inDowntimeByArithmetic(_ periods: [DowntimePeriod], minuteOfWeek: Int) -> Bool {
  // Minute 0 is Monday 00:00.
  periods.contains { period in
    Weekday.allCases.contains { day in
      guard period.days.contains(day) else { return false }
      let start = day.rawValue * 1_440 + period.from.minuteOfDay
      let length = (period.to.minuteOfDay - period.from.minuteOfDay + 1_440) % 1_440
      let offset = (minuteOfWeek - start + 10_080) % 10_080
      return offset < length
    }
  }
}

// The zone is process-wide: each test sets it in a process of its own.
/// Issue 25, point 5: downtime hours, the decision "in downtime at t, and until when".
@Suite("Downtime: whether an instant is in it, until when, and when the next begins")
struct DowntimeTests {
  @Test("HH:MM is read exactly, 00:00 to 23:59")
  func clockTimes() {
    #expect(ClockTime("22:00")?.minuteOfDay == 1_320)
    #expect(ClockTime("00:00") == .midnight)
    #expect(ClockTime("23:59")?.description == "23:59")
    #expect(ClockTime("07:05")?.description == "07:05")
    for text in ["24:00", "7:00", "07:60", "0700", "07:00 ", "ab:cd", "", "07-00", "-7:00", "+7:00"] {
      #expect(ClockTime(text) == nil, "\(text)")
    }
  }

  @Test("22:00-07:00 on sun-thu: the night belongs to the day it starts on")
  func nights() async {
    await #expect(processExitsWith: .success) {
      useTimeZone("UTC")
      let periods = [period("22:00", "07:00", "sun-thu")]
      // 2026-11-29 is a Sunday.
      #expect(Downtime.until(periods, at: utc(2026, 11, 29, 21, 59, 59), in: .system) == nil)
      #expect(Downtime.until(periods, at: utc(2026, 11, 29, 22), in: .system) == utc(2026, 11, 30, 7))
      #expect(Downtime.until(periods, at: utc(2026, 11, 30, 6, 59, 59), in: .system) == utc(2026, 11, 30, 7))
      #expect(Downtime.until(periods, at: utc(2026, 11, 30, 7), in: .system) == nil)
      // Thursday night runs into Friday morning; Friday and Saturday nights are free.
      #expect(Downtime.until(periods, at: utc(2026, 12, 4, 2), in: .system) == utc(2026, 12, 4, 7))
      #expect(Downtime.until(periods, at: utc(2026, 12, 4, 23), in: .system) == nil)
      #expect(Downtime.until(periods, at: utc(2026, 12, 5, 3), in: .system) == nil)
      #expect(Downtime.until(periods, at: utc(2026, 12, 6, 3), in: .system) == nil)
      #expect(Downtime.nextStart(periods, after: utc(2026, 11, 29, 12), in: .system) == utc(2026, 11, 29, 22))
      #expect(Downtime.nextStart(periods, after: utc(2026, 12, 4, 8), in: .system) == utc(2026, 12, 6, 22))
      #expect(Downtime.nextStart([], after: utc(2026, 12, 4, 8), in: .system) == nil)
      #expect(Downtime.until([], at: utc(2026, 12, 4, 8), in: .system) == nil)
    }
  }

  @Test("Periods that overlap or meet are one downtime, which ends where the last of them ends")
  func overlapping() async {
    await #expect(processExitsWith: .success) {
      useTimeZone("UTC")
      let periods = [period("22:00", "07:00"), period("06:00", "08:00", "tue"), period("20:00", "22:00", "mon")]
      // Monday 20:00: the evening period meets the night, which meets Tuesday's morning one.
      #expect(Downtime.until(periods, at: utc(2026, 11, 30, 20), in: .system) == utc(2026, 12, 1, 8))
      // Tuesday night: the night alone.
      #expect(Downtime.until(periods, at: utc(2026, 12, 1, 23), in: .system) == utc(2026, 12, 2, 7))
      #expect(Downtime.until(periods, at: utc(2026, 12, 1, 7, 30), in: .system) == utc(2026, 12, 1, 8))
    }
  }

  @Test("Every minute of a week, for periods with and without midnight, agrees with arithmetic on minutes")
  func everyMinute() async {
    await #expect(processExitsWith: .success) {
      useTimeZone("UTC")
      let periods = [
        period("22:00", "07:00", "sun-thu"), period("12:30", "13:15", "mon,wed,fri"), period("23:59", "00:01", "sat"),
      ]
      // 2026-11-30 is a Monday.
      let monday = utc(2026, 11, 30)
      var mismatches = 0
      for minute in 0..<10_080 {
        let time = monday.adding(seconds: Int64(minute * 60))
        let expected = inDowntimeByArithmetic(periods, minuteOfWeek: minute)
        let until = Downtime.until(periods, at: time, in: .system)
        if (until != nil) != expected { mismatches += 1 }
        if let until {
          // The end is the first minute out of downtime.
          let endMinute = minute + Int(until.secondsSince1970 - time.secondsSince1970) / 60
          if inDowntimeByArithmetic(periods, minuteOfWeek: endMinute % 10_080)
            || !inDowntimeByArithmetic(periods, minuteOfWeek: (endMinute - 1) % 10_080)
          {
            mismatches += 1
          }
        }
      }
      #expect(mismatches == 0)
    }
  }

  @Test("Across Berlin's DST changes a night is an hour shorter or longer; a time skipped is the first after the gap")
  func daylightSaving() async {
    await #expect(processExitsWith: .success) {
      useTimeZone("Europe/Berlin")
      let night = [period("22:00", "07:00")]
      // Spring, 2026-03-29: 22:00 CET is 21:00Z, 07:00 CEST is 05:00Z: eight hours.
      #expect(Downtime.until(night, at: utc(2026, 3, 28, 21), in: .system) == utc(2026, 3, 29, 5))
      #expect(Downtime.until(night, at: utc(2026, 3, 28, 20, 59), in: .system) == nil)
      // Autumn, 2026-10-25: 22:00 CEST is 20:00Z, 07:00 CET is 06:00Z: ten hours.
      #expect(Downtime.until(night, at: utc(2026, 10, 24, 20), in: .system) == utc(2026, 10, 25, 6))
      #expect(Downtime.until(night, at: utc(2026, 10, 25, 5, 59), in: .system) == utc(2026, 10, 25, 6))
      // 01:30-02:30 on the spring day: 02:30 does not exist, the end is 03:00 CEST (01:00Z).
      let gap = [period("01:30", "02:30", "sun")]
      #expect(Downtime.until(gap, at: utc(2026, 3, 29, 0, 45), in: .system) == utc(2026, 3, 29, 1))
      // A period wholly in the gap covers nothing that day.
      let skipped = [period("02:00", "02:30", "sun")]
      #expect(Downtime.until(skipped, at: utc(2026, 3, 29, 1), in: .system) == nil)
      #expect(Downtime.nextStart(skipped, after: utc(2026, 3, 28), in: .system) == utc(2026, 4, 5, 0))
    }
  }

  @Test("A period taken out or shortened stays today; a new one counts at once")
  func loosening() {
    var held = Rule(name: "social", apps: ["Instagram"])
    held.downtime = [period("22:00", "07:00")]
    var configured = held
    configured.downtime = [period("23:00", "07:00")]
    #expect(held.tightened(by: configured).downtime == [period("23:00", "07:00"), period("22:00", "07:00")])
    configured.downtime = []
    #expect(held.tightened(by: configured).downtime == held.downtime)
    configured.downtime = [period("22:00", "07:00"), period("12:00", "13:00")]
    #expect(held.tightened(by: configured).downtime == configured.downtime)
  }
}

@Suite("The meter in downtime: shielded from the first second, no grant lifts it, its end does")
struct UsageMeterDowntimeTests {
  @Test("An app in front reaches the limit at the downtime's start; a grant changes nothing; the end lifts it")
  func meter() async {
    await #expect(processExitsWith: .success) {
      useTimeZone("UTC")
      var rule = socialRule(warnMinutes: 0)
      rule.downtime = [DowntimePeriod(from: ClockTime("22:00")!, to: ClockTime("07:00")!)]
      var clock = MeterClock(wall: utc(2026, 12, 1, 21, 59))
      var meter = makeMeter([rule], clock: clock)
      #expect(meter.inUse(["social"], at: clock.now) == [])
      #expect(meter.downtimeEnd(of: "social") == nil)
      // The next deadline is the downtime's start, a minute away, not the limit five minutes away.
      let start = try #require(meter.nextDeadline())
      #expect(start.duration(since: clock.now.monotonic) == .seconds(60))
      clock.pass(until: start)
      #expect(meter.advance(to: clock.now) == [.limitReached(rule: "social")])
      #expect(meter.downtimeEnd(of: "social") == utc(2026, 12, 2, 7))
      #expect(meter.usage(of: "social")?.limit == .zero)
      // The history keeps the day's own limit, not the downtime's zero.
      #expect(meter.dayLimitSeconds(of: "social") == 5 * 60)
      // A grant recorded anyway lifts nothing.
      #expect(meter.granted("social", grantsToday: 1, at: clock.now) == [])
      // Hidden, so nothing counts: the meter still wakes at the end, and lifts the rule there.
      _ = meter.inUse([], at: clock.now)
      let end = try #require(meter.nextDeadline())
      #expect(end.duration(since: clock.now.monotonic) == .seconds(9 * 3_600))
      clock.pass(until: end)
      let events = meter.advance(to: clock.now)
      #expect(events.contains(.lifted(rule: "social")) && events.contains(.newDay(LocalDay("2026-12-02")!)))
      #expect(meter.downtimeEnd(of: "social") == nil)
      #expect(meter.usage(of: "social")?.limitSeconds == 5 * 60)
      // A rule that comes into use during downtime is at its limit at once.
      clock.pass(.seconds(15 * 3_600))
      _ = meter.advance(to: clock.now)
      #expect(meter.inUse(["social"], at: clock.now) == [.limitReached(rule: "social")])
    }
  }
}
