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
