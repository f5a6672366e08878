/// Something the caller should tell the user, though the operation went on.
public enum LedgerWarning: Hashable, Sendable, CustomStringConvertible {
  /// The ledger could not be read; it was renamed to `keptAt` and a new, empty one started.
  case corruptLedgerMovedAside(path: String, keptAt: String, problem: String)
  /// The seconds used by `rule` on `day` were stored as `found` (JSON text),
  /// which no day can hold (below zero, above 25 hours, not a number); they
  /// were read as `kept`. The next save writes `kept`.
  case usageOutOfRange(day: LocalDay, rule: String, found: String, kept: Int)
  /// The ledger holds seconds used on `days`, after `today`: the clock was
  /// set back. That use stays stored but does not count today.
  case usageOnLaterDays(days: [LocalDay], today: LocalDay)
  /// The ledger holds `found` grants for `rule` on `day`, more than its
  /// `maxGrantsPerDay` (`maximum`): an edit by hand, or a rule that allowed
  /// more. Only `maximum` count; the file is left as it is.
  case grantsAboveMaximum(day: LocalDay, rule: String, found: Int, maximum: Int)

  /// A stable code for scripts and logs.
  public var code: String {
    switch self {
    case .corruptLedgerMovedAside: "ledger-corrupt"
    case .usageOutOfRange: "ledger-usage-out-of-range"
    case .usageOnLaterDays: "ledger-usage-later-days"
    case .grantsAboveMaximum: "ledger-grants-above-maximum"
    }
  }

  public var description: String {
    switch self {
    case .corruptLedgerMovedAside(let path, let keptAt, let problem):
      "\(path) could not be read (\(problem)); it was kept as \(keptAt) and a new ledger was started"
    case .usageOutOfRange(let day, let rule, let found, let kept):
      "the ledger's seconds used by the rule '\(rule)' on \(day) were \(found), which no day holds; "
        + "they count as \(kept)"
    case .usageOnLaterDays(let days, let today):
      "the ledger holds use on \(days.map(\.description).joined(separator: ", ")), after today (\(today)): "
        + "the clock was set back; that use is kept but does not count today"
    case .grantsAboveMaximum(let day, let rule, let found, let maximum):
      "the ledger holds \(found) grants for the rule '\(rule)' on \(day), more than its maxGrantsPerDay "
        + "of \(maximum); \(maximum) count"
    }
  }
}
