/// A change of the rules during a day takes effect at once where it tightens
/// and at the next day's start where it loosens, so that the brake is never
/// one edit away (docs/using/limits.md, "Changes during the day").
///
/// Today's use and grants belong to the apps and sites, not to a rule's name:
/// a configured rule takes over the day of every rule in force that it
/// continues (the same name, without regard to case) or that one of its apps
/// left for it (an app of the rule in force that the configured rule covers,
/// and that the rule of the old name, if it is still configured, no longer
/// covers). So a rename, a split, a merge and an app moved to another rule
/// each keep the day of what they cover (``RuleChange/takeOver``), and the
/// tightest limit that covered an app today stays in force for it.
///
/// A configured rule is tightened by each rule whose day it takes over: the
/// lower daily limit of each weekday, grant and most grants a day; the longer
/// pause before a task's answer; the stronger action at the limit (`close`,
/// then `hide`, then `notify`); the downtime periods of both (one taken out or
/// shortened still counts today). Its apps keep covering what they covered
/// (``AppPattern/widened(by:isClaimed:isSiteClaimed:)``), and an app that no
/// configured rule covers any more stays today in the rule that took over its
/// rule's day. The warning is no limit and changes at once. A rule in force
/// that no configured rule continues or covers an app of stays until tomorrow;
/// a new rule counts at once. Going back to the built-in rule (the rules
/// removed, the file deleted) keeps today's rules.
///
/// No app is listed in two of the rules this gives, when none is in two of
/// the rules in force nor in two configured rules, so the rules in force are
/// always a configuration `config.json`'s reader takes. And the change is
/// settled: the rules it gives, changed by the same configuration again, stay
/// as they are and take over nothing more.
extension RuleSet {
  /// The rules in force for the rest of the day when `configured` replaces these (the rules in force now).
  public func tightened(by configured: RuleSet) -> RuleSet {
    change(to: configured).rules
  }

  /// The rules in force for the rest of the day when `configured` replaces
  /// these (the rules in force now), and whose day each of them takes over.
  public func change(to configured: RuleSet) -> RuleChange {
    if isBuiltIn { return RuleChange(rules: configured) }
    if configured.isBuiltIn { return RuleChange(rules: self) }
    let held = rules
    let wanted = configured.rules
    var inForce = wanted
    var apps = wanted.map(\.apps)
    var takeOver: [[String]] = wanted.map { _ in [] }
    var staying: [Rule] = []
    for rule in held {
      let heirs = Self.heirs(of: rule, in: wanted)
      guard let home = heirs.first else {
        staying.append(rule)
        continue
      }
      for heir in heirs {
        inForce[heir] = inForce[heir].limitsTightened(byHeld: rule)
        takeOver[heir].append(rule.name)
      }
      for app in rule.apps {
        // The app's entry in the rule that continues its rule, else the first configured entry that covers it.
        let place =
          wanted[home].apps.firstIndex(where: { $0.overlaps(app) }).map { (home, $0) }
          ?? wanted.indices.lazy.compactMap { index in
            wanted[index].apps.firstIndex(where: { $0.overlaps(app) }).map { (index, $0) }
          }.first
        guard let (ruleIndex, appIndex) = place else {
          // Covered by no configured rule: it stays today, in the rule that took over its rule's day.
          apps[home].append(app)
          continue
        }
        let isClaimed: (String) -> Bool = { name in
          Self.others(of: (ruleIndex, appIndex), in: wanted).contains { $0.windowNames.contains(name) }
        }
        let isSiteClaimed: (Site) -> Bool = { site in
          Self.others(of: (ruleIndex, appIndex), in: wanted).contains { other in
            other.sites.contains { $0.covers(site) || site.covers($0) }
          }
        }
        apps[ruleIndex][appIndex] = apps[ruleIndex][appIndex].widened(
          by: app, isClaimed: isClaimed, isSiteClaimed: isSiteClaimed)
      }
    }
    var carried: [String: [String]] = [:]
    for index in inForce.indices {
      inForce[index].apps = apps[index]
      let names = takeOver[index]
      if names.contains(where: { $0 != inForce[index].name }) { carried[inForce[index].name] = names }
    }
    return RuleChange(rules: RuleSet(inForce + staying), takeOver: carried)
  }

  /// The configured rules (their indices, in order) that take over the day
  /// of `rule`, in force now: the one of its name first, then each that
  /// covers an app of it which the one of its name does not cover.
  private static func heirs(of rule: Rule, in configured: [Rule]) -> [Int] {
    let name = rule.name.lowercased()
    let continuing = configured.firstIndex { $0.name.lowercased() == name }
    var heirs = continuing.map { [$0] } ?? []
    for (index, candidate) in configured.enumerated() where index != continuing {
      let moved = rule.apps.contains { app in
        candidate.apps.contains { $0.overlaps(app) }
          && !(continuing.map { configured[$0].apps.contains { $0.overlaps(app) } } ?? false)
      }
      if moved { heirs.append(index) }
    }
    return heirs
  }

  /// Every configured app but the one at `place`.
  private static func others(of place: (rule: Int, app: Int), in configured: [Rule]) -> [AppPattern] {
    configured.indices.flatMap { ruleIndex in
      configured[ruleIndex].apps.indices.compactMap { appIndex in
        (ruleIndex, appIndex) == place ? nil : configured[ruleIndex].apps[appIndex]
      }
    }
  }
}

/// The rules in force after a change of the configuration, and whose day each takes over.
public struct RuleChange: Hashable, Sendable {
  /// The rules in force for the rest of the day.
  public var rules: RuleSet
  /// Rule in force → the names of the rules in force before whose day it
  /// takes over (its own name among them when a rule of that very name was in
  /// force), for each rule that takes over another's: its ledger entry for
  /// today is carried from theirs (``Ledger/takingOver(_:on:)``).
  public var takeOver: [String: [String]]

  public init(rules: RuleSet, takeOver: [String: [String]] = [:]) {
    self.rules = rules
    self.takeOver = takeOver
  }
}

extension Rule {
  /// This rule (in force now) with `configured`'s tightenings, and none of its loosenings.
  ///
  /// The two are taken as one rule, whatever their names: `configured`'s
  /// name, warning and apps, every app of this one that `configured` does
  /// not cover added, the tighter of each limit.
  public func tightened(by configured: Rule) -> Rule {
    var renamed = self
    renamed.name = configured.name
    return RuleSet([renamed]).change(to: RuleSet([configured])).rules.rules[0]
  }

  /// `configured` (this rule) with the limits of `held`, in force today, where they are tighter.
  func limitsTightened(byHeld held: Rule) -> Rule {
    var rule = self
    rule.dailyLimit = held.dailyLimit.lower(with: dailyLimit)
    rule.grantMinutes = min(held.grantMinutes, grantMinutes)
    rule.maxGrantsPerDay = min(held.maxGrantsPerDay, maxGrantsPerDay)
    rule.pauseSeconds = max(held.pauseSeconds, pauseSeconds)
    rule.onLimit = max(held.onLimit, onLimit)
    // A period taken out or made shorter stays today; a new or longer one counts at once.
    rule.downtime += held.downtime.filter { !rule.downtime.contains($0) }
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
