import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The monotonic reading, in nanoseconds, of the last `SIGCONT` handled; 0 before any.
private let lastContinued = Atomic<UInt64>(0)

/// Whether the process was stopped and continued (`kill -STOP`, then
/// `kill -CONT`): the one sign that tells a stopped process from one that
/// was only slow to run on a busy machine, since both see a timer fire late.
///
/// The handler only reads the monotonic clock and stores it (both
/// async-signal-safe). The kernel may run it on any thread, after another
/// thread has resumed and already looks at the time: ``continued(since:)``
/// therefore also counts a `SIGCONT` still pending.
public enum ContinueSignal {
  /// Installs the handler. Safe to call again; the first call before any signal can matter.
  public static func watch() {
    // Made before the handler can run, which must not be the first to touch the global.
    _ = lastContinued.load(ordering: .relaxed)
    _ = signal(SIGCONT) { _ in
      var now = timespec()
      clock_gettime(CLOCK_MONOTONIC, &now)
      lastContinued.store(UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec), ordering: .releasing)
    }
  }

  /// Whether a `SIGCONT` came at or after `instant`, handled or still pending.
  public static func continued(since instant: MonotonicTime) -> Bool {
    func handled() -> Bool {
      let last = lastContinued.load(ordering: .acquiring)
      return last != 0 && last >= instant.nanoseconds
    }
    if handled() { return true }
    var pending = sigset_t()
    if sigpending(&pending) == 0, sigismember(&pending, SIGCONT) == 1 { return true }
    // Handled between the two looks.
    return handled()
  }
}
