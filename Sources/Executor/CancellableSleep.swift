import Synchronization

/// A sleep that a cancellation takes away, timer and all.
///
/// `Task.sleep` cancelled early resumes its caller at once, but its delayed
/// job stays in the executor's heap and wakes the process at the first
/// deadline for nothing: an idle `serve` woke 25 s after its start for a wait
/// for the notification server answered at once (docs/developing/benchmarks.md,
/// "Idle `serve`"). For timeouts that are mostly not needed, this one is
/// removed from the pool's timers (``ThreadPoolExecutor``) when the task is
/// cancelled. Where the pool is not the default executor (the tests), it is `Task.sleep`.
public enum CancellableSleep {
  /// Sleeps for `duration`, on the monotonic clock.
  ///
  /// - Throws: `CancellationError` when the task is cancelled first (at once when it already is).
  public static func sleep(for duration: Duration) async throws(CancellationError) {
    guard let pool = ThreadPoolExecutorFactory.installed.withLock({ $0 }) else {
      do { try await Task.sleep(for: duration) } catch { throw CancellationError() }
      return
    }
    try await sleep(for: duration, on: pool)
  }

  /// Sleeps for `duration` on the timers of `pool`, as ``sleep(for:)`` does where it is the default executor.
  @_spi(Executors)
  public static func sleep(for duration: Duration, on pool: ThreadPoolExecutor) async throws(CancellationError) {
    let wait = Wait()
    let fired = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        wait.start(continuation, on: pool, after: duration)
      }
    } onCancel: {
      wait.finish(fired: false, pool: pool)
    }
    if !fired { throw CancellationError() }
  }

  /// One sleep: its caller, resumed once, by the timer or by the cancellation.
  private final class Wait: Sendable {
    private struct State {
      var continuation: CheckedContinuation<Bool, Never>?
      var timer: UInt64?
      var cancelled = false
    }

    private let state = Mutex(State())

    func start(_ continuation: CheckedContinuation<Bool, Never>, on pool: ThreadPoolExecutor, after duration: Duration)
    {
      let cancelled = state.withLock { state in
        if !state.cancelled { state.continuation = continuation }
        return state.cancelled
      }
      if cancelled {
        continuation.resume(returning: false)
        return
      }
      let timer = pool.startTimer(after: duration) { [self] in finish(fired: true, pool: pool) }
      // A cancellation between the two found no timer to take away: it is taken here.
      let late = state.withLock { state in
        if state.cancelled { return true }
        state.timer = timer
        return false
      }
      if late { pool.cancelTimer(timer) }
    }

    /// Resumes the caller once: `fired` when the time came, else cancelled, and takes the timer away.
    func finish(fired: Bool, pool: ThreadPoolExecutor) {
      let (continuation, timer) = state.withLock { state in
        if !fired { state.cancelled = true }
        defer {
          state.continuation = nil
          state.timer = nil
        }
        return (state.continuation, state.timer)
      }
      if !fired, let timer { pool.cancelTimer(timer) }
      continuation?.resume(returning: fired)
    }
  }
}
