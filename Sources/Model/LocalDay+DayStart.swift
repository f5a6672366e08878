public import Time

// A day start other than midnight (`"dayStartsAt": "04:00"`, issue 25 point 5):
// the local day D runs from D's day start to D+1's, so that a late evening
// belongs to its day. Local times come from the calendar given, as for
// midnight (``LocalDay/containing(_:in:)``); a day start a DST change skips is
// the first instant after the gap (``LocalDay/instant(at:in:)``).

extension LocalDay {
  /// The local day that contains `time` when days begin at `dayStart`: the
  /// calendar date, or the date before it while `time` is before that date's day start.
  public static func containing(_ time: WallTime, dayStart: ClockTime, in calendar: LocalCalendar) -> LocalDay {
    let date = containing(time, in: calendar)
    guard dayStart != .midnight, time < date.instant(at: dayStart, in: calendar) else { return date }
    return date.adding(days: -1) ?? date
  }

  /// The first instant of this day when days begin at `dayStart`: ``start(in:)``
  /// at midnight, else the date's `dayStart` (``instant(at:in:)``).
  public func start(dayStart: ClockTime, in calendar: LocalCalendar) -> WallTime {
    dayStart == .midnight ? start(in: calendar) : instant(at: dayStart, in: calendar)
  }
}
