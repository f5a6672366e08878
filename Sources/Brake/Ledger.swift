/// The grants earned on each local day, counted per rule.
///
/// Grants belong to the day they were earned on: asking for another day's
/// count never sees them, so yesterday's grants never extend today's limit.
/// The ledger keeps counts only (no times, no app names): it holds what the
/// limits need and nothing more about the user's day.
public struct Ledger: Hashable, Sendable {
  /// How many days back from today a ledger keeps; older days are dropped when it is saved.
  public static let keptDays = 7

  /// Grants per rule name, per day.
  public private(set) var days: [LocalDay: [String: Int]]

  /// An empty ledger.
  public init() {
    days = [:]
  }

  init(days: [LocalDay: [String: Int]]) {
    self.days = days
  }

  /// The grants recorded for the rule named `rule` on `day`.
  public func grants(for rule: String, on day: LocalDay) -> Int {
    days[day]?[rule] ?? 0
  }

  /// Records one solved puzzle for `rule` on `day`, unless the day's grants are used up.
  ///
  /// - Returns: The rule's grants on `day`, the new one included.
  /// - Throws: ``LedgerError/grantsUsedUp(rule:maximum:day:)`` when the rule
  ///   already has `maxGrantsPerDay` grants on that day; nothing is recorded.
  @discardableResult
  public mutating func recordGrant(for rule: Rule, on day: LocalDay) throws(LedgerError) -> Int {
    let current = grants(for: rule.name, on: day)
    guard current < rule.maxGrantsPerDay else {
      throw .grantsUsedUp(rule: rule.name, maximum: rule.maxGrantsPerDay, day: day)
    }
    days[day, default: [:]][rule.name] = current + 1
    return current + 1
  }

  /// The most days a ledger keeps in all, later days included.
  public static let maximumDays = 31

  /// Drops every day more than ``keptDays`` before `today`, so the file stays small.
  ///
  /// Days after `today` stay (the clock may have been set back, and those
  /// grants were real), but never more than ``maximumDays`` days in all: the
  /// ones farthest from `today` go first.
  public mutating func forgetOldDays(before today: LocalDay) {
    days = days.filter { today.days(to: $0.key) > -Ledger.keptDays }
    if days.count > Ledger.maximumDays {
      let kept = days.keys.sorted { abs(today.days(to: $0)) < abs(today.days(to: $1)) }
        .prefix(Ledger.maximumDays)
      days = days.filter { kept.contains($0.key) }
    }
  }

  /// Where `rules` stand on `day`.
  public func status(of rules: RuleSet, on day: LocalDay) -> DayStatus {
    DayStatus(
      date: day,
      rules: rules.rules.map { RuleStatus(rule: $0, grantsToday: grants(for: $0.name, on: day)) })
  }
}
