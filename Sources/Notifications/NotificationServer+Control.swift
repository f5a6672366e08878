public import DBus
public import JSON

extension NotificationServer {
  /// `org.shieldbridge.NotificationServer1`: what a user would do, over D-Bus,
  /// so that `shieldbridge notification-server click|close|reply|list` can
  /// drive a server running in another process.
  ///
  /// `ListPage(t after) → s page` lists the kept notifications a page at a
  /// time (see ``listPage(after:)``): every answer stays far below what the bus
  /// accepts, however many notifications are kept and however large they are.
  func controlInterface() throws(DBusError) -> Interface {
    try Interface(
      NotificationServerInterface.contract,
      methods: [
        Method(NotificationServerInterface.click) { [weak self] _, id, key in
          let token = try NotificationServer.answering { () throws(NotificationError) in
            try self?.click(id, action: key) ?? ""
          }
          return token
        },
        Method(NotificationServerInterface.close) { [weak self] _, id, code in
          guard let reason = CloseReason(rawValue: code) else {
            throw DBusError(
              .invalidArgs,
              "a close reason is 1 (expired), 2 (dismissed), 3 (closed) or 4 (undefined), not \(code)"
            )
          }
          try NotificationServer.answering { () throws(NotificationError) in
            try self?.close(id, reason: reason)
          }
        },
        Method(NotificationServerInterface.reply) { [weak self] _, id, text in
          try NotificationServer.answering { () throws(NotificationError) in
            try self?.reply(id, text: text)
          }
        },
        Method(NotificationServerInterface.listPage) { [weak self] _, cursor in
          let page: String? = self?.listPage(after: cursor)
          return page ?? "{\"notifications\":[]}"
        },
      ])
  }

  /// Runs `body` and turns its error into the D-Bus error reply.
  private static func answering<T>(_ body: () throws(NotificationError) -> T) throws(DBusError) -> T {
    do {
      return try body()
    } catch {
      throw error.dbusError
    }
  }
}

/// Drives an embedded server running in another process, over its control interface.
public struct NotificationServerControl: Sendable {
  public let connection: Connection
  public let timeout: Duration

  public init(connection: Connection, timeout: Duration = .seconds(2)) {
    self.connection = connection
    self.timeout = timeout
  }

  /// Clicks an action of a notification; returns the activation token sent with it.
  ///
  /// - Throws: ``NotificationError`` `no-server`, `not-embedded-server` when
  ///   another server owns the name, or the server's refusal.
  public func click(_ id: UInt32, action: String = Notification.Action.defaultKey)
    async throws(NotificationError)
    -> String
  {
    let method = NotificationServerInterface.click
    return try Self.answer(method, try await send(try Self.request(method, id, action), method.name))
  }

  /// Closes a notification with `reason`.
  public func close(_ id: UInt32, reason: CloseReason) async throws(NotificationError) {
    let method = NotificationServerInterface.close
    try Self.answer(method, try await send(try Self.request(method, id, reason.rawValue), method.name))
  }

  /// Replies to a notification through the inline reply field.
  public func reply(_ id: UInt32, text: String) async throws(NotificationError) {
    let method = NotificationServerInterface.reply
    try Self.answer(method, try await send(try Self.request(method, id, text), method.name))
  }

  /// The open notifications the server keeps in memory, least recently posted first, as a JSON array.
  ///
  /// They come a page at a time; a notification replaced while the pages
  /// come can be listed twice, its old content and its new.
  public func list() async throws(NotificationError) -> JSONValue {
    var notifications: [JSONValue] = []
    var cursor: UInt64 = 0
    // Each page ends further on (a server that says otherwise ends the list);
    // the bound only stops one that is flooded without end while it is listed.
    for _ in 0..<1_000 {
      let page = try await page(after: cursor)
      notifications += page["notifications"]?.arrayValue ?? []
      guard page["more"]?.boolValue == true,
        let next = page["next"]?.integerValue.flatMap(UInt64.init(exactly:)), next > cursor
      else { break }
      cursor = next
    }
    return .array(notifications)
  }

  /// How many notifications the server keeps and how many bytes they take.
  public func retention() async throws(NotificationError) -> NotificationServer.Retention {
    let kept = try await page(after: .max)["kept"]
    guard let count = kept?["count"]?.integerValue, let bytes = kept?["bytes"]?.integerValue,
      let countLimit = kept?["count_limit"]?.integerValue,
      let byteLimit = kept?["byte_limit"]?.integerValue
    else {
      throw NotificationError(.serverError, "the server answered ListPage without what it keeps")
    }
    return NotificationServer.Retention(
      count: Int(clamping: count), bytes: Int(clamping: bytes), countLimit: Int(clamping: countLimit),
      byteLimit: Int(clamping: byteLimit))
  }

  /// One page of `ListPage`: the notifications stored after `cursor`.
  private func page(after cursor: UInt64) async throws(NotificationError) -> JSONValue {
    let method = NotificationServerInterface.listPage
    let text = try Self.answer(method, try await send(try Self.request(method, cursor), method.name))
    guard let json = try? JSONValue(parsing: text),
      json["notifications"]?.arrayValue != nil
    else {
      throw NotificationError(
        .serverError, "the server answered ListPage with something other than a page of notifications")
    }
    return json
  }

  // Each method builds its call and reads its answer here, and awaits `send`,
  // which is not generic: Swift 6.3 frees an async frame generic over two
  // packs out of order when the call it awaits throws a `NotificationError`
  // ("freed pointer was not the last allocation").
  private static func request<each Input: DBusArgument, each Output: DBusArgument>(
    _ method: MethodContract<(repeat each Input) -> (repeat each Output)>, _ inputs: repeat each Input
  ) throws(NotificationError) -> Message {
    do {
      let message = try method.message(
        destination: NotificationsNames.busName, path: NotificationsNames.path, repeat each inputs)
      message.autoStart = false
      return message
    } catch {
      throw NotificationError(.invalidArgument, "\(method.name) cannot be sent: \(error.message)", underlying: error)
    }
  }

  private static func answer<each Input: DBusArgument, each Output: DBusArgument>(
    _ method: MethodContract<(repeat each Input) -> (repeat each Output)>, _ reply: Message
  ) throws(NotificationError) -> (repeat each Output) {
    do {
      return try method.reply(from: reply)
    } catch {
      throw NotificationError(.serverError, "the server's answer: \(error.message)", underlying: error)
    }
  }

  private func send(_ message: Message, _ method: MemberName) async throws(NotificationError) -> Message {
    do {
      return try await connection.call(message, timeout: timeout)
    } catch
      where error.is(.unknownInterface) || error.is(.unknownObject) || error.is(.unknownMethod)
    {
      throw NotificationError(
        .notEmbeddedServer,
        "the notification server on this bus is not shieldbridge's embedded server; it cannot be driven",
        underlying: error)
    } catch {
      if let known = NotificationError.Code(dbusErrorName: error.name) {
        throw NotificationError(known, error.message, underlying: error)
      }
      throw NotificationError.from(error, doing: method.rawValue, timeout: timeout)
    }
  }
}
