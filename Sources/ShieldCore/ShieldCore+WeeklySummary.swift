import Model
import Time

// The weekly summary (`weeklySummary` in config.json; docs/using/report.md):
// when it is due is the core's to decide, and its wait is one more deadline
// of the one timer, so that no loop of its own wakes the service.
extension ShieldCore {
  /// The weekly summary's schedule and the weeks it was shown for.
  struct WeeklySummary: Hashable, Sendable {
    var schedule: WeeklySchedule
    /// The last day of the last week shown (`weekly-summary.json`).
    var lastShown: LocalDay?
    /// The week a post was asked for, until the service says how it went.
    var posting: LocalDay?
    /// After a post that failed: when to try again.
    var retryAt: MonotonicTime?
  }

  /// The longest wait between two checks: the wall clock can be set, or jump,
  /// while the service sleeps on a clock that does not follow it.
  public static let longestWeeklyWait = Duration.seconds(3600)
  /// How long after a post that failed it is tried again, while the week is still due.
  public static let weeklyRetry = Duration.seconds(60)

  /// Takes the schedule in force and the week last shown, or how a post went.
  mutating func handleWeeklySummary(_ input: ShieldInput, at now: MeterInstant, effects: inout Effects) {
    switch input {
    case .weeklySummary(let schedule, let lastShown):
      weeklySummary = schedule.map { WeeklySummary(schedule: $0, lastShown: lastShown) }
      guard let schedule else { return }
      let check = schedule.check(
        at: now.wall, lastShown: lastShown, longest: Self.longestWeeklyWait, in: settings.calendar)
      if check.due == nil {
        let shown = lastShown.map { "already shown for \($0)" } ?? "none shown yet"
        effects.log(.debug, "week", "weekly summary: \(shown); none due at \(check.now), the next at \(check.next)")
      }
    case .weeklySummaryPosted(let week, let posted):
      guard var summary = weeklySummary, summary.posting == week else { return }
      summary.posting = nil
      if posted {
        summary.lastShown = week
      } else {
        summary.retryAt = now.monotonic.advanced(by: Self.weeklyRetry)
      }
      weeklySummary = summary
    default:
      return
    }
  }

  /// Asks for the summary when its time has come, no post is under way and no retry is waited for.
  mutating func postWeeklySummaryIfDue(at now: MeterInstant, effects: inout Effects) {
    guard var summary = weeklySummary, summary.posting == nil else { return }
    if let retryAt = summary.retryAt {
      guard now.monotonic >= retryAt else { return }
      summary.retryAt = nil
    }
    let check = summary.schedule.check(
      at: now.wall, lastShown: summary.lastShown, longest: Self.longestWeeklyWait, in: settings.calendar)
    if let week = check.due {
      summary.posting = week
      effects.append(.postWeeklySummary(week: week))
    }
    weeklySummary = summary
  }

  /// How long until the summary is to be looked at again: its next time (at
  /// most ``longestWeeklyWait``), the retry, or `nil` (none configured, or a post under way).
  func weeklySummaryWait(after now: MeterInstant) -> Duration? {
    guard let summary = weeklySummary, summary.posting == nil else { return nil }
    if let retryAt = summary.retryAt { return retryAt.duration(since: now.monotonic) }
    return summary.schedule.check(
      at: now.wall, lastShown: summary.lastShown, longest: Self.longestWeeklyWait, in: settings.calendar
    ).wait
  }
}
