import Synchronization

/// What lets the service stop without leaving work half done: once closed it
/// admits no new work, and whoever closed it can wait, bounded, for the work
/// already admitted.
///
/// The service admits every post to the notification server through it, so
/// that stopping can first refuse new posts, then wait for the answers to the
/// ones in flight (each answer is an id to close), then close them all. A
/// `Mutex` rather than actor state, so that a waiter can also be resumed by
/// its own timeout.
final class StopGate: Sendable {
  private struct State {
    var isClosed = false
    var inside = 0
    var waiters: [Int: CheckedContinuation<Bool, Never>] = [:]
    var nextWaiter = 0
  }

  private let state = Mutex(State())

  /// Whether ``close()`` was called.
  var isClosed: Bool { state.withLock { $0.isClosed } }

  /// Admits one piece of work, to be ended with ``leave()``; `false` once the gate is closed.
  func enter() -> Bool {
    state.withLock { state in
      guard !state.isClosed else { return false }
      state.inside += 1
      return true
    }
  }

  /// Ends a piece of work that ``enter()`` admitted.
  func leave() {
    let resumed: [CheckedContinuation<Bool, Never>] = state.withLock { state in
      state.inside -= 1
      guard state.inside == 0 else { return [] }
      defer { state.waiters = [:] }
      return Array(state.waiters.values)
    }
    for waiter in resumed { waiter.resume(returning: true) }
  }

  /// Admits nothing from now on.
  func close() {
    state.withLock { $0.isClosed = true }
  }

  /// Waits until no admitted work is left, for at most `limit`.
  ///
  /// - Returns: `false` when some was still inside after `limit`.
  func drained(within limit: Duration) async -> Bool {
    let id: Int? = state.withLock { state in
      guard state.inside > 0 else { return nil }
      defer { state.nextWaiter += 1 }
      return state.nextWaiter
    }
    guard let id else { return true }
    return await withCheckedContinuation { continuation in
      let isEmpty = state.withLock { state in
        guard state.inside > 0 else { return true }
        state.waiters[id] = continuation
        return false
      }
      if isEmpty {
        continuation.resume(returning: true)
        return
      }
      Task {
        try? await Task.sleep(for: limit)
        let expired = self.state.withLock { $0.waiters.removeValue(forKey: id) }
        expired?.resume(returning: false)
      }
    }
  }
}
