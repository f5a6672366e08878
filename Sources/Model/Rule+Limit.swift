extension Rule {
  /// One of a rule's numeric limits, with the range it must lie in.
  ///
  /// The cases are in the order the checking initialiser checks them; the raw
  /// value is the property's name, which is also the key in `config.json`.
  public enum Limit: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    case dailyLimitMinutes
    case grantMinutes
    case maxGrantsPerDay
    case warnMinutes
    case pauseSeconds

    /// The values the limit may take.
    public var range: ClosedRange<Int> {
      switch self {
      case .dailyLimitMinutes: Rule.dailyLimitMinutesRange
      case .grantMinutes: Rule.grantMinutesRange
      case .maxGrantsPerDay: Rule.maxGrantsPerDayRange
      case .warnMinutes: Rule.warnMinutesRange
      case .pauseSeconds: Rule.pauseSecondsRange
      }
    }

    /// The value a rule has when it does not say.
    public var defaultValue: Int {
      switch self {
      case .dailyLimitMinutes: Rule.defaultDailyLimitMinutes
      case .grantMinutes: Rule.defaultGrantMinutes
      case .maxGrantsPerDay: Rule.defaultMaxGrantsPerDay
      case .warnMinutes: Rule.defaultWarnMinutes
      case .pauseSeconds: Rule.defaultPauseSeconds
      }
    }

    /// The rule's property that holds the limit.
    public var keyPath: WritableKeyPath<Rule, Int> {
      switch self {
      case .dailyLimitMinutes: \.dailyLimitMinutes
      case .grantMinutes: \.grantMinutes
      case .maxGrantsPerDay: \.maxGrantsPerDay
      case .warnMinutes: \.warnMinutes
      case .pauseSeconds: \.pauseSeconds
      }
    }

    public var description: String { rawValue }
  }
}
