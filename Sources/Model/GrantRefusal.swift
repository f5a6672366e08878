/// Why the ledger records no grant (``Ledger/recordGrant(for:on:)``); the
/// store says it as a ``LedgerError`` of the same name.
public enum GrantRefusal: Error, Hashable, Sendable {
  /// The rule already has `maxGrantsPerDay` grants on that day.
  case grantsUsedUp(rule: String, maximum: Int, day: LocalDay)
  /// A meter counts the rule and it is not at its limit yet.
  case notAtLimit(rule: String, grantsToday: Int, day: LocalDay)
}
