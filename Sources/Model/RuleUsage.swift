/// Where one rule stands today, as `Usage()` and `status --json` report it.
///
/// The meter decides on the exact times (``used``, ``limit``); the whole
/// seconds are what people and scripts read.
public struct RuleUsage: Hashable, Sendable {
  public var rule: String
  /// The time used today, to the nanosecond.
  public var used: Duration
  /// Today's limit: `(dailyLimitMinutes(on: today) + grantsToday × grantMinutes) × minuteLength`.
  public var limit: Duration
  public var grantsToday: Int
  /// Whether the rule's time counts right now.
  public var counting: Bool

  public init(rule: String, used: Duration, limit: Duration, grantsToday: Int, counting: Bool) {
    self.rule = rule
    self.used = used
    self.limit = limit
    self.grantsToday = grantsToday
    self.counting = counting
  }

  /// The whole seconds used today, rounded down.
  public var usedSeconds: Int { used.wholeSeconds }
  /// Today's limit in whole seconds, rounded down.
  public var limitSeconds: Int { limit.wholeSeconds }
  public var remainingSeconds: Int { max(0, limitSeconds - usedSeconds) }
  /// Whether today's use has reached the limit (decided on the exact times).
  public var overLimit: Bool { used >= limit }
}
