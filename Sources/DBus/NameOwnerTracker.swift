import Executor
import Synchronization

/// Follows which connection owns a well-known name, from `GetNameOwner` and `NameOwnerChanged`.
///
/// Any process on a bus can emit a signal that looks like it comes from a
/// service; only the sender's unique name tells them apart. A tracker knows
/// the current unique owner, so that signal streams can accept signals from
/// it alone (pass the tracker to ``Connection/signals(matching:from:bufferLimit:)``).
/// Updates are applied as the connection dispatches, in message order,
/// so a signal is always judged against the owner at the time it was sent.
public final class NameOwnerTracker: Sendable {
  /// The tracked well-known name.
  public let name: BusName
  let connection: Connection
  private let state = Mutex(State())
  private let subscription = Mutex<SignalSubscription?>(nil)

  private struct State {
    var owner: BusName?
    /// Counts `NameOwnerChanged` signals applied, so a late `GetNameOwner` reply cannot undo one.
    var generation = 0
    var observers: [Int: @Sendable (BusName?) -> Void] = [:]
    var nextObserver = 1
  }

  /// Starts tracking `name` and returns once its current owner is known.
  ///
  /// - Throws: `InvalidArgs` for a unique name (it cannot change owner), the bus's error otherwise.
  public static func track(_ name: BusName, on connection: Connection) async throws(DBusError) -> NameOwnerTracker {
    guard !name.isUnique else {
      throw DBusError(.invalidArgs, "'\(name)' is a unique name; only well-known names change owner")
    }
    let tracker = NameOwnerTracker(name: name, connection: connection)
    let rule = BusInterface.nameOwnerChanged.rule(sender: .bus, path: .bus, arguments: [0: name.rawValue])
    let subscription = try await connection.addSignalHandler(matching: rule) { [weak tracker] message in
      guard let tracker, let (changed, _, newOwner) = try? BusInterface.nameOwnerChanged.decode(message),
        changed == name.rawValue
      else { return }
      // The bus names the new owner by its unique name, or by nothing when the name was released.
      if newOwner.isEmpty {
        tracker.apply(nil)
      } else if let owner = BusName(rawValue: newOwner) {
        tracker.apply(owner)
      }
    }
    tracker.subscription.withLock { $0 = subscription }
    let generation = tracker.state.withLock { $0.generation }
    let message = try BusInterface.getNameOwner.message(destination: .bus, path: .bus, name.rawValue)
    // The reply is applied as it is dispatched, in order with the signals.
    let result: Result<Void, DBusError> = await withCheckedContinuation { continuation in
      do throws(DBusError) {
        try connection.core.sendWithReply(message, timeout: .seconds(25)) { [weak tracker] result in
          switch result {
          case .success(let reply):
            if let text = try? BusInterface.getNameOwner.reply(from: reply), let owner = BusName(rawValue: text) {
              tracker?.applyInitial(owner, generation: generation)
            }
            continuation.resume(returning: .success(()))
          case .failure(let error) where error.is(.nameHasNoOwner):
            tracker?.applyInitial(nil, generation: generation)
            continuation.resume(returning: .success(()))
          case .failure(let error):
            continuation.resume(returning: .failure(error))
          }
        }
      } catch {
        continuation.resume(returning: .failure(error))
      }
    }
    try result.get()
    return tracker
  }

  private init(name: BusName, connection: Connection) {
    self.name = name
    self.connection = connection
  }

  /// The unique name of the current owner, or `nil` when no one owns the name.
  public var owner: BusName? { state.withLock { $0.owner } }

  /// Calls `observer` as the change is dispatched, after every change of owner; returns a token for ``removeObserver(_:)``.
  @discardableResult
  public func addObserver(_ observer: @escaping @Sendable (BusName?) -> Void) -> Int {
    state.withLock { state in
      let id = state.nextObserver
      state.nextObserver += 1
      state.observers[id] = observer
      return id
    }
  }

  /// Removes an observer added with ``addObserver(_:)``.
  public func removeObserver(_ id: Int) {
    _ = state.withLock { $0.observers.removeValue(forKey: id) }
  }

  /// Every change of owner from now on: the new unique name, or `nil` when the name was released.
  public func ownerChanges() -> AsyncStream<BusName?> {
    let (stream, continuation) = AsyncStream.makeStream(of: BusName?.self)
    let id = addObserver { continuation.yield($0) }
    continuation.onTermination = { [weak self] _ in self?.removeObserver(id) }
    connection.onDisconnect { _ in continuation.finish() }
    return stream
  }

  /// Waits until the name has an owner, for at most `timeout`; returns the owner or `nil`.
  public func waitForOwner(timeout: Duration) async -> BusName? {
    if let owner { return owner }
    let changes = ownerChanges()
    return await withTaskGroup(of: BusName?.self) { group in
      group.addTask {
        for await owner in changes where owner != nil { return owner }
        return nil
      }
      group.addTask {
        // Taken away with the owner's arrival: a wait that was not needed leaves no wake-up behind.
        try? await CancellableSleep.sleep(for: timeout)
        return nil
      }
      // The owner may have arrived between the first check and the stream.
      if let owner = self.owner {
        group.cancelAll()
        return owner
      }
      let first = await group.next() ?? nil
      group.cancelAll()
      return first ?? self.owner
    }
  }

  private func applyInitial(_ owner: BusName?, generation: Int) {
    let observers: [@Sendable (BusName?) -> Void]? = state.withLock { state in
      guard state.generation == generation, state.owner != owner else { return nil }
      state.owner = owner
      return Array(state.observers.values)
    }
    for observer in observers ?? [] { observer(owner) }
  }

  private func apply(_ owner: BusName?) {
    let observers: [@Sendable (BusName?) -> Void] = state.withLock { state in
      state.generation += 1
      state.owner = owner
      return Array(state.observers.values)
    }
    for observer in observers { observer(owner) }
  }
}
