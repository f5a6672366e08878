public import Time

// A local day and minute on a calendar given as a value (``LocalCalendar``):
// the process's zone for the service, a fixed one where a test wants it.

extension LocalDay {
  /// The local day that contains `time` on `calendar`.
  public static func containing(_ time: WallTime, in calendar: LocalCalendar) -> LocalDay {
    guard let fields = calendar.fields(time.clampedToTimeT),
      let day = LocalDay(year: fields.year, month: fields.month, day: fields.day)
    else {
      // Only instants beyond the years 1…9999 get here; they clamp to the ends.
      return time.secondsSince1970 < 0 ? .first : .last
    }
    return day
  }

  /// The first instant of this day on `calendar`: local midnight, or the
  /// first moment after it where a DST change skips midnight itself.
  ///
  /// This is when the grants of the previous day stop counting.
  public func start(in calendar: LocalCalendar) -> WallTime {
    let guess = calendar.instant(CalendarTime(year: year, month: month, day: day))?.secondsSince1970 ?? 0
    func isOnOrAfter(_ second: Int64) -> Bool {
      LocalDay.containing(WallTime(secondsSince1970: second), in: calendar) >= self
    }
    if isOnOrAfter(guess) && !isOnOrAfter(guess - 1) {
      return WallTime(secondsSince1970: guess)
    }
    // The calendar picked a moment that is not the boundary (midnight did not exist,
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
  /// The local day and minute that contain `time` on `calendar`.
  public static func containing(_ time: WallTime, in calendar: LocalCalendar) -> LocalMinute {
    let day = LocalDay.containing(time, in: calendar)
    guard let fields = calendar.fields(time.clampedToTimeT) else { return LocalMinute(day: day, minute: 0) }
    return LocalMinute(day: day, minute: fields.hour * 60 + fields.minute)
  }
}

extension WallTime {
  /// The whole second of this instant, kept far inside `time_t`.
  fileprivate var clampedToTimeT: WallTime {
    WallTime(secondsSince1970: max(-1_000_000_000_000_000, min(1_000_000_000_000_000, secondsSince1970)))
  }
}
