import Synchronization

/// Keeps one click from becoming several actions.
///
/// Two things go wrong on a desktop: a server (or a double click) sends the
/// same `ActionInvoked` twice, and a user taps several notifications with
/// the same identifier before the first puzzle has opened. The first is
/// caught by ``admitInvocation(notification:actionKey:)``, which drops a repeat
/// of the same notification id and action key inside ``window``; the second by
/// ``beginActivation(of:)``, which refuses an identifier whose activation is
/// still in flight until ``endActivation(of:)``.
///
/// It is safe to use from any thread (the D-Bus dispatch thread and Swift
/// tasks alike). The clock is injectable so that tests control time.
public final class ActionDeduplicator<C: Clock>: Sendable
where C.Duration == Duration, C: Sendable {
  /// How long a repeat of the same notification id and action key is dropped.
  public let window: Duration
  private let clock: C
  private let state = Mutex(State())

  private struct State: ~Copyable {
    var inFlight: Set<String> = []
    var recent: [Invocation: C.Instant] = [:]
    /// `recent` is pruned when it reaches this size; twice what a prune kept, so
    /// that a flood of clicks inside one window costs amortized constant time.
    var pruneAt = 64
  }

  private struct Invocation: Hashable {
    var notification: UInt32
    var actionKey: String
  }

  /// A deduplicator that measures ``window`` on `clock`.
  public init(window: Duration = .seconds(1), clock: C) {
    self.window = window
    self.clock = clock
  }

  /// Whether an `ActionInvoked` for `notification` and `actionKey` should be
  /// acted on; `false` for a repeat inside ``window`` of the first one.
  ///
  /// The window starts at the first admitted invocation, so a steady stream
  /// of repeats is let through once per window, not held back for ever.
  public func admitInvocation(notification: UInt32, actionKey: String) -> Bool {
    let now = clock.now
    let window = window
    return state.withLock { state in
      let invocation = Invocation(notification: notification, actionKey: actionKey)
      if let last = state.recent[invocation], last.duration(to: now) < window {
        return false
      }
      if state.recent.count >= state.pruneAt {
        state.recent = state.recent.filter { $0.value.duration(to: now) < window }
        state.pruneAt = max(64, 2 * state.recent.count)
      }
      state.recent[invocation] = now
      return true
    }
  }

  /// Starts the activation of `identifier`; `false` when one is in flight,
  /// and this activation should be coalesced into it.
  public func beginActivation(of identifier: String) -> Bool {
    state.withLock { $0.inFlight.insert(identifier).inserted }
  }

  /// Ends the activation of `identifier`, so that the next one may start.
  public func endActivation(of identifier: String) {
    _ = state.withLock { $0.inFlight.remove(identifier) }
  }

  /// Whether an activation of `identifier` is in flight.
  public func isActive(_ identifier: String) -> Bool {
    state.withLock { $0.inFlight.contains(identifier) }
  }

  /// Runs `body` as the activation of `identifier`, unless one is in flight.
  ///
  /// - Returns: What `body` returned, or `nil` when the activation was
  ///   coalesced into the one in flight and `body` did not run.
  nonisolated(nonsending) public func coalescing<Result, Failure: Error>(
    _ identifier: String, _ body: () async throws(Failure) -> Result
  ) async throws(Failure) -> Result? {
    guard beginActivation(of: identifier) else { return nil }
    defer { endActivation(of: identifier) }
    return try await body()
  }
}

extension ActionDeduplicator where C == ContinuousClock {
  /// A deduplicator on the continuous clock.
  public convenience init(window: Duration = .seconds(1)) {
    self.init(window: window, clock: ContinuousClock())
  }
}
