public import DBus
import Posix
import Spawn
import Synchronization

/// A client of the freedesktop notification server (`org.freedesktop.Notifications`, spec 1.3).
///
/// It follows the name's unique owner, so that a server that restarts is
/// picked up, its capabilities are read again, and the ids of the old server
/// are never handed to the new one. Events are read only from the current
/// owner: any process on the bus can emit an `ActionInvoked` with a guessed id.
///
/// Every call has a timeout (``timeout``, 2 s by default); without a server a
/// call fails with ``NotificationError/Code/noServer`` or
/// ``NotificationError/Code/timeout`` within it, never hangs.
public final class NotificationClient: Sendable {
  /// The connection, private to this client.
  public let connection: Connection
  /// How long each call waits for its answer.
  public let timeout: Duration
  /// The identifier → server id memory used for dedup.
  public let store: any NotificationIDStore
  /// The owner of the name; `nil` for a client that receives no events.
  private let tracker: NameOwnerTracker?
  private let hub: EventHub
  private let subscription: SignalSubscription?
  private let observer: Int?
  private let busID = Mutex<String?>(nil)
  /// Posts for one identifier, one at a time.
  private let turns = IdentifierTurns()
  /// When a call may have the bus start a server (``ServerActivation``).
  public let activation: ServerActivation
  private let prefetchAutoStart: Bool

  /// Connects to `bus` and starts following the notification server.
  ///
  /// - Parameters:
  ///   - bus: The session bus by default.
  ///   - timeout: How long every call, connecting included, may take.
  ///   - store: Where identifiers are remembered; in memory by default.
  ///   - receivesEvents: `false` for a program that posts and exits: it then
  ///     neither subscribes to the server's signals nor follows its owner,
  ///     which saves a round trip, and its connection starts no thread of its
  ///     own (``DBus/Connection/Dispatching/callingThread``): every call waits
  ///     for its answer on the calling thread. ``events()`` ends at once.
  /// - Throws: ``NotificationError`` `no-bus` without a bus, `timeout` when it does not answer.
  public static func connect(
    to bus: Connection.Bus = .session, timeout: Duration = .seconds(2),
    store: any NotificationIDStore = MemoryIDStore(), receivesEvents: Bool = true
  ) async throws(NotificationError) -> NotificationClient {
    guard receivesEvents else {
      let connection = try open(bus, timeout: timeout, dispatching: .callingThread)
      let hub = EventHub()
      hub.finish()
      return NotificationClient(
        connection: connection, timeout: timeout, store: store, activation: .always,
        parts: Parts(hub: hub, tracker: nil, subscription: nil, prefetch: nil))
    }
    return try await withDeadline(timeout, failure: busTimeout(timeout)) {
      () async throws(NotificationError) -> NotificationClient in
      // libdbus blocks while it connects and says hello, up to its own 25 s for a silent
      // bus: on a thread of its own, so that the deadline's timer still runs.
      let connection = try await onOwnThread { () throws(NotificationError) -> Connection in
        try open(bus, timeout: timeout, dispatching: .ownThread)
      }
      let parts = try await follow(connection, timeout: timeout, activation: .always)
      return NotificationClient(
        connection: connection, timeout: timeout, store: store, activation: .always, parts: parts)
    }
  }

  /// A connection to `bus`, or the error that says why there is none.
  private static func open(
    _ bus: Connection.Bus, timeout: Duration, dispatching: Connection.Dispatching
  ) throws(NotificationError) -> Connection {
    do throws(DBusError) {
      return try Connection(bus, timeout: timeout, dispatching: dispatching)
    } catch  where error.is(.noReply) {
      throw busTimeout(timeout)
    } catch {
      throw NotificationError(
        .noBus, "cannot connect to the message bus: \(error.message)", underlying: error)
    }
  }

  /// Starts following the notification server on an open connection.
  ///
  /// - Parameter activation: When calls may have the bus start a server;
  ///   ``ServerActivation/desktopWait(from:bound:)`` for a service started with the session.
  /// - Throws: ``NotificationError`` `timeout` when the bus does not answer within `timeout`.
  public convenience init(
    connection: Connection, timeout: Duration = .seconds(2),
    store: any NotificationIDStore = MemoryIDStore(), activation: ServerActivation = .always
  ) async throws(NotificationError) {
    let parts = try await withDeadline(timeout, failure: busTimeout(timeout)) {
      () async throws(NotificationError) -> Parts in
      try await NotificationClient.follow(connection, timeout: timeout, activation: activation)
    }
    self.init(connection: connection, timeout: timeout, store: store, activation: activation, parts: parts)
  }

  private init(
    connection: Connection, timeout: Duration, store: any NotificationIDStore, activation: ServerActivation,
    parts: Parts
  ) {
    self.connection = connection
    self.timeout = timeout
    self.store = store
    self.activation = activation
    prefetchAutoStart = parts.prefetchAutoStart
    tracker = parts.tracker
    hub = parts.hub
    subscription = parts.subscription
    hub.follow(prefetch: parts.prefetch)
    observer = tracker?.addObserver { [weak hub] owner in hub?.serverChanged(to: owner) }
    connection.onDisconnect { [weak hub] _ in hub?.finish() }
  }

  /// What following the server takes: the owner tracker, the event
  /// subscription, and the capabilities already asked for.
  private struct Parts: Sendable {
    var hub: EventHub
    var tracker: NameOwnerTracker?
    var subscription: SignalSubscription?
    /// `nil` for a client that posts and exits: it asks when it first posts.
    var prefetch: Task<Result<(server: BusName, list: [Capability]), DBusError>, Never>?
    /// Whether the prefetch could have the bus start a server.
    var prefetchAutoStart = true
  }

  /// Tracks the server's owner, subscribes to its signals and asks for its
  /// capabilities, the last at once, so that the first post waits for as few
  /// round trips as possible.
  private static func follow(
    _ connection: Connection, timeout: Duration, activation: ServerActivation
  ) async throws(NotificationError) -> Parts {
    let hub = EventHub()
    // A question: during the desktop's wait it starts no server, and fails at once when none runs.
    var autoStart = true
    if case .call(false) = activation.step(now: .now, serverRuns: false, purpose: .query) { autoStart = false }
    let prefetch = Task {
      await NotificationClient.fetchCapabilities(connection, timeout: timeout, autoStart: autoStart)
    }
    let rule = MatchRule(
      sender: NotificationsNames.busName, interface: NotificationsInterface.name, path: NotificationsNames.path)
    do {
      // Signals are accepted from the tracked owner only: any connection can
      // send one unicast to this client, which no rule at the bus stops.
      let tracker = try await NameOwnerTracker.track(NotificationsNames.busName, on: connection)
      let subscription = try await connection.addSignalHandler(matching: rule, from: tracker) {
        [weak hub] message in
        guard let hub, let sender = message.sender, let event = NotificationEvent(message: message)
        else { return }
        hub.receive(event, from: sender)
      }
      return Parts(
        hub: hub, tracker: tracker, subscription: subscription, prefetch: prefetch, prefetchAutoStart: autoStart)
    } catch {
      throw NotificationError.from(error, doing: "the subscription", timeout: timeout)
    }
  }

  deinit {
    if let observer { tracker?.removeObserver(observer) }
    subscription?.cancel()
  }

  /// Closes the connection; event streams end.
  public func disconnect() {
    connection.close()
  }

  /// The unique bus name of the current notification server, or `nil` when none runs.
  public var serverOwner: BusName? { tracker?.owner }

  /// Every change of the server's owner: its new unique name, or `nil` when it went away.
  public func serverChanges() -> AsyncStream<BusName?> {
    tracker?.ownerChanges() ?? AsyncStream { $0.finish() }
  }

  /// The events about the notifications this client posted: actions, closes,
  /// activation tokens and replies, from the current server only and as the
  /// presentation expects them.
  ///
  /// Create the stream before posting; every stream receives every event.
  /// When the server goes away or is replaced, each notification it still
  /// showed ends with `closed(undefined)`. The stream ends with the connection.
  public func events() -> AsyncStream<NotificationEvent> { hub.events() }

  /// The server's capabilities, cached until its owner changes.
  ///
  /// - Throws: ``NotificationError`` `no-server` or `timeout`.
  public func capabilities() async throws(NotificationError) -> [Capability] {
    try await currentServer(autoStart: await autoStart(for: .query)).capabilities
  }

  /// The presentation for the current server, decided from its capabilities.
  ///
  /// - Throws: as ``capabilities()``.
  public func presentation() async throws(NotificationError) -> Presentation {
    Presentation(capabilities: try await capabilities())
  }

  /// What the server says about itself.
  ///
  /// - Throws: ``NotificationError`` `no-server`, `timeout` or `server-error`.
  public func serverInformation() async throws(NotificationError) -> ServerInformation {
    let action = "GetServerInformation"
    let autoStart = await autoStart(for: .query)
    do {
      let (name, vendor, version, specVersion) = try await connection.call(
        NotificationsInterface.getServerInformation, destination: NotificationsNames.busName,
        path: NotificationsNames.path, timeout: timeout, autoStart: autoStart)
      return ServerInformation(
        name: name, vendor: vendor, version: version, specVersion: specVersion)
    } catch {
      throw NotificationError.from(error, doing: action, timeout: timeout)
    }
  }

  /// Posts `notification` as the presentation for the current server has it, and returns the server's id.
  ///
  /// With an identifier, the notification replaces the one posted before with
  /// the same identifier on the same server (`replaces_id`); a post that
  /// knows no id to replace carries the identifier in every stack-tag hint
  /// the server advertises instead; posts for one
  /// identifier are made one at a time, so that one made while another is on
  /// its way replaces it instead of showing beside it. The call goes
  /// to the very server whose capabilities shaped it; if that server went
  /// away in between, the post starts over once with the new one. A client
  /// that receives no events posts a notification that every server gets
  /// alike (``Presentation/isSameForEveryServer(_:)``) to the well-known name
  /// at once, without asking for the capabilities first.
  ///
  /// A server may answer with the id 0, as notify-osd does (it keeps no ids
  /// for clients): the post succeeded, but the notification can be neither
  /// replaced nor closed by id, and no event names it. Nothing is remembered
  /// for its identifier then, so the next post with that identifier relies on
  /// the stack-tag hints alone to replace it.
  ///
  /// - Returns: the id, or 0 from a server that keeps no ids.
  /// - Throws: ``NotificationError`` `no-server`, `timeout`, `server-error`, or
  ///   `invalid-argument` for a text with a NUL byte.
  public func post(_ notification: Notification) async throws(NotificationError) -> UInt32 {
    guard let identifier = notification.identifier else { return try await postNow(notification) }
    // The next post for the identifier waits for this one's id, to replace it.
    return try await turns.inTurn(for: identifier) { () async throws(NotificationError) -> UInt32 in
      try await postNow(notification)
    }
  }

  /// Posts at once: ``post(_:)`` without waiting for the identifier's turn.
  private func postNow(_ notification: Notification) async throws(NotificationError) -> UInt32 {
    // During the desktop's wait a post waits for its server rather than have the bus start one.
    let autoStart = await autoStart(for: .post)
    // A client that follows no server and posts what any server gets alike
    // need not ask for capabilities first: one round trip to the server less.
    if tracker == nil, Presentation.isSameForEveryServer(notification),
      let id = try await post(notification, to: (NotificationsNames.busName, []), autoStart: autoStart)
    {
      return id
    }
    if let id = try await post(notification, to: try await currentServer(autoStart: autoStart), autoStart: autoStart) {
      return id
    }
    if let id = try await post(notification, to: try await currentServer(autoStart: autoStart), autoStart: autoStart) {
      return id
    }
    throw NotificationError(
      .noServer, "the notification server quit twice while the notification was being posted")
  }

  /// Closes a notification (`CloseNotification`); the server answers with `NotificationClosed` reason 3.
  ///
  /// An id this client posted is closed on the server that gave it, never on a successor.
  ///
  /// - Throws: ``NotificationError`` `unknown-notification` when the server no
  ///   longer has it, `no-server` or `timeout`.
  public func close(_ id: UInt32) async throws(NotificationError) {
    let action = "CloseNotification"
    var destination = NotificationsNames.busName
    if let owner = tracker?.owner, hub.owns(id, on: owner) {
      destination = owner
    }
    let autoStart = await autoStart(for: .query)
    do {
      try await connection.call(
        NotificationsInterface.closeNotification, destination: destination, path: NotificationsNames.path, id,
        timeout: timeout, autoStart: autoStart)
    } catch  where destination.isUnique && isGoneError(error) {
      throw NotificationError(
        .unknownNotification, "notification \(id) is gone: its server quit", underlying: error)
    } catch {
      throw NotificationError.from(error, doing: action, timeout: timeout)
    }
  }

  // MARK: Internals

  /// Whether a call for `purpose` made now carries the auto-start flag, once any wait
  /// for the desktop's server that ``activation`` asks for is over.
  private func autoStart(for purpose: ServerActivation.Purpose) async -> Bool {
    while true {
      // A client that follows no owner cannot tell whether a server runs: it calls as if one did.
      let serverRuns = tracker.map { $0.owner != nil } ?? true
      switch activation.step(now: .now, serverRuns: serverRuns, purpose: purpose) {
      case .call(let autoStart):
        return autoStart
      case .waitForServer(let until):
        _ = await tracker?.waitForOwner(timeout: ContinuousClock.now.duration(to: until))
      }
    }
  }

  /// The server that answers now: its unique name and capabilities.
  private func currentServer(autoStart: Bool) async throws(NotificationError) -> (
    name: BusName, capabilities: [Capability]
  ) {
    if let tracker {
      if let owner = tracker.owner, let cached = hub.capabilities(of: owner) {
        return (owner, cached)
      }
    } else if let cached = hub.lastCapabilities {
      return cached
    }
    // The answer asked for at the start serves if it came from the server
    // that owns the name now, or if it failed and still no server is there
    // (unless this call may start one and that one could not); otherwise it
    // is stale and the server is asked again.
    var result = await hub.takePrefetch()
    switch result {
    case .success(let answer)? where tracker?.owner.map { $0 == answer.server } ?? true: break
    case .failure? where tracker?.owner == nil && (prefetchAutoStart || !autoStart): break
    default: result = await NotificationClient.fetchCapabilities(connection, timeout: timeout, autoStart: autoStart)
    }
    guard let result else {
      throw NotificationError(.serverError, "no answer to GetCapabilities")
    }
    switch result {
    case .success(let answer):
      hub.setCapabilities(answer.list, of: answer.server)
      return (answer.server, answer.list)
    case .failure(let error):
      throw NotificationError.from(error, doing: "GetCapabilities", timeout: timeout)
    }
  }

  /// Asks whoever owns the name for its capabilities; the reply names the server that answered.
  private static func fetchCapabilities(
    _ connection: Connection, timeout: Duration, autoStart: Bool
  ) async -> Result<(server: BusName, list: [Capability]), DBusError> {
    do {
      let call = try NotificationsInterface.getCapabilities.message(
        destination: NotificationsNames.busName, path: NotificationsNames.path)
      call.autoStart = autoStart
      let reply = try await connection.call(call, timeout: timeout)
      let list = try NotificationsInterface.getCapabilities.reply(from: reply).map(Capability.init(rawValue:))
      guard let server = reply.sender else {
        return .failure(DBusError(.failed, "the reply to GetCapabilities has no sender"))
      }
      return .success((server, list))
    } catch {
      return .failure(error)
    }
  }

  /// Posts to one server; `nil` when that server quit before it answered.
  private func post(
    _ notification: Notification, to server: (name: BusName, capabilities: [Capability]), autoStart: Bool
  ) async throws(NotificationError) -> UInt32? {
    var tag: String?
    var replacesID = notification.replacesID
    if let identifier = notification.identifier {
      let serverTag = try await self.serverTag(server.name)
      tag = serverTag
      if replacesID == 0 { replacesID = store.id(for: identifier, server: serverTag) ?? 0 }
    }
    let prepared = Presentation(capabilities: server.capabilities).prepare(notification, replacing: replacesID != 0)
    let reply: Message
    do {
      let message = try prepared.notifyCall(replacesID: replacesID, destination: server.name)
      message.autoStart = autoStart
      reply = try await connection.call(message, timeout: timeout)
    } catch  where isGoneError(error) {
      return nil
    } catch  where error.is(.invalidArgs) && error.message.includes("NUL") {
      throw NotificationError(
        .invalidArgument, "the notification cannot be sent: \(error.message)", underlying: error)
    } catch {
      throw NotificationError.from(error, doing: "Notify", timeout: timeout)
    }
    let id: UInt32
    do {
      id = try NotificationsInterface.notify.reply(from: reply)
    } catch {
      throw NotificationError(
        .serverError, "the server answered Notify with '\(reply.signature)' instead of an id")
    }
    // 0 is notify-osd's answer: posted, with no id to replace, close or wait on.
    guard id != 0 else { return 0 }
    // Only a client that receives events needs to know which ids are its own.
    // The reply names the server that answered, also when the call went to the well-known name.
    if tracker != nil { hub.register(id, server: reply.sender ?? server.name) }
    if let identifier = notification.identifier, let tag {
      store.remember(id, for: identifier, server: tag)
    }
    return id
  }

  /// The tag identifier ids are stored under: the bus's id and the server's unique name.
  private func serverTag(_ server: BusName) async throws(NotificationError) -> String {
    if let known = busID.withLock({ $0 }) { return known + "/" + server.rawValue }
    do {
      let id = try await connection.call(BusInterface.getId, destination: .bus, path: .bus, timeout: timeout)
      busID.withLock { $0 = id }
      return id + "/" + server.rawValue
    } catch {
      throw NotificationError.from(error, doing: "GetId", timeout: timeout)
    }
  }

  /// Whether a call failed because its unique destination no longer exists.
  private func isGoneError(_ error: DBusError) -> Bool {
    error.is(.serviceUnknown) || error.is(.nameHasNoOwner)
  }
}

/// The error for a bus that did not answer within `timeout`.
private func busTimeout(_ timeout: Duration) -> NotificationError {
  NotificationError(.timeout, "the message bus did not answer within \(timeout.text)")
}
