public import DBus
import Dispatch
import JSON
import Synchronization

/// ShieldBridge's embedded, headless notification server (`org.freedesktop.Notifications`, spec 1.3).
///
/// It speaks real D-Bus: it owns the well-known name on a bus, answers
/// `Notify`, `CloseNotification`, `GetCapabilities` and `GetServerInformation`
/// with the specification's semantics, and sends `NotificationClosed`,
/// `ActionInvoked`, `ActivationToken` and KDE's `NotificationReplied` to the
/// connection that posted the notification, as dunst does. It shows nothing:
/// it records every notification and every close as one JSON line, and is told
/// to click, close or reply by ``click(_:action:)``, ``close(_:reason:)`` and
/// ``reply(_:text:)``, or by the same commands over D-Bus on its control
/// interface `org.shieldbridge.NotificationServer1`.
///
/// Memory stays bounded whatever clients send: only the most recent
/// ``Configuration/retainedLimit`` notifications are kept, within
/// ``Configuration/retainedBytes`` together (older ones can no longer be
/// replaced, clicked or closed), and each is cut to
/// ``Configuration/textLimit`` per text and ``Configuration/notificationLimit``
/// in all. The record file has every notification, as kept. No answer it
/// sends can exceed what the bus accepts: the control interface lists the
/// notifications in pages of ``listPageBytes``.
public final class NotificationServer: Sendable {
  /// What the server advertises and where it records.
  public struct Configuration: Sendable {
    /// The capabilities `GetCapabilities` returns, in this order.
    public var capabilities: [Capability]
    /// What `GetServerInformation` returns.
    public var information: ServerInformation
    /// A file that receives one JSON object per line for every notification,
    /// close, action and reply; appended to, never truncated.
    public var recordPath: String?
    /// How many notifications are kept in memory.
    public var retainedLimit: Int
    /// How many bytes all kept notifications take together, measured as their
    /// JSON (as `list --json` prints them); past it, the oldest go first. The
    /// newest notification is always kept.
    public var retainedBytes: Int
    /// The most bytes of JSON one text of a notification keeps: its app name,
    /// icon, summary, body, an action's label (cut at a character boundary),
    /// an action's key or a hint (dropped whole when longer).
    public var textLimit: Int
    /// The most bytes of JSON one notification keeps, all together (at most
    /// 1 MiB); actions and hints past it are dropped.
    public var notificationLimit: Int
    /// Whether `Notify` answers with the id 0, as notify-osd does: its way of
    /// keeping no ids for clients. The notification is still kept, recorded
    /// and signalled under the id the server gave it; only the answer says 0.
    public var answersZeroIDs: Bool

    /// The capabilities of a full-featured server without inline replies.
    public static let defaultCapabilities: [Capability] = [
      .actions, .body, .bodyHyperlinks, .bodyMarkup, .iconStatic, .persistence,
    ]

    public init(
      capabilities: [Capability] = Configuration.defaultCapabilities,
      information: ServerInformation = .shieldBridge,
      recordPath: String? = nil, retainedLimit: Int = 1000, retainedBytes: Int = 16 << 20,
      textLimit: Int = 64 << 10, notificationLimit: Int = 512 << 10, answersZeroIDs: Bool = false
    ) {
      self.capabilities = capabilities
      self.information = information
      self.recordPath = recordPath
      self.retainedLimit = retainedLimit
      self.retainedBytes = retainedBytes
      self.textLimit = textLimit
      self.notificationLimit = notificationLimit
      self.answersZeroIDs = answersZeroIDs
    }
  }

  /// What the server keeps in memory, and its limits.
  public struct Retention: Sendable, Equatable {
    /// How many notifications are kept.
    public var count: Int
    /// How many bytes of JSON they take together.
    public var bytes: Int
    /// ``Configuration/retainedLimit``.
    public var countLimit: Int
    /// ``Configuration/retainedBytes``.
    public var byteLimit: Int

    public init(count: Int, bytes: Int, countLimit: Int, byteLimit: Int) {
      self.count = count
      self.bytes = bytes
      self.countLimit = countLimit
      self.byteLimit = byteLimit
    }
  }

  /// Something that happened to a notification, for a program that embeds the server.
  public enum Activity: Sendable {
    /// A `Notify` call was answered with this notification's id.
    case notified(ReceivedNotification)
    case closed(id: UInt32, reason: CloseReason)
    case action(id: UInt32, key: String, activationToken: String)
    case replied(id: UInt32, text: String)
  }

  public let connection: Connection
  public let configuration: Configuration
  private let recorder: Recorder?
  private let state: Mutex<State>
  private let timers = DispatchQueue(label: "shieldbridge.notification-server.expiry")
  /// What one notification keeps, from the configuration.
  private let limits: NotificationLimits
  /// The most bytes of JSON notifications one page of `ListPage` carries
  /// (a page has at least one, and one takes at most 1 MiB): far below the
  /// 128 MiB the D-Bus specification allows a message, and the 32 MiB a
  /// system bus allows by default; small enough that a page comes well
  /// within the control client's 2 s timeout on a loaded machine.
  static let listPageBytes = 1 << 20
  /// The most bytes a hint value may take as it is read, before it is built:
  /// 8 a value and the bytes of its strings (see `MessageReader.readValue(limit:)`).
  private var hintReadLimit: Int { 2 * limits.text }
  /// The most action strings read: a key and a label take at least 20 bytes
  /// of JSON together, and the actions at most half of a notification.
  private var actionReadLimit: Int { limits.notification / 20 + 2 }

  private struct State {
    var notifications: RecentTable<Stored>
    /// The ``Stored/cost`` of every kept notification, together.
    var keptBytes = 0
    var nextID: UInt32 = 1
    var nextToken: UInt64 = 1
    var nextGeneration: UInt64 = 1
    var watchers: [Int: AsyncStream<Activity>.Continuation] = [:]
    var nextWatcher = 1
    /// Set by ``closeAll()``: the server is going away, and a `Notify` that
    /// comes after it is refused, so that nothing is left open behind the close.
    var isClosing = false
  }

  /// A notification in memory; a class, so that the table moves references, not copies.
  private final class Stored: Sendable {
    let notification: ReceivedNotification
    /// Changes with every replacement, so that an old expiry timer does nothing.
    let generation: UInt64
    /// The bytes of its JSON object, counted against ``Configuration/retainedBytes``.
    let cost: Int

    init(notification: ReceivedNotification, generation: UInt64, cost: Int) {
      self.notification = notification
      self.generation = generation
      self.cost = cost
    }
  }

  /// Prepares a server on `connection`; ``start()`` puts it on the bus.
  ///
  /// - Throws: ``NotificationError`` `file` when the record file cannot be opened.
  public init(connection: Connection, configuration: Configuration = Configuration())
    throws(NotificationError)
  {
    self.connection = connection
    self.configuration = configuration
    recorder = try configuration.recordPath.map { path throws(NotificationError) in
      try Recorder(path: path)
    }
    state = Mutex(State(notifications: RecentTable(limit: configuration.retainedLimit)))
    limits = NotificationLimits(
      text: max(64, configuration.textLimit),
      notification: max(1024, min(configuration.notificationLimit, 1 << 20)))
  }

  /// Exports the interfaces and takes the name `org.freedesktop.Notifications`.
  ///
  /// - Throws: ``NotificationError`` `name-taken` when another server owns the
  ///   name, `disconnected` or `server-error` when the bus refuses.
  public func start() async throws(NotificationError) {
    do {
      try connection.export(try interfaces(), at: NotificationsNames.path)
    } catch {
      throw NotificationError(
        .serverError, "cannot export the notification interfaces: \(error.message)",
        underlying: error)
    }
    let reply: Connection.RequestNameReply
    do {
      reply = try await connection.requestName(NotificationsNames.busName, flags: [.doNotQueue])
    } catch {
      connection.unexport(NotificationsNames.path)
      throw NotificationError.from(error, doing: "RequestName", timeout: .seconds(25))
    }
    guard reply == .primaryOwner || reply == .alreadyOwner else {
      connection.unexport(NotificationsNames.path)
      let owner = (try? await connection.nameOwner(NotificationsNames.busName)) ?? nil
      throw NotificationError(
        .nameTaken,
        "another notification server owns org.freedesktop.Notifications on this bus\(owner.map { " (\($0))" } ?? "")"
      )
    }
  }

  /// Closes every notification it keeps, as a server going away does.
  ///
  /// Each sender gets `NotificationClosed` with reason 3 (closed by a call),
  /// and each close is recorded, so that a client waiting for the end of its
  /// notification (`notify-send -w`) stops waiting. Call it before ``stop()``;
  /// the signals leave when the connection is flushed or closed. From here
  /// on `Notify` is refused (`org.freedesktop.DBus.Error.Failed`): a call
  /// that the bus delivers meanwhile (a client posting while the server is
  /// told to end) would otherwise stay open after the close.
  public func closeAll() {
    let ids = state.withLock { state in
      state.isClosing = true
      return state.notifications.ids
    }
    for id in ids { closeOpen(id, reason: .closed) }
  }

  /// Gives the name back and stops answering; the connection stays open.
  public func stop() async {
    _ = try? await connection.releaseName(NotificationsNames.busName)
    connection.unexport(NotificationsNames.path)
    let watchers = state.withLock { state in
      defer { state.watchers = [:] }
      return Array(state.watchers.values)
    }
    for watcher in watchers { watcher.finish() }
  }

  /// The notifications kept in memory, least recently posted first.
  public var notifications: [ReceivedNotification] {
    state.withLock { state in
      state.notifications.ids.compactMap { state.notifications[$0]?.notification }
    }
  }

  /// How many notifications are kept and how many bytes they take.
  public var retention: Retention {
    state.withLock { self.retention(of: $0) }
  }

  private func retention(of state: State) -> Retention {
    Retention(
      count: state.notifications.count, bytes: state.keptBytes,
      countLimit: configuration.retainedLimit, byteLimit: configuration.retainedBytes)
  }

  /// The notification with this id, if it is open and still in memory.
  public func notification(_ id: UInt32) -> ReceivedNotification? {
    state.withLock { $0.notifications[id]?.notification }
  }

  /// The first failure to write the record file, if there was one.
  public var recordError: NotificationError? { recorder?.failure }

  /// A stream of everything that happens from now on.
  public func activity() -> AsyncStream<Activity> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: Activity.self, bufferingPolicy: .bufferingNewest(4096))
    let id = state.withLock { state in
      let id = state.nextWatcher
      state.nextWatcher += 1
      state.watchers[id] = continuation
      return id
    }
    continuation.onTermination = { [weak self] _ in
      _ = self?.state.withLock { $0.watchers.removeValue(forKey: id) }
    }
    return stream
  }

  // MARK: What a user does

  /// Clicks an action: sends `ActivationToken`, then `ActionInvoked`, to the
  /// connection that posted the notification; then closes it (reason 2,
  /// dismissed) unless it is resident.
  ///
  /// - Returns: the activation token sent.
  /// - Throws: ``NotificationError`` `actions-unsupported` when the server
  ///   does not advertise actions, `unknown-notification`, or
  ///   `invalid-argument` when the notification has no such action.
  @discardableResult
  public func click(_ id: UInt32, action key: String = Notification.Action.defaultKey)
    throws(NotificationError)
    -> String
  {
    guard configuration.capabilities.contains(.actions) else {
      throw NotificationError(
        .actionsUnsupported, "this server does not advertise 'actions'; nothing can be clicked")
    }
    let (notification, token) = try state.withLock { state throws(NotificationError) in
      let notification = try Self.open(id, in: state)
      guard notification.actions.contains(where: { $0.key == key }) else {
        // The key came from the caller, the keys from a client: the error
        // names them in short, so that it stays far below what the bus accepts.
        let keys = notification.actions.prefix(20).map { Self.shortened($0.key) }
        throw NotificationError(
          .invalidArgument,
          "notification \(id) has no action '\(Self.shortened(key))'"
            + (keys.isEmpty
              ? " (it has no actions)"
              : " (its actions: \(keys.joined(separator: ", "))"
                + (notification.actions.count > keys.count ? ", …)" : ")")))
      }
      let token = "shieldbridge-notification-server-\(id)-\(state.nextToken)"
      state.nextToken += 1
      return (notification, token)
    }
    emit(NotificationsInterface.activationToken, to: notification.sender, id, token)
    emit(NotificationsInterface.actionInvoked, to: notification.sender, id, key)
    recorder?.record { line in
      line.member("event", "action")
      line.member("time", utcTimestamp())
      line.member("id", id)
      line.member("key", key)
      line.member("activation_token", token)
    }
    announce(.action(id: id, key: key, activationToken: token))
    if !notification.isResident { closeOpen(id, reason: .dismissed) }
    return token
  }

  /// Closes a notification as the user or the server would: `NotificationClosed` with `reason`.
  ///
  /// - Throws: ``NotificationError`` `unknown-notification`.
  public func close(_ id: UInt32, reason: CloseReason) throws(NotificationError) {
    _ = try state.withLock { state throws(NotificationError) in try Self.open(id, in: state) }
    closeOpen(id, reason: reason)
  }

  /// Answers a notification with text typed into KDE's inline reply field:
  /// `NotificationReplied`, then a close (reason 2) unless it is resident.
  ///
  /// - Throws: ``NotificationError`` `inline-reply-unsupported` without the
  ///   `inline-reply` capability, `unknown-notification`, or `invalid-argument`
  ///   when the notification did not ask for a reply (no `inline-reply` action).
  public func reply(_ id: UInt32, text: String) throws(NotificationError) {
    guard configuration.capabilities.contains(.inlineReply) else {
      throw NotificationError(
        .inlineReplyUnsupported, "this server does not advertise 'inline-reply'")
    }
    let notification = try state.withLock { state throws(NotificationError) in
      try Self.open(id, in: state)
    }
    guard notification.actions.contains(where: { $0.key == Notification.Action.inlineReplyKey })
    else {
      throw NotificationError(
        .invalidArgument, "notification \(id) has no 'inline-reply' action to answer")
    }
    emit(NotificationsInterface.notificationReplied, to: notification.sender, id, text)
    recorder?.record { line in
      line.member("event", "reply")
      line.member("time", utcTimestamp())
      line.member("id", id)
      line.member("text", text)
    }
    announce(.replied(id: id, text: text))
    if !notification.isResident { closeOpen(id, reason: .dismissed) }
  }

  // MARK: The D-Bus side

  private func interfaces() throws(DBusError) -> [Interface] {
    let standard = try Interface(
      NotificationsInterface.contract,
      methods: [
        // Read by `notify` itself: more actions or hints than are kept are skipped unread.
        Method(
          NotificationsInterface.notify,
          reading: { [weak self] call in
            guard let self else { throw DBusError(.failed, "the server has stopped") }
            return try self.notify(call)
          }),
        Method(NotificationsInterface.closeNotification) { [weak self] _, id in
          do throws(NotificationError) {
            try self?.close(id, reason: .closed)
          } catch {
            throw error.dbusError
          }
        },
        Method(NotificationsInterface.getCapabilities) { [configuration] _ in
          configuration.capabilities.map(\.rawValue)
        },
        Method(NotificationsInterface.getServerInformation) { [configuration] _ in
          let information = configuration.information
          return (information.name, information.vendor, information.version, information.specVersion)
        },
      ])
    return [standard, try controlInterface()]
  }

  /// Answers `Notify`: stores (or replaces) the notification, records it, and returns its id.
  ///
  /// The arguments are read with typed reads straight from the message (the
  /// dispatcher has checked the signature); only the hint values become
  /// ``DBusValue``s, since they can be of any type.
  private func notify(_ call: MethodCall) throws(DBusError) -> UInt32 {
    var reader = call.message.reader()
    let appName = try reader.read(String.self)
    let replacesID = try reader.read(UInt32.self)
    let icon = try reader.read(String.self)
    let summary = try reader.read(String.self)
    let body = try reader.read(String.self)
    // More actions than one notification can keep are skipped unread.
    let (actionStrings, allActions) = try reader.readStrings(atMost: actionReadLimit)
    // A hint value too large to keep is skipped before it is built.
    let hintEntries = try reader.readVariantEntries(limit: hintReadLimit)
    let expireTimeout = try reader.read(Int32.self)
    var actions: [Notification.Action] = []
    actions.reserveCapacity(actionStrings.count / 2)
    var index = 0
    while index + 1 < actionStrings.count {
      actions.append(
        Notification.Action(key: actionStrings[index], label: actionStrings[index + 1]))
      index += 2
    }
    let hints = hintEntries.compactMap { entry in
      entry.value.map { (name: HintName(rawValue: entry.key), value: DBusValue.variant($0)) }
    }
    var notification = ReceivedNotification(
      id: 0, replacesID: replacesID, sender: call.sender, appName: appName, icon: icon,
      summary: summary, body: body,
      actions: actions, hints: hints, expireTimeout: expireTimeout, time: utcTimestamp(),
      truncated: !allActions || hints.count < hintEntries.count)
    limits.apply(to: &notification)
    let generation: UInt64? = state.withLock { state in
      guard !state.isClosing else { return nil }
      if replacesID != 0, state.notifications.contains(replacesID) {
        notification.id = replacesID
      } else {
        notification.id = Self.allocateID(in: &state)
      }
      let generation = state.nextGeneration
      state.nextGeneration += 1
      keep(notification, generation: generation, in: &state)
      // Recorded before the lock is given back: a close of it (closeAll,
      // another client's CloseNotification) is recorded after it, never before.
      recorder?.record { line in
        line.member("event", "notify")
        notification.writeMembers(to: &line)
      }
      return generation
    }
    guard let generation else {
      throw DBusError(.failed, "the notification server is shutting down; nothing more is shown")
    }
    announce(.notified(notification))
    if expireTimeout > 0 {
      let id = notification.id
      timers.asyncAfter(deadline: .now() + .milliseconds(Int(expireTimeout))) { [weak self] in
        self?.expire(id, generation: generation)
      }
    }
    return configuration.answersZeroIDs ? 0 : notification.id
  }

  /// Stores `notification`, then drops the oldest until the kept ones are
  /// within ``Configuration/retainedLimit`` and ``Configuration/retainedBytes``.
  private func keep(_ notification: ReceivedNotification, generation: UInt64, in state: inout State) {
    let cost = notification.jsonByteCount
    if let replaced = state.notifications[notification.id] { state.keptBytes -= replaced.cost }
    let evicted = state.notifications.store(
      Stored(notification: notification, generation: generation, cost: cost), for: notification.id)
    state.keptBytes += cost
    for old in evicted { state.keptBytes -= old.value.cost }
    while state.keptBytes > configuration.retainedBytes, state.notifications.count > 1,
      let oldest = state.notifications.removeOldest()
    {
      state.keptBytes -= oldest.value.cost
    }
  }

  /// The notifications stored after the store numbered `cursor`, as one page
  /// of the control interface's `ListPage`: a JSON object with the
  /// notifications (at least one, if there are any, within ``listPageBytes``),
  /// the cursor of the next page, whether there are more, and the ``retention``.
  func listPage(after cursor: UInt64) -> String {
    let (entries, retention) = state.withLock { state in
      (state.notifications.entries(after: cursor), self.retention(of: state))
    }
    var writer = JSONWriter()
    writer.beginObject()
    writer.key("notifications")
    writer.beginArray()
    var next = cursor
    var listed = 0
    for entry in entries {
      if listed > 0, writer.count + entry.value.cost > Self.listPageBytes { break }
      writer.beginObject()
      entry.value.notification.writeMembers(to: &writer)
      writer.endObject()
      next = entry.sequence
      listed += 1
    }
    writer.endArray()
    writer.member("next", next)
    writer.member("more", listed < entries.count)
    writer.key("kept")
    writer.beginObject()
    writer.member("count", retention.count)
    writer.member("bytes", retention.bytes)
    writer.member("count_limit", retention.countLimit)
    writer.member("byte_limit", retention.byteLimit)
    writer.endObject()
    writer.endObject()
    return writer.text
  }

  /// Text from a client as an error names it: its first 200 bytes or so.
  static func shortened(_ text: String) -> String {
    let (start, _, cut) = NotificationLimits.prefix(text, jsonBytes: 200)
    return cut ? start + "…" : start
  }

  /// A fresh id: never 0, never one that is open.
  private static func allocateID(in state: inout State) -> UInt32 {
    while true {
      let id = state.nextID
      state.nextID = state.nextID == .max ? 1 : state.nextID + 1
      if id != 0, !state.notifications.contains(id) { return id }
    }
  }

  private func expire(_ id: UInt32, generation: UInt64) {
    let current = state.withLock { $0.notifications[id]?.generation == generation }
    if current { closeOpen(id, reason: .expired) }
  }

  /// The open notification `id`, or the error for a close, click or reply of an unknown one.
  private static func open(_ id: UInt32, in state: State) throws(NotificationError)
    -> ReceivedNotification
  {
    guard let stored = state.notifications[id] else {
      throw NotificationError(.unknownNotification, "no open notification with id \(id)")
    }
    return stored.notification
  }

  /// Removes an open notification and tells its sender why; does nothing if it is already gone.
  private func closeOpen(_ id: UInt32, reason: CloseReason) {
    let removed = state.withLock { state in
      let removed = state.notifications.remove(id)
      state.keptBytes -= removed?.cost ?? 0
      return removed
    }
    guard let removed else { return }
    emit(
      NotificationsInterface.notificationClosed, to: removed.notification.sender, id, reason.rawValue)
    recorder?.record { line in
      line.member("event", "closed")
      line.member("time", utcTimestamp())
      line.member("id", id)
      line.member("reason", reason.name)
      line.member("reason_code", reason.rawValue)
    }
    announce(.closed(id: id, reason: reason))
  }

  /// Sends one of the four signals to `destination` alone.
  private func emit<A: DBusArgument>(
    _ signal: SignalContract<UInt32, A>, to destination: BusName?, _ id: UInt32, _ argument: A
  ) {
    try? connection.emit(signal, path: NotificationsNames.path, destination: destination, id, argument)
  }

  private func announce(_ activity: Activity) {
    state.withLock { state in
      for watcher in state.watchers.values { watcher.yield(activity) }
    }
  }
}
