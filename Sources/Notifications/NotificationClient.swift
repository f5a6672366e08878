import DBus
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
  private let tracker: NameOwnerTracker
  private let hub: EventHub
  private let subscription: SignalSubscription
  private let observer: Int
  private let busID = Mutex<String?>(nil)

  /// Connects to `bus` and starts following the notification server.
  ///
  /// - Parameters:
  ///   - bus: The session bus by default.
  ///   - timeout: How long every call, connecting included, may take.
  ///   - store: Where identifiers are remembered; in memory by default.
  /// - Throws: ``NotificationError`` `no-bus` without a bus, `timeout` when it does not answer.
  public static func connect(
    to bus: Connection.Bus = .session, timeout: Duration = .seconds(2),
    store: any NotificationIDStore = MemoryIDStore()
  ) async throws(NotificationError) -> NotificationClient {
    try await withDeadline(timeout, failure: busTimeout(timeout)) {
      () async throws(NotificationError) -> NotificationClient in
      let connection: Connection
      do throws(DBusError) {
        connection = try Connection(bus)
      } catch {
        throw NotificationError(
          .noBus, "cannot connect to the message bus: \(error.message)", underlying: error)
      }
      return try await NotificationClient(connection: connection, timeout: timeout, store: store)
    }
  }

  /// Starts following the notification server on an open connection.
  ///
  /// - Throws: ``NotificationError`` `timeout` when the bus does not answer within `timeout`.
  public init(
    connection: Connection, timeout: Duration = .seconds(2),
    store: any NotificationIDStore = MemoryIDStore()
  ) async throws(NotificationError) {
    let hub = EventHub()
    let (tracker, subscription) = try await withDeadline(timeout, failure: busTimeout(timeout)) {
      () async throws(NotificationError) -> (NameOwnerTracker, SignalSubscription) in
      do throws(DBusError) {
        let tracker = try await NameOwnerTracker.track(NotificationsNames.busName, on: connection)
        let rule = MatchRule(
          sender: NotificationsNames.busName, interface: NotificationsNames.interface,
          path: NotificationsNames.path)
        let subscription = try await connection.addSignalHandler(matching: rule, from: tracker) {
          [weak hub] message in
          guard let hub, let sender = message.sender,
            let event = NotificationEvent(message: message)
          else { return }
          hub.receive(event, from: sender)
        }
        return (tracker, subscription)
      } catch {
        throw NotificationError.from(error, doing: "the subscription", timeout: timeout)
      }
    }
    self.connection = connection
    self.timeout = timeout
    self.store = store
    self.tracker = tracker
    self.hub = hub
    self.subscription = subscription
    observer = tracker.addObserver { [weak hub] owner in hub?.serverChanged(to: owner) }
    connection.onDisconnect { [weak hub] _ in hub?.finish() }
  }

  deinit {
    tracker.removeObserver(observer)
    subscription.cancel()
  }

  /// Closes the connection; event streams end.
  public func disconnect() {
    connection.close()
  }

  /// The unique bus name of the current notification server, or `nil` when none runs.
  public var serverOwner: String? { tracker.owner }

  /// Every change of the server's owner: its new unique name, or `nil` when it went away.
  public func serverChanges() -> AsyncStream<String?> { tracker.ownerChanges() }

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
  public func capabilities() async throws(NotificationError) -> [String] {
    try await currentServer().capabilities
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
    do {
      let reply = try await connection.call(
        NotificationsNames.busName, NotificationsNames.path, NotificationsNames.interface,
        NotificationsNames.getServerInformation, timeout: timeout)
      let (name, vendor, version, specVersion) = try reply.decode(
        String.self, String.self, String.self, String.self)
      return ServerInformation(
        name: name, vendor: vendor, version: version, specVersion: specVersion)
    } catch {
      throw NotificationError.from(error, doing: action, timeout: timeout)
    }
  }

  /// Posts `notification` as the presentation for the current server has it, and returns the server's id.
  ///
  /// With an identifier, the notification replaces the one posted before with
  /// the same identifier on the same server (`replaces_id`), and carries the
  /// identifier in every stack-tag hint the server advertises. The call goes
  /// to the very server whose capabilities shaped it; if that server went
  /// away in between, the post starts over once with the new one.
  ///
  /// - Returns: the id, never 0.
  /// - Throws: ``NotificationError`` `no-server`, `timeout`, `server-error`, or
  ///   `invalid-argument` for a text with a NUL byte.
  public func post(_ notification: Notification) async throws(NotificationError) -> UInt32 {
    if let id = try await post(notification, to: try await currentServer()) { return id }
    if let id = try await post(notification, to: try await currentServer()) { return id }
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
    if let owner = tracker.owner, hub.owns(id, on: owner), let unique = BusName(rawValue: owner) {
      destination = unique
    }
    do {
      _ = try await connection.call(
        destination, NotificationsNames.path, NotificationsNames.interface,
        NotificationsNames.closeNotification, id,
        timeout: timeout)
    } catch  where destination.isUnique && isGoneError(error) {
      throw NotificationError(
        .unknownNotification, "notification \(id) is gone: its server quit", underlying: error)
    } catch {
      throw NotificationError.from(error, doing: action, timeout: timeout)
    }
  }

  // MARK: Internals

  /// The server that answers now: its unique name and capabilities.
  private func currentServer() async throws(NotificationError) -> (
    name: String, capabilities: [String]
  ) {
    if let owner = tracker.owner, let cached = hub.capabilities(of: owner) {
      return (owner, cached)
    }
    do {
      let reply = try await connection.call(
        NotificationsNames.busName, NotificationsNames.path, NotificationsNames.interface,
        NotificationsNames.getCapabilities, timeout: timeout)
      let list = try reply.decode([String].self)
      guard let server = reply.sender else {
        throw NotificationError(.serverError, "the reply to GetCapabilities has no sender")
      }
      hub.setCapabilities(list, of: server)
      return (server, list)
    } catch let error as NotificationError {
      throw error
    } catch let error as DBusError {
      throw NotificationError.from(error, doing: "GetCapabilities", timeout: timeout)
    } catch {
      throw NotificationError(.serverError, "GetCapabilities failed: \(error)")
    }
  }

  /// Posts to one server; `nil` when that server quit before it answered.
  private func post(
    _ notification: Notification, to server: (name: String, capabilities: [String])
  ) async throws(NotificationError) -> UInt32? {
    guard let destination = BusName(rawValue: server.name) else {
      throw NotificationError(.serverError, "the server's name '\(server.name)' is not a bus name")
    }
    let prepared = Presentation(capabilities: server.capabilities).prepare(notification)
    var tag: String?
    var replacesID = notification.replacesID
    if let identifier = notification.identifier {
      let serverTag = try await self.serverTag(server.name)
      tag = serverTag
      if replacesID == 0 { replacesID = store.id(for: identifier, server: serverTag) ?? 0 }
    }
    let reply: Message
    do {
      let message = try prepared.notifyCall(replacesID: replacesID, destination: destination)
      reply = try await connection.call(message, timeout: timeout)
    } catch  where isGoneError(error) {
      return nil
    } catch  where error.is(.invalidArgs) && error.message.contains("NUL") {
      throw NotificationError(
        .invalidArgument, "the notification cannot be sent: \(error.message)", underlying: error)
    } catch {
      throw NotificationError.from(error, doing: "Notify", timeout: timeout)
    }
    let id: UInt32
    do {
      id = try reply.decode(UInt32.self)
    } catch {
      throw NotificationError(
        .serverError, "the server answered Notify with '\(reply.signature)' instead of an id")
    }
    guard id != 0 else {
      throw NotificationError(.serverError, "the server answered Notify with the id 0")
    }
    hub.register(id, server: server.name)
    if let identifier = notification.identifier, let tag {
      store.remember(id, for: identifier, server: tag)
    }
    return id
  }

  /// The tag identifier ids are stored under: the bus's id and the server's unique name.
  private func serverTag(_ server: String) async throws(NotificationError) -> String {
    if let known = busID.withLock({ $0 }) { return known + "/" + server }
    do {
      let reply = try await connection.call(.bus, .bus, .bus, MemberName("GetId"), timeout: timeout)
      let id = try reply.decode(String.self)
      busID.withLock { $0 = id }
      return id + "/" + server
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
