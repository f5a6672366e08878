import Model
import Posix
import Testing

// The zone is process-wide: each test sets it in a process of its own.
/// Issue 25, point 5: `dayStartsAt`, the local day of an instant when days begin at another time than midnight.
@Suite("A day that starts at 04:00: the local day of an instant, and each day's start")
struct DayStartTests {
  @Test("Before 04:00 an instant belongs to the day before; the start is the date's 04:00")
  func plain() async {
    await #expect(processExitsWith: .success) {
      useTimeZone("UTC")
      let four = ClockTime("04:00")!
      #expect(LocalDay.containing(utc(2026, 12, 1, 23, 59), dayStart: four, in: .system) == LocalDay("2026-12-01"))
      #expect(LocalDay.containing(utc(2026, 12, 2, 3, 59, 59), dayStart: four, in: .system) == LocalDay("2026-12-01"))
      #expect(LocalDay.containing(utc(2026, 12, 2, 4), dayStart: four, in: .system) == LocalDay("2026-12-02"))
      #expect(LocalDay("2026-12-02")!.start(dayStart: four, in: .system) == utc(2026, 12, 2, 4))
      // Midnight is the day start of before.
      #expect(
        LocalDay.containing(utc(2026, 12, 2, 0, 0, 1), dayStart: .midnight, in: .system) == LocalDay("2026-12-02"))
      #expect(LocalDay("2026-12-02")!.start(dayStart: .midnight, in: .system) == LocalDay("2026-12-02")!.start)
    }
  }

  @Test(
    "Across Berlin's DST changes: days of 23 and 25 hours, a start in the gap after it, every quarter hour consistent")
  func daylightSaving() async {
    await #expect(processExitsWith: .success) {
      useTimeZone("Europe/Berlin")
      let four = ClockTime("04:00")!
      // 2026-03-29 04:00 CEST is 02:00Z; 03-28 04:00 CET is 03:00Z: the 28th has 23 hours.
      #expect(LocalDay("2026-03-29")!.start(dayStart: four, in: .system) == utc(2026, 3, 29, 2))
      #expect(LocalDay("2026-03-28")!.start(dayStart: four, in: .system) == utc(2026, 3, 28, 3))
      // 2026-10-25 04:00 CET is 03:00Z; 10-24 04:00 CEST is 02:00Z: the 24th has 25 hours.
      #expect(LocalDay("2026-10-25")!.start(dayStart: four, in: .system) == utc(2026, 10, 25, 3))
      #expect(LocalDay("2026-10-24")!.start(dayStart: four, in: .system) == utc(2026, 10, 24, 2))
      // 02:30 does not exist on 2026-03-29: that day starts at 03:00 CEST (01:00Z).
      let halfPastTwo = ClockTime("02:30")!
      #expect(LocalDay("2026-03-29")!.start(dayStart: halfPastTwo, in: .system) == utc(2026, 3, 29, 1))
      // Every quarter hour of the weeks around both changes lies in exactly the day whose start is before it.
      for (first, dayStart) in [("2026-03-25", four), ("2026-10-21", four), ("2026-03-25", halfPastTwo)] {
        let start = LocalDay(first)!
        var time = start.start(dayStart: dayStart, in: .system)
        let end = start.adding(days: 7)!.start(dayStart: dayStart, in: .system)
        var mismatches = 0
        while time < end {
          let day = LocalDay.containing(time, dayStart: dayStart, in: .system)
          if !(day.start(dayStart: dayStart, in: .system) <= time
            && time < day.adding(days: 1)!.start(dayStart: dayStart, in: .system))
          {
            mismatches += 1
          }
          time = time.adding(seconds: 900)
        }
        #expect(mismatches == 0, "\(first) \(dayStart)")
      }
    }
  }
}
