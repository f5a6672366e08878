public import JSON

/// Where one rule stands today.
public struct RuleStatus: Hashable, Sendable {
  public var rule: Rule
  /// Puzzles solved for the rule today, as many as count (``Rule/countedGrants(_:)``).
  public var grantsToday: Int

  /// The status of `rule` with `grantsToday` grants stored; more than the rule allows count as its maximum.
  public init(rule: Rule, grantsToday: Int) {
    self.rule = rule
    self.grantsToday = rule.countedGrants(grantsToday)
  }

  /// `dailyLimitMinutes + grantsToday × grantMinutes`.
  public var limitTodayMinutes: Int { rule.limitMinutes(grants: grantsToday) }

  /// Puzzles that can still be solved today.
  public var grantsLeft: Int { max(0, rule.maxGrantsPerDay - grantsToday) }

  /// Whether today's grants are used up, so no puzzle should be offered.
  public var isUsedUp: Bool { grantsLeft == 0 }

  /// `{"name":…,"apps":[…],"dailyLimitMinutes":…,"grantMinutes":…,"maxGrantsPerDay":…,"grantsToday":…,"limitTodayMinutes":…}`,
  /// with `"sites":[…]` after the apps when any of them names websites.
  public var json: JSONValue {
    let sites = rule.apps.flatMap(\.sites).map { JSONValue.string($0.name) }
    return .object(
      [("name", .string(rule.name)), ("apps", .array(rule.apps.map { .string($0.name) }))]
        + (sites.isEmpty ? [] : [("sites", .array(sites))]) + [
          ("dailyLimitMinutes", .int(rule.dailyLimitMinutes)),
          ("grantMinutes", .int(rule.grantMinutes)),
          ("maxGrantsPerDay", .int(rule.maxGrantsPerDay)),
          ("grantsToday", .int(grantsToday)),
          ("limitTodayMinutes", .int(limitTodayMinutes)),
        ])
  }
}

/// Where every rule stands on one local day; what `shieldbridge status` prints.
public struct DayStatus: Hashable, Sendable {
  public var date: LocalDay
  public var rules: [RuleStatus]

  public init(date: LocalDay, rules: [RuleStatus]) {
    self.date = date
    self.rules = rules
  }

  /// `{"date":"2026-11-29","rules":[…]}`, keys in this order.
  public var json: JSONValue {
    .object([("date", .string(date.description)), ("rules", .array(rules.map(\.json)))])
  }
}
