import Posix
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The right to call into libdbus for one connection: whoever holds it may
/// read, write, dispatch and see the watch and timeout tables.
///
/// libdbus 1.14 calls the watch and timeout callbacks with its own connection
/// lock held, and frees a watch right after removing it; with a single holder
/// at a time, a watch in our table is always alive while we use it and no
/// callback ever waits for another of our locks. The holder is usually the
/// loop thread, but a thread that sends while the loop sleeps, or a blocking
/// call, takes it directly and saves a thread hand-off.
final class DriverLock: @unchecked Sendable {
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let holder = Atomic<UInt>(0)

  init() {
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// Whether the calling thread holds the lock.
  var isHeldByCurrentThread: Bool { holder.load(ordering: .relaxed) == UInt(pthread_self()) }

  func lock() {
    pthread_mutex_lock(mutex)
    holder.store(UInt(pthread_self()), ordering: .relaxed)
  }

  func tryLock() -> Bool {
    guard pthread_mutex_trylock(mutex) == 0 else { return false }
    holder.store(UInt(pthread_self()), ordering: .relaxed)
    return true
  }

  func unlock() {
    holder.store(0, ordering: .relaxed)
    pthread_mutex_unlock(mutex)
  }
}

/// Nanoseconds on the monotonic clock.
func monotonicNanoseconds() -> UInt64 {
  MonotonicTime.now.nanoseconds
}

extension Duration {
  /// The duration in whole nanoseconds, clamped to `0...UInt64.max`.
  var clampedNanoseconds: UInt64 {
    let (seconds, attoseconds) = components
    guard seconds >= 0 else { return 0 }
    let (product, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
    return overflow ? .max : product &+ UInt64(attoseconds / 1_000_000_000)
  }
}
