import Model
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

/// What reading one of the state files (the ledger, the history) found.
enum StoredBytes {
  case missing
  case bytes([UInt8])
  /// Present, but not to be read as it is (larger than its limit, or changed while read).
  case damaged(String)

  /// Reads `path`, at most `limit` bytes. A failure of the system is thrown as the store's
  /// error; a directory in the file's place as `directory` when given (what the ledger has
  /// always said), else, like a FIFO or a device, as what it is, unread.
  static func read(_ path: String, limit: Int, directory: LedgerError? = nil) throws(LedgerError) -> StoredBytes {
    do {
      guard let bytes = try FileSystem.readFileIfPresent(path, limit: limit) else { return .missing }
      return .bytes(bytes)
    } catch {
      switch error {
      case .tooLarge: return .damaged("it is larger than \(limit) bytes")
      case .changed: return .damaged(error.description)
      case .system(let code): throw .io(operation: "open", path: path, errno: code.rawValue)
      case .notRegularFile(let kind):
        if case .directory = kind, let directory { throw directory }
        throw .notRegularFile(path: path, kind: kind)
      }
    }
  }
}
