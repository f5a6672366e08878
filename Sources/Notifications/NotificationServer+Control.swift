public import DBus
public import JSON

extension NotificationServer {
  /// `org.shieldbridge.NotificationServer1`: what a user would do, over D-Bus,
  /// so that `shieldbridge notification-server click|close|reply|list` can
  /// drive a server running in another process.
  func controlInterface() throws(DBusError) -> Interface {
    try Interface(
      NotificationsNames.controlInterface.rawValue,
      methods: [
        try Method(
          "Click", inputs: "us", outputs: "s", inputNames: ["id", "action_key"],
          outputNames: ["token"]
        ) {
          [weak self] call in
          let (id, key) = try call.decode(UInt32.self, String.self)
          return [
            .string(
              try NotificationServer.answering { () throws(NotificationError) in
                try self?.click(id, action: key) ?? ""
              })
          ]
        },
        try Method("Close", inputs: "uu", inputNames: ["id", "reason"]) { [weak self] call in
          let (id, code) = try call.decode(UInt32.self, UInt32.self)
          guard let reason = CloseReason(rawValue: code) else {
            throw DBusError(
              .invalidArgs,
              "a close reason is 1 (expired), 2 (dismissed), 3 (closed) or 4 (undefined), not \(code)"
            )
          }
          try NotificationServer.answering { () throws(NotificationError) in
            try self?.close(id, reason: reason)
          }
          return []
        },
        try Method("Reply", inputs: "us", inputNames: ["id", "text"]) { [weak self] call in
          let (id, text) = try call.decode(UInt32.self, String.self)
          try NotificationServer.answering { () throws(NotificationError) in
            try self?.reply(id, text: text)
          }
          return []
        },
        try Method("List", outputs: "s", outputNames: ["notifications"]) { [weak self] _ in
          [.string(JSONValue.array((self?.notifications ?? []).map(\.json)).serialized)]
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
    let reply = try await call("Click", [.uint32(id), .string(action)])
    do {
      return try reply.decode(String.self)
    } catch {
      throw NotificationError(.serverError, "the server answered Click with '\(reply.signature)'")
    }
  }

  /// Closes a notification with `reason`.
  public func close(_ id: UInt32, reason: CloseReason) async throws(NotificationError) {
    _ = try await call("Close", [.uint32(id), .uint32(reason.rawValue)])
  }

  /// Replies to a notification through the inline reply field.
  public func reply(_ id: UInt32, text: String) async throws(NotificationError) {
    _ = try await call("Reply", [.uint32(id), .string(text)])
  }

  /// The open notifications the server keeps in memory, as the JSON array it returns.
  public func list() async throws(NotificationError) -> JSONValue {
    let reply = try await call("List", [])
    guard let text = try? reply.decode(String.self), let json = try? JSONValue(parsing: text),
      json.arrayValue != nil
    else {
      throw NotificationError(
        .serverError, "the server answered List with something other than a JSON array")
    }
    return json
  }

  private func call(_ method: String, _ arguments: [DBusValue]) async throws(NotificationError)
    -> Message
  {
    do {
      let message = try Message.methodCall(
        destination: NotificationsNames.busName, path: NotificationsNames.path,
        interface: NotificationsNames.controlInterface, member: try MemberName(method))
      message.autoStart = false
      try message.append(values: arguments)
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
      throw NotificationError.from(error, doing: method, timeout: timeout)
    }
  }
}
