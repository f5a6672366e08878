public import JSON

extension Ledger {
  /// The ledger with the day of each rule in force carried over from the
  /// rules whose day it takes over (``RuleChange/takeOver``), on `day`.
  ///
  /// Per rule and count (seconds used, grants, tasks asked, ways out), the
  /// larger of its own and the sum of the rules it takes over: a rename
  /// keeps the count, a split gives each part the whole count of the rule it
  /// came from, a merge sums. A rule that takes over a rule of its own name
  /// adds to its count; one of a new name keeps a count of its own that is
  /// larger (a name used earlier today), which is the tighter. Apply it once
  /// per change, to the counts from before it: the service writes the rules
  /// in force beside the counts, so that a restart finds the change made.
  public func takingOver(_ takeOver: [String: [String]], on day: LocalDay) -> Ledger {
    guard !takeOver.isEmpty else { return self }
    var ledger = self
    func carried(_ counts: [String: Int], limit: Int) -> [String: Int] {
      var result = counts
      for (rule, names) in takeOver {
        let sum = names.reduce(0) { $0 + (counts[$1] ?? 0) }
        let kept = min(limit, max(counts[rule] ?? 0, sum))
        if kept > 0 { result[rule] = kept }
      }
      return result
    }
    let grants = carried(days[day] ?? [:], limit: Ledger.maximumStoredGrants)
    if !grants.isEmpty || days[day] != nil { ledger.days[day] = grants }
    let used = carried(usedSecondsByDay[day] ?? [:], limit: Ledger.maximumUsedSeconds)
    ledger.usedSecondsByDay[day] = used.isEmpty ? nil : used
    let asked = carried(tasksAskedByDay[day] ?? [:], limit: Ledger.maximumStoredGrants)
    ledger.tasksAskedByDay[day] = asked.isEmpty ? nil : asked
    // The shield its last request was for: the latest of the rules it takes over, so that asking
    // again at that same shield under the new name is no new request.
    var askedAt = tasksAskedAtByDay[day] ?? [:]
    for (rule, names) in takeOver {
      let latest = ([rule] + names).compactMap { tasksAskedAtByDay[day]?[$0] }.max()
      if let latest { askedAt[rule] = latest }
    }
    ledger.tasksAskedAtByDay[day] = askedAt.isEmpty ? nil : askedAt
    let backedOut = carried(backedOutByDay[day] ?? [:], limit: Ledger.maximumStoredGrants)
    ledger.backedOutByDay[day] = backedOut.isEmpty ? nil : backedOut
    return ledger
  }

  /// The rules in force on `day` as the service wrote them (`config.json`'s
  /// form, which the ledger does not read), or `nil` when it wrote none for that day.
  public func rulesInForce(on day: LocalDay) -> JSONValue? {
    rulesInForceByDay[day]
  }

  /// Keeps `rules` (the rules in force in `config.json`'s form) as the rules in force on `day`.
  ///
  /// Written with the counts in one write, so that the rules and the counts
  /// they were carried to never disagree; `nil` takes them out (the built-in rule).
  public mutating func setRulesInForce(_ rules: JSONValue?, on day: LocalDay) {
    rulesInForceByDay[day] = rules
  }
}
