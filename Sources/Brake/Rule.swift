import DeepLink

/// A limit that covers one or more apps: a daily allowance and the extra time
/// a solved puzzle unlocks.
///
/// Today's limit is `dailyLimitMinutes + grantsToday × grantMinutes`; grants
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

  /// The rule's name; the ledger counts grants under it.
  public var name: String
  /// The display names of the apps the rule covers, matched case-insensitively.
  public var apps: [String]
  /// Minutes allowed each day before any puzzle is solved.
  public var dailyLimitMinutes: Int
  /// Minutes each solved puzzle adds to today's limit.
  public var grantMinutes: Int
  /// The most puzzles that can be solved for this rule on one day.
  public var maxGrantsPerDay: Int

  public init(
    name: String,
    apps: [String],
    dailyLimitMinutes: Int = Rule.defaultDailyLimitMinutes,
    grantMinutes: Int = Rule.defaultGrantMinutes,
    maxGrantsPerDay: Int = Rule.defaultMaxGrantsPerDay
  ) {
    self.name = name
    self.apps = apps
    self.dailyLimitMinutes = dailyLimitMinutes
    self.grantMinutes = grantMinutes
    self.maxGrantsPerDay = maxGrantsPerDay
  }

  /// A rule whose limits are checked against their ranges, in the order they are declared.
  ///
  /// - Throws: ``RuleError`` naming the first limit outside its range
  ///   (``dailyLimitMinutesRange``, ``grantMinutesRange``, ``maxGrantsPerDayRange``).
  public init(
    checking name: String,
    apps: [String],
    dailyLimitMinutes: Int = Rule.defaultDailyLimitMinutes,
    grantMinutes: Int = Rule.defaultGrantMinutes,
    maxGrantsPerDay: Int = Rule.defaultMaxGrantsPerDay
  ) throws(RuleError) {
    self.init(
      name: name, apps: apps, dailyLimitMinutes: dailyLimitMinutes, grantMinutes: grantMinutes,
      maxGrantsPerDay: maxGrantsPerDay)
    for limit in Limit.allCases {
      let value = self[keyPath: limit.keyPath]
      guard limit.range.contains(value) else { throw RuleError(limit: limit, value: value) }
    }
  }

  /// Whether the rule lists `app`, compared case-insensitively ("youtube" is "YouTube").
  public func covers(_ app: String) -> Bool {
    let wanted = app.lowercased()
    return apps.contains { $0.lowercased() == wanted }
  }

  /// The day's limit after `grants` solved puzzles.
  public func limitMinutes(grants: Int) -> Int {
    dailyLimitMinutes + grants * grantMinutes
  }
}
