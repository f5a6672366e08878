/// What the meter decided.
public enum MeterEvent: Hashable, Sendable {
  /// `remaining` of the rule's limit is left (`warnMinutes` before it).
  case warning(rule: String, remaining: Duration)
  /// The rule's apps reached today's limit.
  case limitReached(rule: String)
  /// A grant (or a new day) lifted the rule's limit.
  case lifted(rule: String)
  /// A new local day began; every rule starts from its base limit.
  case newDay(LocalDay)
  /// A day the meter already held began (the ledger had it: the clock was
  /// set back across a restart); its use and grants go on where they were.
  case dayResumed(LocalDay)
}
