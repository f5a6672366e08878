import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// An instant of the system's real-time clock (`CLOCK_REALTIME`): seconds and
/// nanoseconds since 1970-01-01 00:00 UTC.
///
/// The small value that replaces Foundation's `Date`: it compares, moves by
/// whole seconds and breaks into calendar fields in UTC or in the local time
/// zone, through the C library (`gmtime_r`, `localtime_r`, `mktime`), which
/// reads `TZ` and the system's zone database as every other program does.
/// Durations belong to `ContinuousClock`; this is for calendar days and for
/// timestamps people read.
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

  /// The current instant (`clock_gettime(CLOCK_REALTIME)`).
  public static var now: WallTime {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return WallTime(secondsSince1970: Int64(now.tv_sec), nanoseconds: Int32(now.tv_nsec))
  }

  /// This instant moved by `seconds`.
  public func adding(seconds: Int64) -> WallTime {
    WallTime(secondsSince1970: secondsSince1970 + seconds, nanoseconds: nanoseconds)
  }

  public static func < (left: WallTime, right: WallTime) -> Bool {
    (left.secondsSince1970, left.nanoseconds) < (right.secondsSince1970, right.nanoseconds)
  }

  /// The calendar fields of this instant in UTC; `nil` outside what `time_t` and `tm` hold.
  public var utc: CalendarTime? {
    var time = time_t(secondsSince1970)
    var fields = tm()
    guard gmtime_r(&time, &fields) != nil else { return nil }
    return CalendarTime(fields, nanoseconds: nanoseconds)
  }

  /// The calendar fields of this instant in the process's time zone (`TZ`).
  ///
  /// The zone is looked up again (``ZoneLookup``) when `TZ` changed and at
  /// most a second after the last look, so a long-running service follows
  /// the user to another zone.
  public var local: CalendarTime? {
    var time = time_t(secondsSince1970)
    var fields = tm()
    ZoneLookup.refresh()
    guard localtime_r(&time, &fields) != nil else { return nil }
    return CalendarTime(fields, nanoseconds: nanoseconds)
  }

  /// The instant `mktime` picks for the local time `fields`: normalised, and
  /// for a time that a DST change skips or repeats, one of the instants near it.
  ///
  /// - Returns: `nil` when `mktime` cannot represent it.
  public static func local(_ fields: CalendarTime) -> WallTime? {
    var parts = tm()
    parts.tm_year = Int32(clamping: fields.year - 1900)
    parts.tm_mon = Int32(clamping: fields.month - 1)
    parts.tm_mday = Int32(clamping: fields.day)
    parts.tm_hour = Int32(clamping: fields.hour)
    parts.tm_min = Int32(clamping: fields.minute)
    parts.tm_sec = Int32(clamping: fields.second)
    parts.tm_isdst = -1
    let seconds = mktime(&parts)
    // -1 is also one second before 1970; only the C fields tell an error from it.
    guard seconds != -1 || parts.tm_year == 69 else { return nil }
    return WallTime(secondsSince1970: Int64(seconds))
  }

  /// `2026-11-29T10:15:03.123Z`: RFC 3339 in UTC with milliseconds.
  public var description: String {
    guard let utc else { return "\(secondsSince1970)s" }
    return utc.rfc3339(fractionDigits: 3) + "Z"
  }
}

/// The calendar fields of an instant: Gregorian year, month 1…12, day 1…31,
/// hour, minute and second, as `struct tm` holds them.
public struct CalendarTime: Hashable, Sendable {
  public var year: Int
  public var month: Int
  public var day: Int
  public var hour: Int
  public var minute: Int
  public var second: Int
  public var nanoseconds: Int32

  public init(
    year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, nanoseconds: Int32 = 0
  ) {
    self.year = year
    self.month = month
    self.day = day
    self.hour = hour
    self.minute = minute
    self.second = second
    self.nanoseconds = nanoseconds
  }

  init(_ fields: tm, nanoseconds: Int32) {
    self.init(
      year: Int(fields.tm_year) + 1900, month: Int(fields.tm_mon) + 1, day: Int(fields.tm_mday),
      hour: Int(fields.tm_hour), minute: Int(fields.tm_min), second: Int(fields.tm_sec), nanoseconds: nanoseconds)
  }

  /// `2026-11-29T10:15:03` followed by `fractionDigits` digits of the second (none for 0).
  public func rfc3339(fractionDigits: Int = 0) -> String {
    var text = Self.padded(year, 4) + "-" + Self.padded(month, 2) + "-" + Self.padded(day, 2) + "T"
    text += Self.padded(hour, 2) + ":" + Self.padded(minute, 2) + ":" + Self.padded(second, 2)
    if fractionDigits > 0 {
      var fraction = Int(nanoseconds)
      for _ in 0..<(9 - min(9, fractionDigits)) { fraction /= 10 }
      text += "." + Self.padded(fraction, min(9, fractionDigits))
    }
    return text
  }

  /// `20261129T101503`: sortable and safe in a file name.
  public var compactStamp: String {
    Self.padded(year, 4) + Self.padded(month, 2) + Self.padded(day, 2) + "T" + Self.padded(hour, 2)
      + Self.padded(minute, 2) + Self.padded(second, 2)
  }

  private static func padded(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
  }
}

/// When `tzset` runs: `localtime_r` does not look at the zone again by
/// itself, and `tzset` stats `/etc/localtime` each time, which the meter
/// would otherwise do for every focus change. Again at once when `TZ`
/// changed (a test, a `setenv`), and otherwise at most once a second, so a
/// zone changed with `timedatectl` is followed within a second.
enum ZoneLookup {
  private struct Last {
    var zone: [CChar]?
    var at: UInt64 = 0
    var done = false
  }

  private static let last = Mutex(Last())

  static func refresh() {
    let zone = getenv("TZ").map { Array(UnsafeBufferPointer(start: $0, count: strlen($0) + 1)) }
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    let nanoseconds = UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
    last.withLock { last in
      guard !last.done || last.zone != zone || nanoseconds &- last.at >= 1_000_000_000 else { return }
      tzset()
      last = Last(zone: zone, at: nanoseconds, done: true)
    }
  }
}
