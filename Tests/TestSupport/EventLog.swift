import Synchronization

/// Everything that arrived, in order, and a way to wait for the next thing that matches.
///
/// Waiting is event-driven: a waiter is resumed by the `append` that brings
/// what it waits for, or by its timeout; nothing polls.
public final class EventLog<Event: Sendable>: Sendable {
  private struct Waiter {
    var after: Int
    var matches: @Sendable (Event) -> Bool
    var continuation: CheckedContinuation<Event?, Never>
  }

  private struct State {
    var events: [Event] = []
    var waiters: [Int: Waiter] = [:]
    var nextWaiter = 0
  }

  private let state = Mutex(State())

  public init() {}

  /// Everything so far.
  public var events: [Event] { state.withLock { $0.events } }

  /// How many events arrived so far (a position to wait after).
  public var count: Int { state.withLock { $0.events.count } }

  public func append(_ event: Event) {
    let resumed: [(CheckedContinuation<Event?, Never>, Event)] = state.withLock { state in
      state.events.append(event)
      let index = state.events.count - 1
      var resumed: [(CheckedContinuation<Event?, Never>, Event)] = []
      for (id, waiter) in state.waiters where index >= waiter.after && waiter.matches(event) {
        resumed.append((waiter.continuation, event))
        state.waiters[id] = nil
      }
      return resumed
    }
    for (continuation, event) in resumed { continuation.resume(returning: event) }
  }

  /// Forwards every element of `sequence` into the log, until it ends.
  public func collect<S: AsyncSequence & Sendable>(_ sequence: S) -> Task<Void, Never> where S.Element == Event {
    Task {
      do {
        for try await event in sequence { self.append(event) }
      } catch {}
    }
  }

  /// The first event at position `after` or later that matches, waiting at most `timeout`.
  ///
  /// - Throws: ``PollTimedOut`` naming `what` when none arrived in time.
  public func first(
    _ what: String, after: Int = 0, timeout: Duration = HangBound.wait,
    where matches: @escaping @Sendable (Event) -> Bool = { _ in true }
  ) async throws -> Event {
    let id = state.withLock { state in
      defer { state.nextWaiter += 1 }
      return state.nextWaiter
    }
    let found: Event? = await withCheckedContinuation { continuation in
      let existing: Event? = state.withLock { state in
        if let event = state.events.dropFirst(after).first(where: matches) { return event }
        state.waiters[id] = Waiter(after: after, matches: matches, continuation: continuation)
        return nil
      }
      if let existing {
        continuation.resume(returning: existing)
        return
      }
      Task {
        try? await Task.sleep(for: timeout)
        let expired = self.state.withLock { $0.waiters.removeValue(forKey: id) }
        expired?.continuation.resume(returning: nil)
      }
    }
    guard let found else { throw PollTimedOut(what: what) }
    return found
  }
}
