import Model
import Posix
import Testing

@Suite("The weekly summary's time, and when it is due")
struct WeeklyScheduleTests {
  /// A Sunday.
  let sunday = LocalDay("2026-11-29")!

  @Test("weeklySummary reads a day name and a 24-hour time, and writes them back")
  func parsing() throws {
    let read = try #require(WeeklySchedule("sunday 18:00"))
    #expect(read.weekday == .sunday && read.minuteOfDay == 18 * 60)
    #expect(WeeklySchedule("  Sun   8:05 ") == WeeklySchedule(weekday: .sunday, hour: 8, minute: 5))
    #expect(WeeklySchedule("MONDAY 00:00") == WeeklySchedule(weekday: .monday, hour: 0, minute: 0))
    #expect(WeeklySchedule("wed 23:59") == WeeklySchedule(weekday: .wednesday, hour: 23, minute: 59))
    for weekday in WeeklySchedule.Weekday.allCases {
      for minute in stride(from: 0, to: 1440, by: 7) {
        let schedule = try #require(WeeklySchedule(weekday: weekday, hour: minute / 60, minute: minute % 60))
        #expect(WeeklySchedule(schedule.description) == schedule)
        #expect(
          WeeklySchedule(String(schedule.description.prefix(3)) + schedule.description.drop { $0 != " " }) == schedule)
      }
    }
    let wrong = [
      "", "sunday", "18:00", "sunday 24:00", "sunday 18:60", "sunday 1800", "sundays 18:00", "su 18:00",
      "sunday 18:00:00", "sunday 8:5", "sunday -1:00", "sunday 18:00 extra", "sonntag 18:00", "sunday 18.00",
      "sunday ١٨:٠٠", "sunday 018:00", "sunday\t18:00", "sunday 6pm",
    ]
    for text in wrong { #expect(WeeklySchedule(text) == nil, "\(text)") }
  }

  @Test("The day of the week of a date")
  func weekdays() {
    #expect(WeeklySchedule.Weekday(of: sunday) == .sunday)
    #expect(WeeklySchedule.Weekday(of: LocalDay("2026-12-02")!) == .wednesday)
    #expect(WeeklySchedule.Weekday(of: LocalDay("1970-01-01")!) == .thursday)
    #expect(WeeklySchedule.Weekday(of: LocalDay("1969-12-29")!) == .monday)
    #expect(WeeklySchedule.Weekday(of: LocalDay("2000-02-29")!) == .tuesday)
    for offset in 0..<14 {
      let day = sunday.adding(days: offset)!
      #expect(WeeklySchedule.Weekday(of: day).rawValue == (offset + 6) % 7 + 1)
    }
  }

  /// Runs the service's check at each of `minutes`, remembering what was shown as the service does.
  private func shown(_ schedule: WeeklySchedule, at minutes: [LocalMinute], lastShown: LocalDay? = nil)
    -> [(at: LocalMinute, week: LocalDay)]
  {
    var last = lastShown
    var shown: [(LocalMinute, LocalDay)] = []
    for minute in minutes {
      if let week = schedule.due(at: minute, lastShown: last) {
        shown.append((minute, week))
        last = week
      }
    }
    return shown
  }

  /// Every minute from `day` for `days` days, as a clock read each minute gives them.
  private func everyMinute(from day: LocalDay, days: Int) -> [LocalMinute] {
    (0..<days).flatMap { offset in (0..<1440).map { LocalMinute(day: day.adding(days: offset)!, minute: $0) } }
  }

  @Test("Checked every minute for three weeks: once a week, at its minute, for every day and several times")
  func everyMinuteOfThreeWeeks() throws {
    let minutes = everyMinute(from: sunday, days: 21)
    for weekday in WeeklySchedule.Weekday.allCases {
      for minute in [0, 1, 719, 1080, 1439] {
        let schedule = try #require(WeeklySchedule(weekday: weekday, hour: minute / 60, minute: minute % 60))
        // What came before the first minute was shown (the service ran then).
        let result = shown(schedule, at: minutes, lastShown: sunday.adding(days: -1))
        #expect(result.count == 3, "\(schedule)")
        for (at, week) in result {
          #expect(at == LocalMinute(day: week, minute: minute), "\(schedule)")
          #expect(WeeklySchedule.Weekday(of: week) == weekday)
        }
      }
    }
  }

  @Test("A restart finds the week shown; the service off at the time shows it within a day, not later")
  func restarts() throws {
    let schedule = try #require(WeeklySchedule("sunday 18:00"))
    let time = LocalMinute(day: sunday, minute: 18 * 60)
    #expect(schedule.due(at: time, lastShown: nil) == sunday)
    #expect(schedule.due(at: time, lastShown: sunday) == nil)
    #expect(schedule.due(at: LocalMinute(day: sunday, minute: 23 * 60), lastShown: sunday) == nil)
    #expect(schedule.due(at: LocalMinute(day: sunday, minute: 17 * 60 + 59), lastShown: nil) == nil)
    // Started the next morning: the week's summary, late; the day after: left out.
    let monday = sunday.adding(days: 1)!
    #expect(schedule.due(at: LocalMinute(day: monday, minute: 9 * 60), lastShown: sunday.adding(days: -7)) == sunday)
    #expect(schedule.due(at: LocalMinute(day: monday, minute: 17 * 60 + 59), lastShown: nil) == sunday)
    #expect(schedule.due(at: LocalMinute(day: monday, minute: 18 * 60), lastShown: nil) == nil)
    #expect(schedule.due(at: LocalMinute(day: sunday.adding(days: 4)!, minute: 0), lastShown: nil) == nil)
  }

  @Test("A week the service did not run is left out; the next week comes at its time")
  func weekSkipped() throws {
    let schedule = try #require(WeeklySchedule("friday 20:30"))
    // Running the first week, off from Thursday to the Monday after next, running again.
    let first = everyMinute(from: sunday, days: 5)
    let second = everyMinute(from: sunday.adding(days: 15)!, days: 14)
    let result = shown(schedule, at: first + second)
    #expect(result.map(\.week) == [sunday.adding(days: 19)!, sunday.adding(days: 26)!])
    // Off the first week too, with a summary remembered from long ago.
    #expect(shown(schedule, at: second, lastShown: LocalDay("2025-01-03")).count == 2)
  }

  @Test("Summer time skips the hour of the summary: it comes at the first minute after; autumn's repeat shows once")
  func daylightSaving() throws {
    let spring = LocalDay("2027-03-28")!  // a Sunday, 02:00 → 03:00 in Europe
    let skipped = everyMinute(from: spring.adding(days: -1)!, days: 3).filter {
      !($0.day == spring && (120..<180).contains($0.minute))
    }
    let atTwoThirty = try #require(WeeklySchedule("sunday 02:30"))
    let springShown = shown(atTwoThirty, at: skipped)
    #expect(springShown.count == 1)
    #expect(springShown.first?.at == LocalMinute(day: spring, minute: 180))
    #expect(springShown.first?.week == spring)

    let autumn = LocalDay("2027-10-31")!  // a Sunday, 03:00 → 02:00
    let day = everyMinute(from: autumn, days: 1)
    let repeated = Array(day[..<180]) + Array(day[120...])
    let atTwoThirtyAutumn = shown(atTwoThirty, at: repeated)
    #expect(atTwoThirtyAutumn.count == 1)
    #expect(atTwoThirtyAutumn.first?.at == LocalMinute(day: autumn, minute: 150))
  }

  @Test("A clock set forward shows the summary once; set back after it, not again, and next week as usual")
  func clockJumps() throws {
    let schedule = try #require(WeeklySchedule("sunday 18:00"))
    // Forward over the time by two hours: shown at the first check after.
    let forward = [17 * 60 + 58, 17 * 60 + 59, 20 * 60, 20 * 60 + 1].map { LocalMinute(day: sunday, minute: $0) }
    #expect(shown(schedule, at: forward).map(\.at) == [LocalMinute(day: sunday, minute: 20 * 60)])
    // Forward by three days: that week is left out.
    let far = [LocalMinute(day: sunday, minute: 60), LocalMinute(day: sunday.adding(days: 3)!, minute: 60)]
    #expect(shown(schedule, at: far).isEmpty)
    // Shown, then set back a day and run forward again for a week and a half.
    let back =
      [LocalMinute(day: sunday, minute: 18 * 60)] + everyMinute(from: sunday.adding(days: -1)!, days: 10)
    #expect(shown(schedule, at: back).map(\.week) == [sunday, sunday.adding(days: 7)!])
    // Set back by more than a week after it was shown: the week before is not shown either.
    let farBack =
      [LocalMinute(day: sunday, minute: 18 * 60), LocalMinute(day: sunday.adding(days: -8)!, minute: 20 * 60)]
      + [LocalMinute(day: sunday.adding(days: -7)!, minute: 18 * 60 + 1)]
    #expect(shown(schedule, at: farBack).map(\.week) == [sunday])
  }

  @Test("The next occurrence is the next week's day at its minute, or this week's when it has not come")
  func next() throws {
    let schedule = try #require(WeeklySchedule("wednesday 07:15"))
    #expect(
      schedule.nextOccurrence(after: LocalMinute(day: sunday, minute: 0))
        == LocalMinute(day: sunday.adding(days: 3)!, minute: 435))
    #expect(
      schedule.nextOccurrence(after: LocalMinute(day: sunday.adding(days: 3)!, minute: 435))
        == LocalMinute(day: sunday.adding(days: 10)!, minute: 435))
    #expect(
      schedule.nextOccurrence(after: LocalMinute(day: sunday.adding(days: 3)!, minute: 434))
        == LocalMinute(day: sunday.adding(days: 3)!, minute: 435))
  }

  @Test("A check at a wall time: what is due, and a wait to just after the next time, at most the longest")
  func checks() throws {
    let schedule = try #require(WeeklySchedule("sunday 18:00"))
    let sundayAtSix = sunday.start(in: .utc).secondsSince1970 + 18 * 3600
    let hour = Duration.seconds(3600)
    // A minute before: nothing due, the wait ends just after 18:00.
    let before = schedule.check(
      at: WallTime(secondsSince1970: sundayAtSix - 60), lastShown: nil, longest: hour, in: .utc)
    #expect(before.due == nil && before.next == LocalMinute(day: sunday, minute: 18 * 60))
    #expect(before.wait == .seconds(60) + .milliseconds(100))
    // At 18:00: due for this Sunday; the next is a week on, so the wait is the longest.
    let at = schedule.check(at: WallTime(secondsSince1970: sundayAtSix), lastShown: nil, longest: hour, in: .utc)
    #expect(at.due == sunday && at.now == LocalMinute(day: sunday, minute: 18 * 60))
    #expect(at.next == LocalMinute(day: sunday.adding(days: 7)!, minute: 18 * 60) && at.wait == hour)
    // Shown already: not due again.
    #expect(
      schedule.check(at: WallTime(secondsSince1970: sundayAtSix + 30), lastShown: sunday, longest: hour, in: .utc)
        .due == nil)
    // Half a second before the minute: never less than a second's wait.
    let close = schedule.check(
      at: WallTime(secondsSince1970: sundayAtSix - 1, nanoseconds: 500_000_000), lastShown: nil, longest: hour,
      in: .utc)
    #expect(close.wait == .seconds(1) + .milliseconds(100))
  }
}
