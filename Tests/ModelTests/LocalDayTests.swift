import Foundation
import Model
import Testing

@Suite("A local day is a calendar date")
struct LocalDayTests {
  @Test("A date is written and read as YYYY-MM-DD")
  func roundTrip() throws {
    let day = try #require(LocalDay(year: 2026, month: 3, day: 9))
    #expect(day.description == "2026-03-09")
    #expect(LocalDay("2026-03-09") == day)
    #expect(LocalDay("0001-01-01")?.description == "0001-01-01")
  }

  @Test(
    "Text that is not exactly a real date is refused",
    arguments: [
      "2026-02-29", "2024-02-30", "2026-13-01", "2026-00-10", "2026-1-01", "26-01-01",
      "2026-01-01 ", "2026/01/01", "２０２６-01-01", "", "0000-01-01", "2026-01-1x",
    ])
  func refusesNonDates(text: String) {
    #expect(LocalDay(text) == nil)
  }

  @Test("Leap days follow the Gregorian rule")
  func leapDays() {
    #expect(LocalDay(year: 2024, month: 2, day: 29) != nil)
    #expect(LocalDay(year: 2000, month: 2, day: 29) != nil)
    #expect(LocalDay(year: 1900, month: 2, day: 29) == nil)
    #expect(LocalDay(year: 2100, month: 2, day: 29) == nil)
  }

  @Test("Adding days agrees with stepping one day at a time, across years and leap days")
  func addingDays() throws {
    var day = try #require(LocalDay(year: 1999, month: 12, day: 25))
    let start = day
    for step in 1...(366 * 5) {
      let next = try #require(day.adding(days: 1))
      #expect(next > day)
      if next.month == day.month {
        #expect(next.day == day.day + 1)
      } else {
        #expect(next.day == 1)
      }
      day = next
      #expect(start.adding(days: step) == day)
      #expect(start.days(to: day) == step)
      #expect(day.adding(days: -step) == start)
    }
  }

  @Test("Days sort by date")
  func ordering() throws {
    let days = ["2026-11-29", "2025-12-31", "2026-01-01", "2026-11-28"].compactMap { LocalDay($0) }
    #expect(
      days.sorted().map(\.description) == ["2025-12-31", "2026-01-01", "2026-11-28", "2026-11-29"])
  }
}

@Suite("The local day of an instant follows TZ, DST changes included")
struct LocalTimeTests {
  @Test("In UTC a day runs from midnight to midnight")
  func utcDays() async {
    await #expect(processExitsWith: .success) {
      useTimeZone("UTC")
      #expect(LocalDay.containing(utc(2026, 11, 29, 0, 0, 0)).description == "2026-11-29")
      #expect(LocalDay.containing(utc(2026, 11, 28, 23, 59, 59)).description == "2026-11-28")
      #expect(LocalDay("2026-11-29")?.start == utc(2026, 11, 29))
    }
  }

  @Test("In Berlin the day DST starts has 23 hours, the day it ends 25")
  func berlinDSTDays() async {
    await #expect(processExitsWith: .success) {
      useTimeZone("Europe/Berlin")
      let spring = LocalDay("2026-03-29")!
      let autumn = LocalDay("2026-10-25")!
      // Midnight is 23:00 UTC in winter (UTC+1) and 22:00 UTC in summer (UTC+2).
      #expect(spring.start == utc(2026, 3, 28, 23))
      #expect(spring.adding(days: 1)!.start == utc(2026, 3, 29, 22))
      #expect(autumn.start == utc(2026, 10, 24, 22))
      #expect(autumn.adding(days: 1)!.start == utc(2026, 10, 25, 23))
      // 23:59:59 local on the short and the long day still belong to them.
      #expect(LocalDay.containing(utc(2026, 3, 29, 21, 59, 59)) == spring)
      #expect(LocalDay.containing(utc(2026, 3, 29, 22, 0, 0)).description == "2026-03-30")
      #expect(LocalDay.containing(utc(2026, 10, 25, 22, 59, 59)) == autumn)
      #expect(LocalDay.containing(utc(2026, 10, 25, 23, 0, 0)).description == "2026-10-26")
      // The repeated hour 02:00–03:00 on the long day is the same day both times.
      #expect(LocalDay.containing(utc(2026, 10, 25, 0, 30)) == autumn)
      #expect(LocalDay.containing(utc(2026, 10, 25, 1, 30)) == autumn)
    }
  }

  @Test("Where DST skipped midnight, the day starts at the first moment that existed")
  func saoPauloSkippedMidnight() async {
    await #expect(processExitsWith: .success) {
      // Brazil moved its clocks from 00:00 to 01:00 on 2018-11-04 (UTC−3 to UTC−2).
      useTimeZone("America/Sao_Paulo")
      let day = LocalDay("2018-11-04")!
      #expect(day.start == utc(2018, 11, 4, 3))
      #expect(LocalDay.containing(utc(2018, 11, 4, 2, 59, 59)).description == "2018-11-03")
      #expect(LocalDay.containing(utc(2018, 11, 4, 3)) == day)
    }
  }

  @Test("A day a zone skipped entirely is never the day of any instant")
  func apiaSkippedDay() async {
    await #expect(processExitsWith: .success) {
      // Samoa went from 2011-12-29 straight to 2011-12-31.
      useTimeZone("Pacific/Apia")
      #expect(LocalDay.containing(utc(2011, 12, 30, 9, 59, 59)).description == "2011-12-29")
      #expect(LocalDay.containing(utc(2011, 12, 30, 10)).description == "2011-12-31")
    }
  }
}
