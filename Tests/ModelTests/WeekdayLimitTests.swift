import Model
import Testing

/// Issue 25, point 5: limits by weekday (`{"mon-fri": 5, "sat,sun": 30}`).
@Suite("A rule's limit may differ by weekday")
struct WeekdayLimitTests {
  @Test("The weekday of a date: a known week, and every day of four centuries one after another")
  func weekdays() throws {
    // 2026-11-30 is a Monday.
    let monday = try #require(LocalDay(year: 2026, month: 11, day: 30))
    #expect((0..<7).compactMap { monday.adding(days: $0)?.weekday } == Weekday.allCases)
    #expect(LocalDay(year: 1970, month: 1, day: 1)?.weekday == .thursday)
    #expect(LocalDay(year: 2000, month: 2, day: 29)?.weekday == .tuesday)
    #expect(LocalDay(year: 1, month: 1, day: 1)?.weekday == .monday)
    var day = try #require(LocalDay(year: 1800, month: 1, day: 1))
    var weekday = day.weekday
    for _ in 0..<(146_097) {
      day = try #require(day.adding(days: 1))
      weekday = weekday.next
      #expect(day.weekday == weekday)
    }
  }

  @Test("Every range of two days, wrapping after sun, holds the days from the first to the last")
  func ranges() throws {
    for first in Weekday.allCases {
      for last in Weekday.allCases {
        let days = try Weekdays(parsing: "\(first)-\(last)")
        let count = (last.rawValue - first.rawValue + 7) % 7 + 1
        var expected: [Weekday] = []
        var day = first
        for _ in 0..<count {
          expected.append(day)
          day = day.next
        }
        #expect(Set(days.days) == Set(expected), "\(first)-\(last)")
        // The written form reads back as the same days.
        #expect(try Weekdays(parsing: days.description) == days)
      }
    }
  }

  @Test(
    "Names, lists and ranges, written Monday first",
    arguments: [
      ("mon-fri", "mon-fri"), ("sat,sun", "sat,sun"), ("fri-mon", "mon,fri-sun"), ("sun-thu", "mon-thu,sun"),
      ("SUN, Wed", "wed,sun"), ("tue", "tue"), ("mon-sun", "mon-sun"), ("sat-sat", "sat"),
      ("mon,tue-wed", "mon-wed"),
    ])
  func written(text: String, written: String) throws {
    #expect(try Weekdays(parsing: text).description == written)
  }

  @Test(
    "What names no day, or a day twice, is refused",
    arguments: [
      ("monday", WeekdaysError.notADay("monday")), ("", .notADay("")), ("mon,", .notADay("")),
      ("mon-", .notADay("")), ("mon-wed-fri", .notADay("mon-wed-fri")), ("mon,mon", .repeated(.monday)),
      ("mon-fri,wed", .repeated(.wednesday)), ("fri-mon,mon", .repeated(.monday)), ("lun", .notADay("lun")),
    ])
  func refused(text: String, error: WeekdaysError) {
    #expect(throws: error) { try Weekdays(parsing: text) }
  }

  @Test("A limit by groups of days: each day's minutes, the days sharing them, every day once")
  func groups() throws {
    let limit = try DailyLimit(groups: [
      (try Weekdays(parsing: "mon-fri"), 5), (try Weekdays(parsing: "sat,sun"), 30),
    ])
    #expect(limit.minutesByWeekday == [5, 5, 5, 5, 5, 30, 30])
    #expect(!limit.isUniform && limit.lowest == 5 && limit.highest == 30)
    #expect(limit.days(like: .tuesday).description == "mon-fri")
    #expect(limit.days(like: .sunday).description == "sat,sun")
    #expect(limit.groups.map { "\($0.days)=\($0.minutes)" } == ["mon-fri=5", "sat,sun=30"])
    #expect(limit.description == "mon-fri 5, sat,sun 30")
    #expect(DailyLimit(minutes: 7).isUniform && DailyLimit(minutes: 7).description == "7")
    #expect(throws: DailyLimitError.missing(.sunday)) {
      try DailyLimit(groups: [(try Weekdays(parsing: "mon-sat"), 5)])
    }
    #expect(throws: DailyLimitError.twice(.friday, first: 0, second: 1)) {
      try DailyLimit(groups: [(try Weekdays(parsing: "mon-fri"), 5), (try Weekdays(parsing: "fri-sun"), 30)])
    }
  }

  @Test("The limit of each local day is its weekday's, for every weekday and grant count")
  func limitOfADay() throws {
    var rule = Rule(name: "social", apps: ["Instagram"], grantMinutes: 3, maxGrantsPerDay: 2)
    rule.dailyLimit = DailyLimit { [4, 5, 6, 7, 8, 30, 40][$0.rawValue] }
    let monday = try #require(LocalDay(year: 2026, month: 11, day: 30))
    for offset in 0..<21 {
      let day = try #require(monday.adding(days: offset))
      let base = [4, 5, 6, 7, 8, 30, 40][offset % 7]
      #expect(rule.dailyLimitMinutes(on: day) == base)
      for grants in -1...4 {
        #expect(rule.limitMinutes(grants: grants, on: day) == base + min(max(grants, 0), 2) * 3)
      }
      let status = RuleStatus(rule: rule, day: day, grantsToday: 1)
      #expect(status.limitTodayMinutes == base + 3)
      #expect(status.dailyLimitDays?.days == [day.weekday])
    }
    // A plain number is the limit of every day, and names no days.
    let plain = Rule(name: "chat", apps: ["Telegram"], dailyLimitMinutes: 9)
    #expect(RuleStatus(rule: plain, day: monday, grantsToday: 0).dailyLimitDays == nil)
    #expect(Weekday.allCases.allSatisfy { plain.dailyLimit.minutes(on: $0) == 9 })
  }

  @Test("Loosening compares each weekday: a day raised waits, a day lowered counts at once")
  func loosening() throws {
    var held = Rule(name: "social", apps: ["Instagram"], dailyLimitMinutes: 10)
    var configured = held
    configured.dailyLimit = try DailyLimit(groups: [
      (try Weekdays(parsing: "mon-fri"), 5), (try Weekdays(parsing: "sat,sun"), 30),
    ])
    // Weekdays go down at once; the weekend waits for tomorrow.
    #expect(held.tightened(by: configured).dailyLimit.minutesByWeekday == [5, 5, 5, 5, 5, 10, 10])
    // From a limit by weekday back to a plain number: each day keeps the lower.
    held.dailyLimit = configured.dailyLimit
    configured.dailyLimitMinutes = 20
    #expect(held.tightened(by: configured).dailyLimit.minutesByWeekday == [5, 5, 5, 5, 5, 20, 20])
    // Every pair of one day's minutes: the lower is in force, on that day alone.
    for day in Weekday.allCases {
      for (before, after) in [(5, 6), (6, 5), (5, 5), (0, 1440)] {
        held.dailyLimit = DailyLimit { $0 == day ? before : 10 }
        configured.dailyLimit = DailyLimit { $0 == day ? after : 10 }
        let inForce = held.tightened(by: configured).dailyLimit
        #expect(inForce.minutes(on: day) == min(before, after))
        #expect(Weekday.allCases.filter { $0 != day }.allSatisfy { inForce.minutes(on: $0) == 10 })
      }
    }
  }
}
