public import Time

/// When the weekly summary comes: a day of the week and a local time, as
/// `config.json`'s `weeklySummary` says it (`"sunday 18:00"`).
///
/// Pure: the decision whether a summary is due (``due(at:lastShown:)``) takes
/// the local day and minute the caller read from its clock, and what it
/// remembers of the last summary shown.
public struct WeeklySchedule: Hashable, Sendable, CustomStringConvertible {
  /// The days of the week, numbered as ISO 8601 numbers them (Monday 1, Sunday 7).
  public enum Weekday: Int, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    case monday = 1
    case tuesday
    case wednesday
    case thursday
    case friday
    case saturday
    case sunday

    /// The English name in lowercase, as `weeklySummary` spells it: `sunday`.
    public var description: String {
      switch self {
      case .monday: "monday"
      case .tuesday: "tuesday"
      case .wednesday: "wednesday"
      case .thursday: "thursday"
      case .friday: "friday"
      case .saturday: "saturday"
      case .sunday: "sunday"
      }
    }

    /// The day of the week of `day`.
    public init(of day: LocalDay) {
      // 1970-01-01 was a Thursday (4).
      let index = ((day.dayNumber + 3) % 7 + 7) % 7
      self = Weekday(rawValue: index + 1)!
    }
  }

  public let weekday: Weekday
  /// Minutes after local midnight, 0…1439.
  public let minuteOfDay: Int

  /// How late a summary still comes: one day after its time (the service was
  /// not running, the machine slept, the clock jumped). Later than that it is
  /// left out, and the next week's comes at its time.
  public static let lateness = 24 * 60

  /// What `weeklySummary` accepts, for the error that names a wrong one.
  public static let acceptedForms =
    "a day of the week and a 24-hour local time, such as \"sunday 18:00\" "
    + "(the English day name or its first three letters, any case; the time as H:MM or HH:MM, 00:00 to 23:59)"

  public init?(weekday: Weekday, hour: Int, minute: Int) {
    guard (0...23).contains(hour), (0...59).contains(minute) else { return nil }
    self.weekday = weekday
    minuteOfDay = hour * 60 + minute
  }

  /// Reads `"sunday 18:00"`: a day name (`sunday` or `sun`, any case), one or
  /// more spaces, and a time `H:MM` or `HH:MM` from 00:00 to 23:59; spaces
  /// around are allowed. `nil` for anything else (see ``acceptedForms``).
  public init?(_ text: String) {
    let parts = text.split(separator: " ", omittingEmptySubsequences: true)
    guard parts.count == 2 else { return nil }
    let name = parts[0].lowercased()
    guard
      let weekday = Weekday.allCases.first(where: {
        $0.description == name || (name.count == 3 && $0.description.hasPrefix(name))
      })
    else { return nil }
    let time = Array(parts[1].utf8)
    guard time.count == 4 || time.count == 5, time[time.count - 3] == UInt8(ascii: ":") else { return nil }
    func number(_ bytes: ArraySlice<UInt8>) -> Int? {
      var value = 0
      for byte in bytes {
        guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
        value = value * 10 + Int(byte - UInt8(ascii: "0"))
      }
      return value
    }
    guard let hour = number(time[..<(time.count - 3)]), let minute = number(time[(time.count - 2)...]) else {
      return nil
    }
    self.init(weekday: weekday, hour: hour, minute: minute)
  }

  /// `sunday 18:00`: what ``init(_:)`` reads back.
  public var description: String {
    let hour = minuteOfDay / 60
    let minute = minuteOfDay % 60
    return "\(weekday) \(hour < 10 ? "0" : "")\(hour):\(minute < 10 ? "0" : "")\(minute)"
  }

  /// The day of the last time the schedule came at or before `now`: the
  /// latest day of ``weekday`` whose minute has been reached.
  public func lastOccurrence(atOrBefore now: LocalMinute) -> LocalDay {
    var back = ((Weekday(of: now.day).rawValue - weekday.rawValue) % 7 + 7) % 7
    if back == 0, now.minute < minuteOfDay { back = 7 }
    return now.day.adding(days: -back) ?? now.day
  }

  /// The summary due at `now`: the day of the occurrence it is for, or `nil`.
  ///
  /// Due when the last occurrence at or before `now` has not been shown
  /// (`lastShown` is the occurrence day of the last summary shown) and came
  /// less than ``lateness`` minutes of local time ago. So a summary comes
  /// once a week at most: a restart, or a clock set back, finds it shown; a
  /// time that a change to summer time skips is reached at the first minute
  /// after it; a week the service did not run is left out.
  public func due(at now: LocalMinute, lastShown: LocalDay?) -> LocalDay? {
    let occurrence = lastOccurrence(atOrBefore: now)
    if let lastShown, lastShown >= occurrence { return nil }
    let late = occurrence.days(to: now.day) * 24 * 60 + now.minute - minuteOfDay
    return late < WeeklySchedule.lateness ? occurrence : nil
  }

  /// The first local minute after `now` at which ``due(at:lastShown:)`` may
  /// change its answer: the next occurrence (a caller that checks on a timer
  /// may also simply check every minute).
  public func nextOccurrence(after now: LocalMinute) -> LocalMinute {
    let last = lastOccurrence(atOrBefore: now)
    let next = last.adding(days: 7) ?? last
    return LocalMinute(day: next, minute: minuteOfDay)
  }
}

extension WeeklySchedule {
  /// What one check of the schedule at a wall time finds.
  public struct Check: Hashable, Sendable {
    /// The local minute checked.
    public var now: LocalMinute
    /// The summary due now (``WeeklySchedule/due(at:lastShown:)``), or `nil`.
    public var due: LocalDay?
    /// The next occurrence after ``now``.
    public var next: LocalMinute
    /// How long to wait before the next check.
    public var wait: Duration
  }

  /// Checks the schedule at `time`: what is due, and how long to wait before
  /// looking again, which is until just after the next occurrence's minute
  /// begins (when it can first be reached), and at most `longest`: the wall
  /// clock can be set, or jump, while the caller sleeps on a clock that does
  /// not follow it.
  public func check(
    at time: WallTime, lastShown: LocalDay?, longest: Duration, in calendar: LocalCalendar
  ) -> Check {
    let now = LocalMinute.containing(time, in: calendar)
    let next = nextOccurrence(after: now)
    let nextTime = ClockTime(hour: next.minute / 60, minute: next.minute % 60) ?? .midnight
    let untilNext = next.day.instant(at: nextTime, in: calendar).secondsSince1970 - time.secondsSince1970
    let wait = min(.seconds(max(untilNext, 1)) + .milliseconds(100), longest)
    return Check(now: now, due: due(at: now, lastShown: lastShown), next: next, wait: wait)
  }
}

/// A local day and a minute of it, as the wall clock reads them.
public struct LocalMinute: Hashable, Sendable, CustomStringConvertible {
  public var day: LocalDay
  /// Minutes after local midnight, 0…1439 (a minute a DST change skips never appears).
  public var minute: Int

  public init(day: LocalDay, minute: Int) {
    self.day = day
    self.minute = min(max(minute, 0), 24 * 60 - 1)
  }

  public var description: String {
    "\(day) \(minute / 60 < 10 ? "0" : "")\(minute / 60):\(minute % 60 < 10 ? "0" : "")\(minute % 60)"
  }
}
