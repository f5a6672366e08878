public import Posix

// Local time comes from the C library through Posix's `WallTime`:
// `localtime_r` and `mktime` read `TZ` (or `/etc/localtime`) after `tzset`,
// exactly as every other program on the desktop does.

extension LocalDay {
  /// The local day that contains `time`, in the process's time zone (`TZ`).
  ///
  /// The zone is looked up again when `TZ` changes and at most a second
  /// after the last look (`WallTime.local`), so a long-running service
  /// follows the user to another zone.
  public static func containing(_ time: WallTime) -> LocalDay {
    guard let fields = time.clampedToTimeT.local,
      let day = LocalDay(year: fields.year, month: fields.month, day: fields.day)
    else {
      // Only instants beyond the years 1…9999 get here; they clamp to the ends.
      return time.secondsSince1970 < 0 ? .first : .last
    }
    return day
  }

  /// The first instant of this day in the process's time zone: local midnight,
  /// or the first moment after it where a DST change skips midnight itself.
  ///
  /// This is when the grants of the previous day stop counting.
  public var start: WallTime {
    let guess =
      WallTime.local(CalendarTime(year: year, month: month, day: day))?.secondsSince1970 ?? 0
    func isOnOrAfter(_ second: Int64) -> Bool {
      LocalDay.containing(WallTime(secondsSince1970: second)) >= self
    }
    if isOnOrAfter(guess) && !isOnOrAfter(guess - 1) {
      return WallTime(secondsSince1970: guess)
    }
    // `mktime` picked a moment that is not the boundary (midnight did not exist,
    // or the zone jumped across it): search the two days around the guess.
    var low = guess - 2 * 86_400
    var high = guess + 2 * 86_400
    while high - low > 1 {
      let middle = low + (high - low) / 2
      if isOnOrAfter(middle) { high = middle } else { low = middle }
    }
    return WallTime(secondsSince1970: high)
  }

  static let first = LocalDay(valid: 1, 1, 1)
  static let last = LocalDay(valid: 9999, 12, 31)
}

extension LocalMinute {
  /// The local day and minute that contain `time`, in the process's time zone (`TZ`).
  public static func containing(_ time: WallTime) -> LocalMinute {
    let day = LocalDay.containing(time)
    guard let fields = time.clampedToTimeT.local else { return LocalMinute(day: day, minute: 0) }
    return LocalMinute(day: day, minute: fields.hour * 60 + fields.minute)
  }
}

extension WallTime {
  /// The whole second of this instant, kept far inside `time_t`.
  fileprivate var clampedToTimeT: WallTime {
    WallTime(secondsSince1970: max(-1_000_000_000_000_000, min(1_000_000_000_000_000, secondsSince1970)))
  }
}
