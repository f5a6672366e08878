/// The grants earned and the seconds used on each local day, counted per rule.
///
/// Grants belong to the day they were earned on: asking for another day's
/// count never sees them, so yesterday's grants never extend today's limit.
/// The seconds a rule's apps were used are kept the same way, beside the
/// grants, so a restart (or a crash) of the service keeps the day's use. The
/// ledger keeps counts only (no times, no app names): it holds what the
/// limits need and nothing more about the user's day.
public struct Ledger: Hashable, Sendable {
  /// How many days back from today a ledger keeps; older days are dropped when it is saved.
  public static let keptDays = 7

  /// The most seconds of use one day can hold: 25 hours, the day DST ends.
  ///
  /// A stored count above it cannot be real; it is read as this many.
  public static let maximumUsedSeconds = 90_000

  /// Grants per rule name, per day.
  public private(set) var days: [LocalDay: [String: Int]]

  /// Seconds used per rule name, per day (only days with some use).
  public private(set) var usedSecondsByDay: [LocalDay: [String: Int]]

  /// An empty ledger.
  public init() {
    days = [:]
    usedSecondsByDay = [:]
  }

  init(days: [LocalDay: [String: Int]], usedSecondsByDay: [LocalDay: [String: Int]] = [:]) {
    self.days = days
    self.usedSecondsByDay = usedSecondsByDay
  }

  /// The grants recorded for the rule named `rule` on `day`.
  public func grants(for rule: String, on day: LocalDay) -> Int {
    days[day]?[rule] ?? 0
  }

  /// The seconds the apps of the rule named `rule` were used on `day`.
  public func usedSeconds(for rule: String, on day: LocalDay) -> Int {
    usedSecondsByDay[day]?[rule] ?? 0
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

  /// Records that the rule named `rule` was used for `seconds` on `day`,
  /// keeping the larger of this and the count already stored.
  ///
  /// Use only grows during a day, so the larger count is the later one: two
  /// writers (or a service restarted from an older file) never lose use. The
  /// count is kept within `0...maximumUsedSeconds`.
  ///
  /// - Returns: The count stored for the rule on `day` afterwards.
  @discardableResult
  public mutating func recordUsedSeconds(_ seconds: Int, for rule: String, on day: LocalDay) -> Int {
    let stored = usedSeconds(for: rule, on: day)
    let kept = max(stored, min(max(seconds, 0), Ledger.maximumUsedSeconds))
    if kept > stored { usedSecondsByDay[day, default: [:]][rule] = kept }
    return kept
  }

  /// Records the seconds used on `day` by several rules, keeping the larger count of each.
  public mutating func recordUsedSeconds(_ seconds: [String: Int], on day: LocalDay) {
    for (rule, count) in seconds { recordUsedSeconds(count, for: rule, on: day) }
  }

  /// The days after `today` that hold seconds used: the clock was set back.
  ///
  /// They stay stored (that use was real) but never count for today.
  public func daysWithUsage(after today: LocalDay) -> [LocalDay] {
    usedSecondsByDay.keys.filter { $0 > today }.sorted()
  }

  /// The most days a ledger keeps in all, later days included.
  public static let maximumDays = 31

  /// Drops every day more than ``keptDays`` before `today`, grants and use
  /// alike, so the file stays small.
  ///
  /// Days after `today` stay (the clock may have been set back, and those
  /// grants and that use were real), but never more than ``maximumDays`` days
  /// in all: the ones farthest from `today` go first.
  public mutating func forgetOldDays(before today: LocalDay) {
    func isRecent(_ day: LocalDay) -> Bool { today.days(to: day) > -Ledger.keptDays }
    days = days.filter { isRecent($0.key) }
    usedSecondsByDay = usedSecondsByDay.filter { isRecent($0.key) }
    let allDays = Set(days.keys).union(usedSecondsByDay.keys)
    if allDays.count > Ledger.maximumDays {
      let kept = Set(
        allDays.sorted { abs(today.days(to: $0)) < abs(today.days(to: $1)) }.prefix(Ledger.maximumDays))
      days = days.filter { kept.contains($0.key) }
      usedSecondsByDay = usedSecondsByDay.filter { kept.contains($0.key) }
    }
  }

  /// Where `rules` stand on `day`.
  public func status(of rules: RuleSet, on day: LocalDay) -> DayStatus {
    DayStatus(
      date: day,
      rules: rules.rules.map { RuleStatus(rule: $0, grantsToday: grants(for: $0.name, on: day)) })
  }
}
