public import Model

/// What the history keeps of a save of the meter: per day and rule, the
/// seconds and their split by app, the limit in force, grants, shields and tasks.
public enum HistoryFigures {
  /// Records into `history` the figures of `save` and of `ledger`, the
  /// ledger as it stands after the save: every day it holds (so a ledger of
  /// an earlier version is taken in without loss) and `today`, for every
  /// configured rule. Today's entry of each rule is written with its limit
  /// even without use; other days only with something to say.
  public static func record(
    _ save: ShieldEffect.Save, ledger: Ledger, rules: RuleSet, today: LocalDay, into history: inout History
  ) {
    guard !rules.isBuiltIn else { return }
    let days = self.days(of: save, ledger: ledger, today: today)
    var seen: Set<String> = []
    let unique = rules.rules.filter { seen.insert($0.name).inserted }
    for day in days {
      for rule in unique {
        let tasks = taskFigures(of: rule, on: day, ledger: ledger)
        let entry = HistoryEntry(
          usedSeconds: ledger.usedSeconds(for: rule.name, on: day),
          apps: save.appSecondsByDay[day]?[rule.name] ?? [:],
          limitSeconds: day == today ? save.limitSecondsToday[rule.name] : nil,
          grants: rule.countedGrants(ledger.grants(for: rule.name, on: day)),
          shieldsShown: save.shieldsShownByDay[day]?[rule.name] ?? 0,
          tasksAsked: tasks.asked, tasksSolved: tasks.solved, backedOut: tasks.backedOut)
        let isEmpty = entry == HistoryEntry() && history.entry(for: rule.name, on: day) == nil
        if day == today || !isEmpty { history.record(entry, for: rule.name, on: day) }
      }
    }
  }

  /// The days ``record(_:ledger:rules:today:into:)`` writes: today, and the
  /// days the ledger and the save hold figures of; no other day is read or changed.
  public static func days(of save: ShieldEffect.Save, ledger: Ledger, today: LocalDay) -> Set<LocalDay> {
    days(of: ledger, today: today).union(save.appSecondsByDay.keys)
  }

  /// Today and the days `ledger` holds figures of.
  public static func days(of ledger: Ledger, today: LocalDay) -> Set<LocalDay> {
    var days = Set(ledger.usedSecondsByDay.keys).union(ledger.days.keys)
      .union(ledger.tasksAskedByDay.keys).union(ledger.backedOutByDay.keys)
    days.insert(today)
    return days
  }

  /// The tasks asked and solved for `rule` on `day`, and the times the user
  /// backed out at its shield: the one place these are filled, from the
  /// ledger's counters. A solved task is a grant; a ledger written before
  /// tasks were counted asked at least as many as were solved.
  public static func taskFigures(
    of rule: Rule, on day: LocalDay, ledger: Ledger
  ) -> (asked: Int, solved: Int, backedOut: Int) {
    let solved = rule.countedGrants(ledger.grants(for: rule.name, on: day))
    return (
      asked: max(solved, ledger.tasksAsked(for: rule.name, on: day)), solved: solved,
      backedOut: ledger.backedOut(for: rule.name, on: day)
    )
  }
}
