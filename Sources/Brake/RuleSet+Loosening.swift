/// A change of the rules during a day takes effect at once where it tightens
/// and at the next day's start where it loosens, so that the brake is never
/// one edit away (docs/configuration.md, "Changes during the day").
///
/// Per rule, by name: the lower daily limit of each weekday, grant and most grants a day; the
/// longer pause before a task's answer; the stronger action at the limit (`close`, then `hide`, then `notify`); the
/// apps and sites of both (an app taken out still counts today); the downtime
/// periods of both (one taken out or shortened still counts today). The warning
/// is no limit and changes at once. A rule taken out stays until tomorrow; a
/// new rule counts at once. Going back to the built-in rule (the rules
/// removed, the file deleted) keeps today's rules.
extension RuleSet {
  /// The rules in force for the rest of the day when `configured` replaces these (the rules in force now).
  public func tightened(by configured: RuleSet) -> RuleSet {
    if isBuiltIn { return configured }
    if configured.isBuiltIn { return self }
    var rules = configured.rules.map { rule in
      self.rules.first { $0.name == rule.name }.map { $0.tightened(by: rule) } ?? rule
    }
    rules += self.rules.filter { held in !configured.rules.contains { $0.name == held.name } }
    return RuleSet(rules)
  }
}

extension Rule {
  /// This rule (in force now) with `configured`'s tightenings, and none of its loosenings.
  public func tightened(by configured: Rule) -> Rule {
    var rule = configured
    rule.dailyLimit = dailyLimit.lower(with: configured.dailyLimit)
    rule.grantMinutes = min(grantMinutes, configured.grantMinutes)
    rule.maxGrantsPerDay = min(maxGrantsPerDay, configured.maxGrantsPerDay)
    rule.pauseSeconds = max(pauseSeconds, configured.pauseSeconds)
    rule.onLimit = max(onLimit, configured.onLimit)
    rule.apps += apps.filter { !configured.apps.contains($0) }
    // A period taken out or made shorter stays today; a new or longer one counts at once.
    rule.downtime += downtime.filter { !configured.downtime.contains($0) }
    return rule
  }
}

extension LimitAction: Comparable {
  /// The stronger action is the greater: `notify` < `hide` < `close`.
  public static func < (left: LimitAction, right: LimitAction) -> Bool {
    left.strength < right.strength
  }

  private var strength: Int {
    switch self {
    case .notify: 0
    case .hide: 1
    case .close: 2
    }
  }
}
