extension Ledger {
  /// How often a task for more time was asked for the rule named `rule` on
  /// `day`: by the terminal (`shieldbridge puzzle`), the browser's shield
  /// page (the native host) or the service's notification, each task asked
  /// once, whether it was then solved or not. The task says it ("You asked
  /// for more time 3 times today", issue 25 point 2); 0 in a ledger written
  /// before the count existed.
  public func tasksAsked(for rule: String, on day: LocalDay) -> Int {
    tasksAskedByDay[day]?[rule] ?? 0
  }

  /// Counts one task asked for `rule` on `day`.
  ///
  /// - Returns: The day's count, this task included (at most ``maximumStoredGrants``).
  @discardableResult
  public mutating func recordTaskAsked(for rule: String, on day: LocalDay) -> Int {
    let count = min(tasksAsked(for: rule, on: day) + 1, Ledger.maximumStoredGrants)
    tasksAskedByDay[day, default: [:]][rule] = count
    return count
  }

  /// How often the way out was taken for the rule named `rule` on `day`:
  /// the shield's "Close Instagram" (or "Not now" for a site) instead of a
  /// task (issue 25 point 1); 0 in a ledger written before the count existed.
  public func backedOut(for rule: String, on day: LocalDay) -> Int {
    backedOutByDay[day]?[rule] ?? 0
  }

  /// Counts one way out taken for `rule` on `day`.
  ///
  /// - Returns: The day's count, this one included (at most ``maximumStoredGrants``).
  @discardableResult
  public mutating func recordBackedOut(for rule: String, on day: LocalDay) -> Int {
    let count = min(backedOut(for: rule, on: day) + 1, Ledger.maximumStoredGrants)
    backedOutByDay[day, default: [:]][rule] = count
    return count
  }
}
