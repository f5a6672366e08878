public import Time

/// A time of day to the minute, as `config.json` writes it: `"22:00"`.
public struct ClockTime: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// Minutes since the day's midnight, 0–1439.
  public let minuteOfDay: Int

  /// The time `hour`:`minute`, or `nil` outside 00:00–23:59.
  public init?(hour: Int, minute: Int) {
    guard (0...23).contains(hour), (0...59).contains(minute) else { return nil }
    minuteOfDay = hour * 60 + minute
  }

  /// Parses `HH:MM` exactly: two digits, a colon, two digits, from 00:00 to 23:59.
  public init?(_ text: some StringProtocol) {
    let bytes = Array(text.utf8)
    guard bytes.count == 5, bytes[2] == UInt8(ascii: ":"),
      bytes.indices.allSatisfy({ $0 == 2 || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[$0]) })
    else { return nil }
    func digit(_ index: Int) -> Int { Int(bytes[index] - UInt8(ascii: "0")) }
    self.init(hour: digit(0) * 10 + digit(1), minute: digit(3) * 10 + digit(4))
  }

  public var hour: Int { minuteOfDay / 60 }
  public var minute: Int { minuteOfDay % 60 }

  /// 00:00, the day start unless `dayStartsAt` says otherwise.
  public static let midnight = ClockTime(hour: 0, minute: 0)!

  /// `HH:MM`.
  public var description: String {
    (hour < 10 ? "0" : "") + String(hour) + ":" + (minute < 10 ? "0" : "") + String(minute)
  }

  public static func < (left: ClockTime, right: ClockTime) -> Bool { left.minuteOfDay < right.minuteOfDay }
}

/// A rule's downtime: hours on some days during which its apps and sites are
/// shielded from the first second and no task unlocks them (issue 25 point 5).
///
/// `{"from": "22:00", "to": "07:00", "days": "sun-thu"}`: a period that
/// ends at or before its start crosses midnight and ends the day after; it
/// belongs to the (local) day it starts on, so `sun-thu` is the nights from
/// Sunday to Thursday evening. `days` left out is every day.
public struct DowntimePeriod: Hashable, Sendable, CustomStringConvertible {
  public var from: ClockTime
  public var to: ClockTime
  /// The days the period starts on.
  public var days: Weekdays

  /// A period from `from` to `to` on `days`; the two times differ (``Downtime`` refuses equal ones).
  public init(from: ClockTime, to: ClockTime, days: Weekdays = .all) {
    self.from = from
    self.to = to
    self.days = days
  }

  /// Whether the period ends on the calendar day after the one it starts on.
  public var crossesMidnight: Bool { to <= from }

  /// `22:00-07:00 sun-thu`, the days left out when every day.
  public var description: String {
    "\(from)-\(to)" + (days == .all ? "" : " \(days)")
  }

  /// The instants the period covers on the local day `day` (which begins at
  /// `dayStart`), or `nil` when it is not on that day's weekday.
  ///
  /// The start is the first instant at `from` on or after the day's start
  /// (a `from` before `dayStart` is on the calendar day after); the end is
  /// the next `to` after it. Both come from `calendar`'s zone, so a DST
  /// change inside the period makes it an hour shorter or longer, and a
  /// time the change skips is the first instant after the gap.
  public func span(on day: LocalDay, dayStart: ClockTime = .midnight, in calendar: LocalCalendar) -> Range<WallTime>? {
    guard days.contains(day.weekday), from != to else { return nil }
    guard let startDate = from >= dayStart ? day : day.adding(days: 1),
      let endDate = crossesMidnight ? startDate.adding(days: 1) : startDate
    else { return nil }
    let start = startDate.instant(at: from, in: calendar)
    let end = endDate.instant(at: to, in: calendar)
    return start < end ? start..<end : nil
  }
}

/// The decisions on a rule's downtime: whether an instant lies in it and
/// until when, and when the next one begins. Pure but for the zone, which
/// is given as every local day's is (``LocalCalendar``).
public enum Downtime {
  /// How many days ahead a chain of periods that meet or overlap is followed:
  /// a week of downtime without a break ends there, and is looked at again then.
  public static let horizonDays = 8

  /// The end of the downtime that `time` lies in, or `nil` when it lies in none.
  ///
  /// Periods that overlap or meet make one downtime: the end is where the
  /// last of them ends (no later than ``horizonDays`` ahead).
  public static func until(
    _ periods: [DowntimePeriod], at time: WallTime, dayStart: ClockTime = .midnight, in calendar: LocalCalendar
  ) -> WallTime? {
    guard !periods.isEmpty else { return nil }
    let today = LocalDay.containing(time, in: calendar)
    let spans = spans(
      periods, from: today.adding(days: -2) ?? today, days: horizonDays + 3, dayStart: dayStart, in: calendar)
    guard spans.contains(where: { $0.contains(time) }) else { return nil }
    var end = time
    var extended = true
    while extended {
      extended = false
      for span in spans where span.lowerBound <= end && span.upperBound > end {
        end = span.upperBound
        extended = true
      }
    }
    return end
  }

  /// The first start of a period after `time` (in the next ``horizonDays``), or `nil`.
  public static func nextStart(
    _ periods: [DowntimePeriod], after time: WallTime, dayStart: ClockTime = .midnight, in calendar: LocalCalendar
  ) -> WallTime? {
    guard !periods.isEmpty else { return nil }
    let today = LocalDay.containing(time, in: calendar)
    return spans(
      periods, from: today.adding(days: -1) ?? today, days: horizonDays + 2, dayStart: dayStart, in: calendar
    )
    .map(\.lowerBound).filter { $0 > time }.min()
  }

  /// The end of a downtime as people read it: the local time (`07:00`), with
  /// the date before it (`2026-12-04 07:00`) when it is not within a day of `now`.
  public static func endText(_ end: WallTime, from now: WallTime, in calendar: LocalCalendar) -> String {
    guard let fields = calendar.fields(end) else { return end.description }
    let time = ClockTime(hour: fields.hour, minute: fields.minute)?.description ?? "\(fields.hour):\(fields.minute)"
    guard end.secondsSince1970 - now.secondsSince1970 >= 86_400,
      let day = LocalDay(year: fields.year, month: fields.month, day: fields.day)
    else { return time }
    return "\(day) \(time)"
  }

  private static func spans(
    _ periods: [DowntimePeriod], from first: LocalDay, days: Int, dayStart: ClockTime, in calendar: LocalCalendar
  ) -> [Range<WallTime>] {
    (0..<days).compactMap { first.adding(days: $0) }.flatMap { day in
      periods.compactMap { $0.span(on: day, dayStart: dayStart, in: calendar) }
    }
  }
}

extension LocalDay {
  /// The first instant of this date at or after the local time `clock`, in
  /// `calendar`'s zone: the time itself, or where a DST change skips it, the
  /// first instant after the gap. A time a change repeats is the one the calendar picks.
  public func instant(at clock: ClockTime, in calendar: LocalCalendar) -> WallTime {
    let target = (self, clock.minuteOfDay)
    func isOnOrAfter(_ second: Int64) -> Bool {
      guard let fields = calendar.fields(WallTime(secondsSince1970: second)),
        let day = LocalDay(year: fields.year, month: fields.month, day: fields.day)
      else { return second > 0 }
      return (day, fields.hour * 60 + fields.minute) >= target
    }
    let guess =
      calendar.instant(CalendarTime(year: year, month: month, day: day, hour: clock.hour, minute: clock.minute))?
      .secondsSince1970 ?? 0
    if isOnOrAfter(guess) && !isOnOrAfter(guess - 1) { return WallTime(secondsSince1970: guess) }
    var low = guess - 86_400
    var high = guess + 86_400
    while high - low > 1 {
      let middle = low + (high - low) / 2
      if isOnOrAfter(middle) { high = middle } else { low = middle }
    }
    return WallTime(secondsSince1970: high)
  }
}
