extension Ledger {
  /// How often more time was asked for the rule named `rule` on `day`: by
  /// the terminal (`shieldbridge puzzle`), the browser's shield page (the
  /// native host) or the service's notification, once per shield, whether
  /// the task was then solved or not (``recordTaskAsked(for:on:)``). The task
  /// says it ("You asked for more time 3 times today", issue 25 point 2); 0
  /// in a ledger written before the count existed.
  public func tasksAsked(for rule: String, on day: LocalDay) -> Int {
    tasksAskedByDay[day]?[rule] ?? 0
  }

  /// Counts one request for more time for `rule` on `day`, once per shield.
  ///
  /// A shield is the rule at one limit: from the limit until a grant raises
  /// it (the next limit is the next shield) or the day ends. Whatever shows it
  /// and however often (the notification offered again, the shield page in a
  /// second tab or reloaded, the terminal closed and opened again, a link
  /// with a new `id`), its tasks are one request: the first task asked at the
  /// rule's grant count is counted, and the others at the same count are the
  /// same request. So the count is the number of limits at which more time
  /// was asked, which no number of links, pages or processes inflates.
  ///
  /// - Returns: The day's count, this request included (at most ``maximumStoredGrants``).
  @discardableResult
  public mutating func recordTaskAsked(for rule: String, on day: LocalDay) -> Int {
    let shield = grants(for: rule, on: day)
    let counted = tasksAsked(for: rule, on: day)
    if counted > 0, tasksAskedAtByDay[day]?[rule] == shield { return counted }
    let count = min(counted + 1, Ledger.maximumStoredGrants)
    tasksAskedByDay[day, default: [:]][rule] = count
    tasksAskedAtByDay[day, default: [:]][rule] = shield
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
