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
    /// The limit in force that day (see ``HistoryReport/init(history:ledger:rules:from:to:rule:)``);
    /// 0 on a day before the first record (``Day/isRecorded``), when there was none.
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
    /// Whether the day is on or after the first day ShieldBridge recorded anything
    /// (``Table/firstRecorded``); a day before it is no day of use and has no limit.
    public var isRecorded: Bool
    public var rules: [RuleDay]
  }

  /// One rule over the whole range.
  public struct RuleSummary: Hashable, Sendable {
    public var name: String
    public var totalSeconds: Int
    /// The days of the range on record: on or after the first recorded day.
    public var recordedDays: Int
    /// ``totalSeconds`` over the ``recordedDays``, rounded down; 0 without one.
    public var averageSeconds: Int
    /// The days on record of the period of the same length just before the range.
    public var previousRecordedDays: Int
    /// The same as ``averageSeconds`` over the period before; `nil` when it has no day on record.
    public var previousAverageSeconds: Int?
    /// ``averageSeconds`` less ``previousAverageSeconds``: below zero, less than before; `nil`
    /// when either period has no day on record, so that there is nothing to compare.
    public var changeSeconds: Int? {
      guard recordedDays > 0, let previousAverageSeconds else { return nil }
      return averageSeconds - previousAverageSeconds
    }
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

  /// The first day ShieldBridge recorded anything (``Table/firstRecorded``).
  public var firstRecorded: LocalDay?

  /// All rules together: the total of every day in the range.
  public var totalSeconds: Int { summaries.reduce(0) { $0 + $1.totalSeconds } }
  /// The days of the range on record.
  public var recordedDays: Int { days.count(where: \.isRecorded) }
  /// All rules together, per recorded day (0 without one).
  public var averageSeconds: Int { recordedDays == 0 ? 0 : totalSeconds / recordedDays }
  /// All rules together, per recorded day of the period before; `nil` when it has none.
  public var previousAverageSeconds: Int? {
    guard summaries.allSatisfy({ $0.previousAverageSeconds != nil }), !summaries.isEmpty else { return nil }
    return summaries.reduce(0) { $0 + ($1.previousAverageSeconds ?? 0) }
  }
  /// All rules together: ``averageSeconds`` less ``previousAverageSeconds``; `nil` when there is nothing to compare.
  public var changeSeconds: Int? {
    guard recordedDays > 0, let previousAverageSeconds else { return nil }
    return averageSeconds - previousAverageSeconds
  }

  /// The most days a report covers: the most a history keeps.
  public static let maximumDays = History.keptDaysRange.upperBound

  /// The report of `rules` (or of the one named `rule`) from `from` to `to`, both included.
  ///
  /// A day's figures are the history's, and where the ledger holds more
  /// (today's use since the service's last save, days before the history
  /// existed, the tasks asked and the ways out counted since) the ledger's;
  /// days before the history's forgotten date count nothing. A day's limit
  /// is the one the meter had in force; for a day it did not record, the one
  /// today's configuration gives with that day's grants (minutes of 60 s); a
  /// day before the first record has none. Averages are over the days on
  /// record.
  public init(history: History, ledger: Ledger, rules: RuleSet, from: LocalDay, to: LocalDay, rule: String? = nil) {
    self.init(Table(history: history, ledger: ledger, rules: rules, from: from, to: to, rule: rule))
  }

  /// The report whose figures `table` holds.
  public init(_ table: Table) {
    from = table.from
    to = table.to
    summaries = table.summaries
    firstRecorded = table.firstRecorded
    days = table.dates.indices.map { index in
      Day(
        date: table.dates[index], isRecorded: table.isRecorded(table.dates[index]),
        rules: table.names.indices.map { rule in
          let figures = table.figures(day: index, rule: rule)
          return RuleDay(
            name: table.names[rule], usedSeconds: figures.usedSeconds, limitSeconds: figures.limitSeconds,
            grants: figures.grants,
            apps: table.appNames[rule].indices.map {
              AppSeconds(name: table.appNames[rule][$0], usedSeconds: table.appSeconds(day: index, rule: rule, app: $0))
            },
            shieldsShown: figures.shieldsShown, tasksAsked: figures.tasksAsked, tasksSolved: figures.tasksSolved,
            backedOut: figures.backedOut)
        })
    }
  }
}
