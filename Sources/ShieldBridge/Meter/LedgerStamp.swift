import Posix

/// Which ledger file is on disk, to notice cheaply (one `stat`) that another process wrote it.
///
/// Every write replaces the file by rename, so the device and inode change
/// with each one; size and modification time are compared as well, for a file
/// edited in place by hand.
struct LedgerStamp: Hashable, Sendable {
  var device: UInt64
  var inode: UInt64
  var size: Int64
  var modified: Int64

  /// The stamp of the file at `path`; `nil` when there is none (yet).
  init?(of path: String) {
    guard let status = try? FileSystem.status(path) else { return nil }
    device = status.device
    inode = status.inode
    size = status.size
    modified = status.modificationNanoseconds
  }
}
