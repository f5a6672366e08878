/// What the meter holds for one local day: the time used and the grants, per rule.
struct MeterDay: Hashable, Sendable {
  /// Time used per rule name, to the nanosecond.
  var used: [String: Duration] = [:]
  /// Grants per rule name.
  var grants: [String: Int] = [:]
  /// Time used per rule name and app (or site) of the rule that was in
  /// front, counted where ``used`` is, so the split never says more than the rule.
  var apps: [String: [String: Duration]] = [:]
}

/// What the meter has told about one rule on the current day, so each event comes once.
struct MeterNotices: Hashable, Sendable {
  /// The limit whose warning was given (or skipped, after a grant too small for one).
  var warnedFor: Duration?
  /// The limit whose reaching was reported.
  var reachedFor: Duration?
}
