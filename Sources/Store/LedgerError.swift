public import Model
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

extension LedgerError {
  /// The ledger's refusal as the store's error.
  public init(_ refusal: GrantRefusal) {
    switch refusal {
    case .grantsUsedUp(let rule, let maximum, let day): self = .grantsUsedUp(rule: rule, maximum: maximum, day: day)
    case .notAtLimit(let rule, let grantsToday, let day):
      self = .notAtLimit(rule: rule, grantsToday: grantsToday, day: day)
    }
  }
}
