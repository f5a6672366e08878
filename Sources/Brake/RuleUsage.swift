/// Where one rule stands today, as `Usage()` and `status --json` report it.
public struct RuleUsage: Hashable, Sendable {
  public var rule: String
  /// The whole seconds used today (the exact time is ``used``).
  public var usedSeconds: Int
  /// Today's limit in whole seconds (the exact limit is ``limit``).
  public var limitSeconds: Int
  public var remainingSeconds: Int { max(0, limitSeconds - usedSeconds) }
  public var grantsToday: Int
  /// Whether the rule's time counts right now.
  public var counting: Bool
  /// The time used today, to the nanosecond.
  public var used: Duration
  /// Today's limit: `(dailyLimitMinutes + grantsToday × grantMinutes) × minuteLength`.
  public var limit: Duration
  /// Whether today's use has reached the limit (decided on the exact times).
  public var overLimit: Bool { used >= limit }

  public init(rule: String, used: Duration, limit: Duration, grantsToday: Int, counting: Bool) {
    self.rule = rule
    self.used = used
    self.limit = limit
    self.usedSeconds = used.wholeSeconds
    self.limitSeconds = limit.wholeSeconds
    self.grantsToday = grantsToday
    self.counting = counting
  }
}
