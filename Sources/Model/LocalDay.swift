import Time

/// A calendar day in the proleptic Gregorian calendar, such as 2026-11-29.
///
/// Grants belong to the local day they were earned on. The day of an instant
/// comes from the calendar it is given (``containing(_:in:)``); the service's
/// is the process's zone (`LocalCalendar.system`: `TZ`, `/etc/localtime`), so
/// DST changes and the zone database are handled where the rest of the
/// desktop handles them.
public struct LocalDay: Hashable, Comparable, Sendable, CustomStringConvertible {
  public let year: Int
  public let month: Int
  public let day: Int

  /// The day, or `nil` when there is no such date (February 30th, month 13).
  ///
  /// Years run from 1 to 9999 so that ``description`` always has four digits.
  public init?(year: Int, month: Int, day: Int) {
    guard (1...9999).contains(year), (1...12).contains(month),
      (1...LocalDay.daysInMonth(year: year, month: month)).contains(day)
    else { return nil }
    self.year = year
    self.month = month
    self.day = day
  }

  /// Parses `YYYY-MM-DD` exactly: four, two and two ASCII digits of a real date.
  public init?(_ text: some StringProtocol) {
    let bytes = Array(text.utf8)
    guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else {
      return nil
    }
    func number(_ range: Range<Int>) -> Int? {
      var value = 0
      for byte in bytes[range] {
        guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
        value = value * 10 + Int(byte - UInt8(ascii: "0"))
      }
      return value
    }
    guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10) else {
      return nil
    }
    self.init(year: year, month: month, day: day)
  }

  /// A day the caller knows to be valid.
  init(valid year: Int, _ month: Int, _ day: Int) {
    self.year = year
    self.month = month
    self.day = day
  }

  /// `YYYY-MM-DD`.
  public var description: String {
    // Ten ASCII bytes written in place: a year's report writes thousands.
    String(unsafeUninitializedCapacity: 10) { buffer in
      func digits(_ value: Int, _ width: Int, at start: Int) {
        var rest = value
        for position in (start..<start + width).reversed() {
          buffer[position] = UInt8(ascii: "0") + UInt8(rest % 10)
          rest /= 10
        }
      }
      digits(year, 4, at: 0)
      buffer[4] = UInt8(ascii: "-")
      digits(month, 2, at: 5)
      buffer[7] = UInt8(ascii: "-")
      digits(day, 2, at: 8)
      return 10
    }
  }

  public static func < (lhs: LocalDay, rhs: LocalDay) -> Bool {
    (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
  }

  /// The day `count` days later (earlier when negative), or `nil` outside years 1…9999.
  public func adding(days count: Int) -> LocalDay? {
    LocalDay(dayNumber: dayNumber + count)
  }

  /// The number of days from `self` to `other`; positive when `other` is later.
  public func days(to other: LocalDay) -> Int {
    other.dayNumber - dayNumber
  }

  static func daysInMonth(year: Int, month: Int) -> Int {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// Days since 1970-01-01 (``CivilDays``).
  var dayNumber: Int {
    Int(CivilDays.days(year: Int64(year), month: month, day: day))
  }

  /// The day `dayNumber` days after 1970-01-01 (``CivilDays``).
  init?(dayNumber: Int) {
    let date = CivilDays.date(days: Int64(dayNumber))
    guard let year = Int(exactly: date.year) else { return nil }
    self.init(year: year, month: date.month, day: date.day)
  }
}
