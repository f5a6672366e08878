#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// An exclusive `flock` on a lock file, held while a closure runs.
///
/// The lock lives on a file of its own, never on the ledger, because the
/// ledger is replaced by rename and a lock on the old file would guard nothing.
/// `flock` locks belong to the open file, so two stores in one process
/// exclude each other just as two processes do, and the kernel releases the
/// lock when a holder dies.
enum FileLock {
  /// Runs `body` while holding the lock on `path` (creating the file), after
  /// waiting for it at most `timeout`.
  ///
  /// - Throws: ``LedgerError/lockTimeout(path:)`` when the lock stayed taken,
  ///   ``LedgerError/io(operation:path:errno:)`` when the file cannot be
  ///   opened, or what `body` throws.
  static func withLock<Result>(
    path: String, timeout: Duration, _ body: () throws(LedgerError) -> Result
  ) throws(LedgerError) -> Result {
    let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw .io(operation: "open lock file", path: path, errno: errno) }
    // Closing the descriptor releases the lock.
    defer { close(descriptor) }
    let deadline = ContinuousClock.now + timeout
    var pause = 1_000_000
    while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
      let code = errno
      guard code == EWOULDBLOCK || code == EINTR else {
        throw .io(operation: "lock", path: path, errno: code)
      }
      guard ContinuousClock.now < deadline else { throw .lockTimeout(path: path) }
      // flock has no timeout of its own; poll with a short, growing pause.
      var interval = timespec(tv_sec: 0, tv_nsec: pause)
      nanosleep(&interval, nil)
      pause = min(pause * 2, 20_000_000)
    }
    return try body()
  }
}
