import Posix

// The ledger's file operations are Posix's; this maps their errors into
// ``LedgerError`` with the operation names users have always seen.

extension LedgerError {
  init(_ error: MakeDirectoriesError) {
    let operation =
      switch error.step {
      case .create: "create directory"
      case .inspect: "stat"
      case .notDirectory: "use as directory"
      }
    self = .io(operation: operation, path: error.path, errno: error.errno.rawValue)
  }

  init(_ error: AtomicReplaceError, replacing path: String) {
    let operation =
      switch error.step {
      case .create: "create"
      case .write: "write"
      case .sync, .syncDirectory: "fsync"
      case .close: "close"
      case .rename: "rename to \(path)"
      case .openDirectory: "open"
      }
    self = .io(operation: operation, path: error.path, errno: error.errno.rawValue)
  }

  init(_ error: FileLockError, path: String) {
    switch error {
    case .open(let code): self = .io(operation: "open lock file", path: path, errno: code.rawValue)
    case .lock(let code): self = .io(operation: "lock", path: path, errno: code.rawValue)
    case .notRegularFile(let kind): self = .notRegularFile(path: path, kind: kind)
    case .timedOut: self = .lockTimeout(path: path)
    }
  }
}
