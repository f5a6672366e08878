import DeepLink

/// A limit that covers one or more apps: a daily allowance and the extra time
/// a solved puzzle unlocks.
///
/// Today's limit is `dailyLimit(today) + grantsToday × grantMinutes`; grants
/// belong to the rule, so solving a puzzle for Instagram also extends TikTok
/// when one rule covers both.
public struct Rule: Hashable, Sendable {
  /// The default daily limit, grant and most grants per day: 5 minutes, 5 minutes, 5.
  public static let defaultDailyLimitMinutes = 5
  public static let defaultGrantMinutes = 5
  public static let defaultMaxGrantsPerDay = 5

  /// The daily limits a rule may have: none at all up to a whole day.
  public static let dailyLimitMinutesRange = 0...1440
  /// The minutes a puzzle may grant.
  ///
  /// The same range as the `grant` of a puzzle link, so that every grant a
  /// rule gives is one a link can carry; the link grammar declares it.
  public static let grantMinutesRange = LinkConfiguration.grantRange
  /// The most grants a rule may allow on one day.
  public static let maxGrantsPerDayRange = 0...100
  /// How long before the limit the warning comes; 0: no warning.
  public static let defaultWarnMinutes = 1
  public static let warnMinutesRange = 0...1440
  /// How long a task waits before its answer is taken (issue 25 point 4); 0: no pause.
  public static let defaultPauseSeconds = 0
  public static let pauseSecondsRange = 0...60

  /// The rule's name; the ledger counts grants under it.
  public var name: String
  /// The apps the rule covers; their display names are matched case-insensitively.
  public var apps: [AppPattern]
  /// Minutes allowed each day before any puzzle is solved: one number, or one per weekday.
  public var dailyLimit: DailyLimit
  /// Minutes each solved puzzle adds to today's limit.
  public var grantMinutes: Int
  /// The most puzzles that can be solved for this rule on one day.
  public var maxGrantsPerDay: Int
  /// Minutes before the limit when one plain warning is shown; 0 for none.
  public var warnMinutes: Int
  /// What happens to the apps at the limit, after the shield notification.
  public var onLimit: LimitAction
  /// Seconds from the task shown until its answer is taken (``Pause``); 0 for none.
  public var pauseSeconds: Int
  /// Hours during which the rule's apps and sites are shielded and no task unlocks them (``Downtime``).
  public var downtime: [DowntimePeriod] = []

  public init(
    name: String,
    apps: [AppPattern],
    dailyLimitMinutes: Int = Rule.defaultDailyLimitMinutes,
    grantMinutes: Int = Rule.defaultGrantMinutes,
    maxGrantsPerDay: Int = Rule.defaultMaxGrantsPerDay,
    warnMinutes: Int = Rule.defaultWarnMinutes,
    onLimit: LimitAction = .hide,
    pauseSeconds: Int = Rule.defaultPauseSeconds
  ) {
    self.pauseSeconds = pauseSeconds
    self.name = name
    self.apps = apps
    self.dailyLimit = DailyLimit(minutes: dailyLimitMinutes)
    self.grantMinutes = grantMinutes
    self.maxGrantsPerDay = maxGrantsPerDay
    self.warnMinutes = warnMinutes
    self.onLimit = onLimit
  }

  /// A rule whose limits are checked against their ranges, in the order they are declared.
  ///
  /// - Throws: ``RuleError`` naming the first limit outside its range
  ///   (``dailyLimitMinutesRange``, ``grantMinutesRange``, ``maxGrantsPerDayRange``).
  public init(
    checking name: String,
    apps: [AppPattern],
    dailyLimitMinutes: Int = Rule.defaultDailyLimitMinutes,
    grantMinutes: Int = Rule.defaultGrantMinutes,
    maxGrantsPerDay: Int = Rule.defaultMaxGrantsPerDay,
    warnMinutes: Int = Rule.defaultWarnMinutes,
    onLimit: LimitAction = .hide,
    pauseSeconds: Int = Rule.defaultPauseSeconds
  ) throws(RuleError) {
    self.init(
      name: name, apps: apps, dailyLimitMinutes: dailyLimitMinutes, grantMinutes: grantMinutes,
      maxGrantsPerDay: maxGrantsPerDay, warnMinutes: warnMinutes, onLimit: onLimit, pauseSeconds: pauseSeconds)
    for limit in Limit.allCases {
      let value = self[keyPath: limit.keyPath]
      guard limit.range.contains(value) else { throw RuleError(limit: limit, value: value) }
    }
  }

  /// Whether the rule lists `app`, compared case-insensitively ("youtube" is "YouTube").
  public func covers(_ app: String) -> Bool {
    let wanted = app.lowercased()
    return apps.contains { $0.name.lowercased() == wanted }
  }

  /// The daily limit as one number: setting it gives every day these minutes.
  ///
  /// Reading it gives the highest minutes of a day, which is the plain
  /// number when every day has the same; the limit of a day is
  /// ``dailyLimitMinutes(on:)``'s.
  public var dailyLimitMinutes: Int {
    get { dailyLimit.highest }
    set { dailyLimit = DailyLimit(minutes: newValue) }
  }

  /// The minutes allowed on the local day `day` before any puzzle is solved.
  public func dailyLimitMinutes(on day: LocalDay) -> Int {
    dailyLimit.minutes(on: day)
  }

  /// The limit of the local day `day` after `grants` solved puzzles, counted as ``countedGrants(_:)`` counts them.
  public func limitMinutes(grants: Int, on day: LocalDay) -> Int {
    dailyLimitMinutes(on: day) + countedGrants(grants) * grantMinutes
  }

  /// The grants that count of `stored`: at most ``maxGrantsPerDay``, never below 0.
  ///
  /// A ledger edited by hand (or written while the rule allowed more) may
  /// hold more grants than the rule allows; they never raise a day's limit
  /// past the rule's own maximum.
  public func countedGrants(_ stored: Int) -> Int {
    min(max(0, stored), maxGrantsPerDay)
  }
}

/// What a rule does to its apps at the limit, after the shield notification.
public enum LimitAction: String, CaseIterable, Hashable, Sendable {
  /// Minimise the app's windows, and again whenever one is activated while over the limit.
  case hide
  /// Ask the app's windows to close; SIGTERM after a grace period, SIGKILL after a second one.
  case close
  /// The notification alone.
  case notify
}
