/// The figures `shieldbridge report` shows for a range of local days: per
/// day and rule, and per rule the total, the daily average, the change from
/// the period before, the busiest app, grants and tasks declined.
///
/// Pure: built from the history, the ledger (today's live figures, and the
/// days a history does not hold yet: a ledger of an earlier version is read
/// without loss), the rules and the range.
public struct HistoryReport: Hashable, Sendable {
  /// One rule on one day.
  public struct RuleDay: Hashable, Sendable {
    public var name: String
    public var usedSeconds: Int
    /// The limit in force that day (see ``HistoryReport/init(history:ledger:rules:from:to:rule:)``).
    public var limitSeconds: Int
    public var grants: Int
    /// Seconds per app or site of the rule, in the order of `config.json`, zeros included.
    public var apps: [AppSeconds]
    public var shieldsShown: Int
    public var tasksAsked: Int
    public var tasksSolved: Int
    public var backedOut: Int

    /// Tasks asked and not solved.
    public var tasksDeclined: Int { max(0, tasksAsked - tasksSolved) }
  }

  /// The seconds of one app or site of a rule.
  public struct AppSeconds: Hashable, Sendable {
    public var name: String
    public var usedSeconds: Int

    public init(name: String, usedSeconds: Int) {
      self.name = name
      self.usedSeconds = usedSeconds
    }
  }

  /// One local day of the range, with every rule of the report.
  public struct Day: Hashable, Sendable {
    public var date: LocalDay
    public var rules: [RuleDay]
  }

  /// One rule over the whole range.
  public struct RuleSummary: Hashable, Sendable {
    public var name: String
    public var totalSeconds: Int
    /// ``totalSeconds`` over the days of the range, rounded down.
    public var averageSeconds: Int
    /// The same over the period of the same length just before the range.
    public var previousAverageSeconds: Int
    /// ``averageSeconds`` less ``previousAverageSeconds``: below zero, less than before.
    public var changeSeconds: Int { averageSeconds - previousAverageSeconds }
    /// The app or site with the most seconds in the range; `nil` when none has any.
    public var busiestApp: String?
    public var busiestAppSeconds: Int
    public var grants: Int
    public var shieldsShown: Int
    public var tasksDeclined: Int
    public var backedOut: Int
  }

  public var from: LocalDay
  public var to: LocalDay
  /// Every day from ``from`` to ``to``, oldest first.
  public var days: [Day]
  /// Per rule, in the order of the rules.
  public var summaries: [RuleSummary]

  /// All rules together: the total of every day in the range.
  public var totalSeconds: Int { summaries.reduce(0) { $0 + $1.totalSeconds } }
  /// All rules together, per day.
  public var averageSeconds: Int { days.isEmpty ? 0 : totalSeconds / days.count }
  /// All rules together, per day, in the period before.
  public var previousAverageSeconds: Int { summaries.reduce(0) { $0 + $1.previousAverageSeconds } }

  /// The most days a report covers: the most a history keeps.
  public static let maximumDays = History.keptDaysRange.upperBound

  /// The report of `rules` (or of the one named `rule`) from `from` to `to`, both included.
  ///
  /// A day's figures are the history's, and where the ledger holds more
  /// (today's use since the service's last save, days before the history
  /// existed) the ledger's; days before the history's forgotten date count
  /// nothing. A day's limit is the one the meter had in force; for a day it
  /// did not record, the one today's configuration gives with that day's
  /// grants (minutes of 60 s).
  public init(history: History, ledger: Ledger, rules: RuleSet, from: LocalDay, to: LocalDay, rule: String? = nil) {
    self.init(
      stored: { history.days[$0] }, forgottenBefore: history.forgottenBefore, ledger: ledger, rules: rules,
      from: from, to: to, rule: rule)
  }

  /// The same from the stored days `stored` gives, asked once for each day
  /// of the range and of the period before it, and not kept: so a
  /// caller can read each day's figures only when they are needed
  /// (``HistoryStore/report(ledger:rules:from:to:rule:)``).
  init(
    stored: (LocalDay) -> [String: HistoryEntry]?, forgottenBefore: LocalDay?, ledger: Ledger, rules: RuleSet,
    from: LocalDay, to: LocalDay, rule: String? = nil
  ) {
    self.from = from
    self.to = to
    var seen: Set<String> = []
    // The built-in rule meters nothing (it names no app): no history, nothing to report.
    let chosen =
      rules.isBuiltIn
      ? [] : rules.rules.filter { ($0.name == rule || rule == nil) && seen.insert($0.name).inserted }
    // Each day's figures (the history's, the ledger's) are looked up once, not once per rule.
    struct DayFigures {
      var day: LocalDay
      var stored: [String: HistoryEntry]?
      var ledgerSeconds: [String: Int]?
      var ledgerGrants: [String: Int]?
    }
    func dayFigures(_ day: LocalDay) -> DayFigures {
      // Days before the history's forgotten date count nothing from the ledger.
      let forgotten = forgottenBefore.map { day < $0 } ?? false
      return DayFigures(
        day: day, stored: stored(day), ledgerSeconds: forgotten ? nil : ledger.usedSecondsByDay[day],
        ledgerGrants: forgotten ? nil : ledger.days[day])
    }
    func usedSeconds(_ rule: Rule, _ figures: DayFigures) -> Int {
      max(figures.stored?[rule.name]?.usedSeconds ?? 0, figures.ledgerSeconds?[rule.name] ?? 0)
    }
    func figures(_ rule: Rule, _ figures: DayFigures) -> RuleDay {
      let stored = figures.stored?[rule.name] ?? HistoryEntry()
      let fromLedger = figures.ledgerSeconds?[rule.name] ?? 0
      let grants = max(stored.grants, rule.countedGrants(figures.ledgerGrants?[rule.name] ?? 0))
      let used = max(stored.usedSeconds, fromLedger)
      let split = AppSplit.fitted(stored.appParts, within: used)
      return RuleDay(
        name: rule.name, usedSeconds: used,
        limitSeconds: stored.limitSeconds ?? rule.limitMinutes(grants: grants, on: figures.day) * 60, grants: grants,
        apps: rule.apps.map { AppSeconds(name: $0.name, usedSeconds: split.seconds(of: $0.name)) },
        shieldsShown: stored.shieldsShown,
        tasksAsked: max(stored.tasksAsked, stored.tasksSolved), tasksSolved: stored.tasksSolved,
        backedOut: stored.backedOut)
    }
    let count = max(1, from.days(to: to) + 1)
    let days = (0..<count).compactMap { offset in
      from.adding(days: offset).map { day in
        let found = dayFigures(day)
        return Day(date: day, rules: chosen.map { figures($0, found) })
      }
    }
    // The period before, for the change: its seconds per rule, each day's figures dropped once added.
    var before = [Int](repeating: 0, count: chosen.count)
    for offset in (1...count).reversed() {
      guard let day = from.adding(days: -offset) else { continue }
      let found = dayFigures(day)
      for (index, rule) in chosen.enumerated() { before[index] += usedSeconds(rule, found) }
    }
    self.days = days
    summaries = chosen.enumerated().map { index, rule in
      var total = 0
      var grants = 0
      var shields = 0
      var declined = 0
      var backedOut = 0
      // Per app of the rule, in its order; then per name (a name the rule gives twice adds up).
      var appTotals = [Int](repeating: 0, count: rule.apps.count)
      for day in days {
        let figures = day.rules[index]
        total += figures.usedSeconds
        grants += figures.grants
        shields += figures.shieldsShown
        declined += figures.tasksDeclined
        backedOut += figures.backedOut
        for (position, app) in figures.apps.enumerated() { appTotals[position] += app.usedSeconds }
      }
      var apps: [String: Int] = [:]
      for (app, seconds) in zip(rule.apps, appTotals) { apps[app.name, default: 0] += seconds }
      // The first app of the rule wins a tie: the order the user wrote.
      var busiest: (name: String, seconds: Int)?
      for app in rule.apps where (apps[app.name] ?? 0) > (busiest?.seconds ?? 0) {
        busiest = (app.name, apps[app.name] ?? 0)
      }
      return RuleSummary(
        name: rule.name, totalSeconds: total, averageSeconds: total / count,
        previousAverageSeconds: before[index] / count, busiestApp: busiest?.name,
        busiestAppSeconds: busiest?.seconds ?? 0, grants: grants, shieldsShown: shields, tasksDeclined: declined,
        backedOut: backedOut)
    }
  }
}
