public import Posix

/// Why a grant could not be recorded or the ledger could not be read.
public enum LedgerError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The rule already has its most grants for the day; nothing was recorded.
  case grantsUsedUp(rule: String, maximum: Int, day: LocalDay)
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

  /// A stable code for scripts and logs.
  public var code: String {
    switch self {
    case .corruptLedgerMovedAside: "ledger-corrupt"
    }
  }

  public var description: String {
    switch self {
    case .corruptLedgerMovedAside(let path, let keptAt, let problem):
      "\(path) could not be read (\(problem)); it was kept as \(keptAt) and a new ledger was started"
    }
  }
}
