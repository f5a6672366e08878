import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

// FoundationEssentials has no time-zone database, so local time comes from the
// C library: `localtime_r` and `mktime` read `TZ` (or `/etc/localtime`) after
// `tzset`, exactly as every other program on the desktop does.

extension LocalDay {
  /// The local day that contains `date`, in the process's time zone (`TZ`).
  ///
  /// The zone is looked up again on every call (`tzset`), so a long-running
  /// service follows the user to another zone.
  public static func containing(_ date: Date) -> LocalDay {
    var time = time_t(date.unixSeconds)
    var fields = tm()
    tzset()
    guard localtime_r(&time, &fields) != nil,
      let day = LocalDay(
        year: Int(fields.tm_year) + 1900, month: Int(fields.tm_mon) + 1, day: Int(fields.tm_mday))
    else {
      // Only instants beyond the years 1…9999 get here; they clamp to the ends.
      return date.unixSeconds < 0 ? .first : .last
    }
    return day
  }

  /// The first instant of this day in the process's time zone: local midnight,
  /// or the first moment after it where a DST change skips midnight itself.
  ///
  /// This is when the grants of the previous day stop counting.
  public var start: Date {
    var fields = tm()
    fields.tm_year = Int32(year - 1900)
    fields.tm_mon = Int32(month - 1)
    fields.tm_mday = Int32(day)
    fields.tm_isdst = -1
    let guess = Int64(mktime(&fields))
    func isOnOrAfter(_ second: Int64) -> Bool {
      LocalDay.containing(Date(timeIntervalSince1970: Double(second))) >= self
    }
    if isOnOrAfter(guess) && !isOnOrAfter(guess - 1) {
      return Date(timeIntervalSince1970: Double(guess))
    }
    // `mktime` picked a moment that is not the boundary (midnight did not exist,
    // or the zone jumped across it): search the two days around the guess.
    var low = guess - 2 * 86_400
    var high = guess + 2 * 86_400
    while high - low > 1 {
      let middle = low + (high - low) / 2
      if isOnOrAfter(middle) { high = middle } else { low = middle }
    }
    return Date(timeIntervalSince1970: Double(high))
  }

  static let first = LocalDay(valid: 1, 1, 1)
  static let last = LocalDay(valid: 9999, 12, 31)
}

extension Date {
  /// Whole seconds since 1970, rounded down and kept far inside `time_t`.
  var unixSeconds: Int64 {
    let seconds = timeIntervalSince1970.rounded(.down)
    guard seconds.isFinite else { return 0 }
    return Int64(max(-1e15, min(1e15, seconds)))
  }
}
