import Synchronization

extension Connection {
  /// Subscribes `handler` to the signals that match `rule`.
  ///
  /// The handler runs where the connection is dispatched (its loop thread, or
  /// a thread waiting in ``Connection/callBlocking(_:timeout:)``), one message
  /// at a time, in arrival order,
  /// and must not block. The local handler is in place before the bus is asked
  /// for the rule, so no matching signal that arrives after this returns is missed.
  ///
  /// - Parameters:
  ///   - rule: What to receive; the bus filters by it, and so does this side.
  ///   - tracker: When given, a signal is accepted only from the tracked name's
  ///     current unique owner: the same signal from any other connection is dropped.
  ///     Required when the rule's sender is a well-known name other than the bus's.
  /// - Returns: the subscription; it lasts until it is cancelled or released.
  /// - Throws: `InvalidArgs` for a well-known sender without its tracker, the
  ///   bus's error for an invalid rule, `Disconnected` when the connection is closed.
  public func addSignalHandler(
    matching rule: MatchRule, from tracker: NameOwnerTracker? = nil,
    _ handler: @escaping @Sendable (Message) -> Void
  ) async throws(DBusError) -> SignalSubscription {
    try await subscribe(matching: rule, from: tracker, deliver: handler, end: {})
  }

  /// A stream of the signals that match `rule`.
  ///
  /// - Parameters:
  ///   - rule: What to receive.
  ///   - tracker: When given, only signals from the tracked name's current owner.
  ///   - bufferLimit: How many signals wait for a slow reader before the oldest are dropped.
  /// - Throws: as ``addSignalHandler(matching:from:_:)``.
  public func signals(
    matching rule: MatchRule, from tracker: NameOwnerTracker? = nil, bufferLimit: Int = 1024
  ) async throws(DBusError) -> SignalStream {
    let (stream, continuation) = AsyncStream.makeStream(
      of: Message.self, bufferingPolicy: .bufferingNewest(bufferLimit))
    let subscription = try await subscribe(
      matching: rule, from: tracker, deliver: { continuation.yield($0) }, end: { continuation.finish() })
    return SignalStream(subscription: subscription, stream: stream)
  }

  /// A stream of typed signals: those that match `S`'s interface and member
  /// (and `path`, when given) and decode as `S`. A signal whose arguments do
  /// not decode is dropped.
  ///
  /// - Throws: as ``addSignalHandler(matching:from:_:)``.
  public func signals<S: DBusSignal>(
    _ type: S.Type, path: ObjectPath? = nil, from tracker: NameOwnerTracker? = nil, bufferLimit: Int = 1024
  ) async throws(DBusError) -> TypedSignalStream<S> {
    let rule = MatchRule(sender: tracker?.name, interface: S.interface, member: S.member, path: path)
    return TypedSignalStream(base: try await signals(matching: rule, from: tracker, bufferLimit: bufferLimit))
  }

  private func subscribe(
    matching rule: MatchRule, from tracker: NameOwnerTracker?,
    deliver: @escaping @Sendable (Message) -> Void, end: @escaping @Sendable () -> Void
  ) async throws(DBusError) -> SignalSubscription {
    try rule.validate()
    if let tracker, tracker.connection !== self {
      throw DBusError(.invalidArgs, "the name owner tracker belongs to another connection")
    }
    // The bus filters by a well-known sender, but a unicast signal passes
    // every rule: only the name's current owner tells the real one apart.
    if let sender = rule.sender, !sender.isUnique, sender != .bus, tracker?.name != sender {
      throw DBusError(
        .invalidArgs, "signals from '\(sender)' can be told apart only by its owner: pass the tracker of '\(sender)'")
    }
    var requiredSender: (@Sendable () -> BusName?)?
    if let tracker { requiredSender = { tracker.owner } }
    let id = try core.addSignalHandler(
      SignalHandlerTable.Entry(rule: rule, requiredSender: requiredSender, deliver: deliver, end: end))
    do {
      try await call(BusInterface.addMatch, destination: .bus, path: .bus, rule.description)
    } catch {
      core.removeSignalHandler(id)?.end()
      throw error
    }
    return SignalSubscription(connection: self, id: id, rule: rule)
  }
}

/// A signal handler registered on a connection, with its match rule on the bus.
///
/// Cancelling it, or releasing the last reference, removes the handler and the rule.
public final class SignalSubscription: Sendable {
  let connection: Connection
  let id: Int
  let rule: MatchRule

  init(connection: Connection, id: Int, rule: MatchRule) {
    self.connection = connection
    self.id = id
    self.rule = rule
  }

  deinit { cancel() }

  /// Removes the handler and asks the bus to drop the rule; a stream on it ends.
  public func cancel() {
    guard let entry = connection.core.removeSignalHandler(id) else { return }
    entry.end()
    if let message = try? BusInterface.removeMatch.message(destination: .bus, path: .bus, rule.description) {
      message.noReplyExpected = true
      try? connection.send(message)
    }
  }
}

/// Signals as an `AsyncSequence`; the sequence keeps its connection alive.
public struct SignalStream: AsyncSequence, Sendable {
  public typealias Element = Message

  let subscription: SignalSubscription
  let stream: AsyncStream<Message>

  public func makeAsyncIterator() -> Iterator {
    Iterator(subscription: subscription, base: stream.makeAsyncIterator())
  }

  /// Stops the stream and removes its match rule.
  public func cancel() { subscription.cancel() }

  public struct Iterator: AsyncIteratorProtocol {
    let subscription: SignalSubscription
    var base: AsyncStream<Message>.Iterator

    public mutating func next() async -> Message? { await base.next() }
  }
}

/// A signal with a fixed interface, member and argument types.
public protocol DBusSignal: Sendable {
  static var interface: InterfaceName { get }
  static var member: MemberName { get }
  /// Decodes the signal's arguments; throws for arguments of the wrong types.
  init(message: Message) throws(DBusError)
}

/// Typed signals as an `AsyncSequence`; signals that do not decode are skipped.
public struct TypedSignalStream<S: DBusSignal>: AsyncSequence, Sendable {
  public typealias Element = S

  let base: SignalStream

  public func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator()) }

  /// Stops the stream and removes its match rule.
  public func cancel() { base.cancel() }

  public struct Iterator: AsyncIteratorProtocol {
    var base: SignalStream.Iterator

    public mutating func next() async -> S? {
      while let message = await base.next() {
        if let signal = try? S(message: message) { return signal }
      }
      return nil
    }
  }
}
