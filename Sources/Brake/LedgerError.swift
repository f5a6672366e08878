public import Posix

/// Why a grant could not be recorded or the ledger could not be read.
public enum LedgerError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The rule already has its most grants for the day; nothing was recorded.
  case grantsUsedUp(rule: String, maximum: Int, day: LocalDay)
  /// A meter counts the rule and has not seen it reach its limit with
  /// `grantsToday` grants: the puzzle unlocks time only once today's limit
  /// is used. Nothing was recorded.
  case notAtLimit(rule: String, grantsToday: Int, day: LocalDay)
  /// The rule is in downtime until `until` (a local time, `HH:MM`): no grant
  /// before then. Nothing was recorded.
  case inDowntime(rule: String, until: String)
  /// A file operation on the state directory failed (`errno` kept).
  case io(operation: String, path: String, errno: Int32)
  /// The ledger or its lock file is a FIFO, a device or another kind of file
  /// that is not regular; it was left as it is, unread.
  case notRegularFile(path: String, kind: FileStatus.Kind)
  /// Another process held the ledger's lock for longer than the timeout.
  case lockTimeout(path: String)
  /// The ledger was written by a newer ShieldBridge; it is left untouched.
  case newerVersion(path: String, problem: String)
  /// Neither `XDG_STATE_HOME` nor `HOME` is an absolute path.
  case noStateDirectory

  /// A stable code for scripts and logs.
  public var code: String {
    switch self {
    case .grantsUsedUp: "grants-used-up"
    case .notAtLimit: "not-at-limit"
    case .inDowntime: "in-downtime"
    case .io, .notRegularFile: "state-io"
    case .lockTimeout: "state-locked"
    case .newerVersion: "state-newer-version"
    case .noStateDirectory: "state-no-directory"
    }
  }

  public var description: String {
    switch self {
    case .grantsUsedUp(let rule, let maximum, let day):
      "the rule '\(rule)' already has its \(maximum) grants for \(day)"
    case .notAtLimit(let rule, _, _):
      "\(rule) is not at its limit yet: the puzzle unlocks time only once today's limit is used"
    case .inDowntime(let rule, let until):
      "\(rule) is in downtime until \(until): no task unlocks it before then"
    case .io(let operation, let path, let code):
      "\(path): \(operation) failed: \(Errno(rawValue: code))"
    case .notRegularFile(let path, let kind):
      "\(path): it is \(kind), not a regular file; it was left as it is"
    case .lockTimeout(let path):
      "\(path): another shieldbridge process holds the ledger lock; try again"
    case .newerVersion(let path, let problem):
      "\(path): \(problem); it was left as it is"
    case .noStateDirectory:
      "cannot find the state directory: set XDG_STATE_HOME or HOME to an absolute path"
    }
  }
}

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
