#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Why a ``FileLock`` was not taken.
public enum FileLockError: Error, Hashable, Sendable {
  /// The lock file could not be opened or created.
  case open(Errno)
  /// The lock file is not a regular file (a FIFO, a device); nothing was locked.
  case notRegularFile(FileStatus.Kind)
  /// `flock` failed for another reason than the lock being taken.
  case lock(Errno)
  /// Another holder kept the lock for the whole timeout.
  case timedOut
}

/// An exclusive `flock` on a lock file, held until ``unlock()`` or until the value goes away.
///
/// The lock lives on a file of its own, never on the file it guards, because
/// that file is replaced by rename and a lock on the old one would guard
/// nothing. `flock` locks belong to the open file, so two holders in one
/// process exclude each other just as two processes do, and the kernel
/// releases the lock when a holder dies.
public struct FileLock: ~Copyable {
  private let descriptor: FileDescriptor

  /// Opens (or creates, mode 0600) `path` and takes the lock, waiting at most `timeout`.
  ///
  /// `flock` has no timeout of its own: the lock is tried without blocking and
  /// tried again after a short pause that grows from 1 ms to 20 ms.
  ///
  /// - Throws: ``FileLockError/timedOut`` when the lock stayed taken, or
  ///   another ``FileLockError``.
  public init(path: String, timeout: Duration) throws(FileLockError) {
    let descriptor = try FileLock.open(path)
    let deadline = ContinuousClock.now + timeout
    var pause = Duration.milliseconds(1)
    while true {
      do {
        try nothingOrErrno { flock(descriptor.rawValue, LOCK_EX | LOCK_NB) }
        break
      } catch  where error == .wouldBlock {
        guard ContinuousClock.now < deadline else { throw .timedOut }
        sleepThread(min(pause, deadline - ContinuousClock.now))
        pause = min(pause * 2, .milliseconds(20))
      } catch {
        throw .lock(error)
      }
    }
    self.descriptor = descriptor
  }

  /// Opens the lock file without blocking and refuses anything but a regular file.
  ///
  /// A FIFO in its place must not stop `open` until another process opens its
  /// other end (POSIX leaves a FIFO opened for reading and writing undefined),
  /// and locking a FIFO or a device would guard nothing that other holders see
  /// the same way. A directory fails at `open` already (`EISDIR`).
  private static func open(_ path: String) throws(FileLockError) -> FileDescriptor {
    let descriptor: FileDescriptor
    do {
      descriptor = try FileDescriptor.open(path, [.readWrite, .create, .nonBlocking], permissions: 0o600)
    } catch {
      throw .open(error)
    }
    let kind: FileStatus.Kind
    do { kind = try descriptor.status().kind } catch { throw .open(error) }
    guard kind == .regular else { throw .notRegularFile(kind) }
    return descriptor
  }

  /// Gives the lock up now (closing its descriptor releases it).
  public consuming func unlock() {}

  /// Runs `body` while holding the lock on `path`, taken within `timeout`.
  ///
  /// - Throws: What `body` throws, or the lock's failure mapped by `lockFailure`.
  public static func withLock<Result, Failure: Error>(
    path: String, timeout: Duration, lockFailure: (FileLockError) -> Failure,
    _ body: () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    let lock = try take(path: path, timeout: timeout, lockFailure: lockFailure)
    // The lock is given up on both paths, after `body`, so that it is held for all of it.
    do {
      let result = try body()
      lock.unlock()
      return result
    } catch {
      lock.unlock()
      throw error
    }
  }

  private static func take<Failure: Error>(
    path: String, timeout: Duration, lockFailure: (FileLockError) -> Failure
  ) throws(Failure) -> FileLock {
    do { return try FileLock(path: path, timeout: timeout) } catch { throw lockFailure(error) }
  }
}
