import Executor
import Synchronization

/// Runs `body` and stops waiting for it after `timeout`.
///
/// For work that has no timeout of its own (connecting, subscribing): the
/// caller gets `failure` when time is up, while `body` is cancelled and
/// left to end by itself. Either way the caller never waits longer than `timeout`.
func withDeadline<T: Sendable>(
  _ timeout: Duration, failure: NotificationError,
  _ body: @escaping @Sendable () async throws(NotificationError) -> T
) async throws(NotificationError) -> T {
  let race = Race<T>()
  let result: Result<T, NotificationError> = await withCheckedContinuation { continuation in
    race.start(continuation)
    let work = Task {
      let outcome: Result<T, NotificationError>
      do throws(NotificationError) {
        outcome = .success(try await body())
      } catch {
        outcome = .failure(error)
      }
      race.finish(outcome)
    }
    let timer = Task {
      // Taken away with the answer: a call answered in time leaves no wake-up behind.
      guard (try? await CancellableSleep.sleep(for: timeout)) != nil else { return }
      if race.finish(.failure(failure)) { work.cancel() }
    }
    race.onFinish { timer.cancel() }
  }
  return try result.get()
}

/// The first of two outcomes wins and resumes the waiting caller once.
private final class Race<T: Sendable>: Sendable {
  private struct State {
    var continuation: CheckedContinuation<Result<T, NotificationError>, Never>?
    var finished = false
    var cleanup: (@Sendable () -> Void)?
  }

  private let state = Mutex(State())

  func start(_ continuation: CheckedContinuation<Result<T, NotificationError>, Never>) {
    state.withLock { $0.continuation = continuation }
  }

  /// Runs `cleanup` once the race is decided (at once if it already is).
  func onFinish(_ cleanup: @escaping @Sendable () -> Void) {
    let runNow = state.withLock { state in
      if state.finished { return true }
      state.cleanup = cleanup
      return false
    }
    if runNow { cleanup() }
  }

  /// Delivers `outcome` if nothing was delivered yet; returns whether it was.
  @discardableResult
  func finish(_ outcome: Result<T, NotificationError>) -> Bool {
    let (continuation, cleanup): (CheckedContinuation<Result<T, NotificationError>, Never>?, (@Sendable () -> Void)?) =
      state.withLock { state in
        guard !state.finished else { return (nil, nil) }
        state.finished = true
        defer {
          state.continuation = nil
          state.cleanup = nil
        }
        return (state.continuation, state.cleanup)
      }
    guard let continuation else { return false }
    continuation.resume(returning: outcome)
    cleanup?()
    return true
  }
}
