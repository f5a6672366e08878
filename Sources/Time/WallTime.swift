/// An instant of the system's real-time clock (`CLOCK_REALTIME`): seconds and
/// nanoseconds since 1970-01-01 00:00 UTC.
///
/// The small value that replaces Foundation's `Date`: it compares, moves by
/// whole seconds and breaks into calendar fields in UTC. Posix reads the
/// clock (`WallTime.now`) and the local time zone (``LocalCalendar``'s
/// `system`). Durations belong to `ContinuousClock`; this is for calendar
/// days and for timestamps people read.
public struct WallTime: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// Whole seconds since 1970, rounded down (negative before 1970).
  public var secondsSince1970: Int64
  /// Nanoseconds within the second, 0..<1_000_000_000.
  public var nanoseconds: Int32

  /// The instant `secondsSince1970` plus `nanoseconds`.
  public init(secondsSince1970: Int64, nanoseconds: Int32 = 0) {
    self.secondsSince1970 = secondsSince1970
    self.nanoseconds = nanoseconds
  }

  /// The instant of the UTC calendar fields `fields`, normalised as `timegm`
  /// does (a 32nd of a month is the next month's first); `nil` beyond the
  /// years a C `struct tm` holds, or for a field beyond a billion.
  public init?(utc fields: CalendarTime) {
    let limit = -1_000_000_000...1_000_000_000
    guard [fields.day, fields.hour, fields.minute, fields.second].allSatisfy(limit.contains) else { return nil }
    let months = Int64(fields.year) * 12 + Int64(fields.month - 1)
    let year = months >= 0 ? months / 12 : (months - 11) / 12
    guard let first = Self.days(year: year, month: Int(months - year * 12) + 1, day: 1) else { return nil }
    let days = first + Int64(fields.day - 1)
    self.init(
      secondsSince1970: days * 86_400 + Int64(fields.hour) * 3_600 + Int64(fields.minute) * 60 + Int64(fields.second),
      nanoseconds: fields.nanoseconds)
  }

  /// This instant moved by `seconds`.
  public func adding(seconds: Int64) -> WallTime {
    WallTime(secondsSince1970: secondsSince1970 + seconds, nanoseconds: nanoseconds)
  }

  public static func < (left: WallTime, right: WallTime) -> Bool {
    (left.secondsSince1970, left.nanoseconds) < (right.secondsSince1970, right.nanoseconds)
  }

  /// The calendar fields of this instant in UTC; `nil` outside the years a C
  /// `struct tm` holds, as `gmtime_r` gives none there.
  public var utc: CalendarTime? {
    // Beyond ±7e16 seconds lies no year a `struct tm` holds (the check below is the exact one).
    guard (-70_000_000_000_000_000...70_000_000_000_000_000).contains(secondsSince1970) else { return nil }
    let days = secondsSince1970 >= 0 ? secondsSince1970 / 86_400 : (secondsSince1970 - 86_399) / 86_400
    let second = Int(secondsSince1970 - days * 86_400)
    let (year, month, day) = CivilDays.date(days: days)
    guard Self.tmYears.contains(year) else { return nil }
    return CalendarTime(
      year: Int(year), month: month, day: day, hour: second / 3_600, minute: second / 60 % 60, second: second % 60,
      nanoseconds: nanoseconds)
  }

  /// `2026-11-29T10:15:03.123Z`: RFC 3339 in UTC with milliseconds.
  public var description: String {
    guard let utc else { return "\(secondsSince1970)s" }
    return utc.rfc3339(fractionDigits: 3) + "Z"
  }

  /// The years whose `tm_year` (the year less 1900) a C `int` holds.
  private static let tmYears = (Int64(Int32.min) + 1900)...(Int64(Int32.max) + 1900)

  /// Days from 1970-01-01 to the civil date `year`-`month`-`day` (month 1…12).
  private static func days(year: Int64, month: Int, day: Int) -> Int64? {
    guard Self.tmYears.contains(year) else { return nil }
    return CivilDays.days(year: year, month: month, day: day)
  }
}
