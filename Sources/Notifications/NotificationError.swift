public import DBus

/// The one error type of the Notifications module: a stable code, a message for people,
/// and the D-Bus error behind it when there is one.
public struct NotificationError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What kind of failure; stable for scripts and tests.
  public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// There is no session bus (or no bus at the given address).
    public static let noBus = Code(rawValue: "no-bus")
    /// Nobody owns `org.freedesktop.Notifications` and the bus could not start anyone.
    public static let noServer = Code(rawValue: "no-server")
    /// The server (or the bus) did not answer within the timeout.
    public static let timeout = Code(rawValue: "timeout")
    /// Actions were asked for, but the server shows none.
    public static let actionsUnsupported = Code(rawValue: "actions-unsupported")
    /// Inline replies were asked for, but the server has none.
    public static let inlineReplyUnsupported = Code(rawValue: "inline-reply-unsupported")
    /// No notification with this id (it was closed, or never existed).
    public static let unknownNotification = Code(rawValue: "unknown-notification")
    /// The well-known name is taken by another server.
    public static let nameTaken = Code(rawValue: "name-taken")
    /// The server on the bus is not ShieldBridge's embedded server.
    public static let notEmbeddedServer = Code(rawValue: "not-embedded-server")
    /// A value given by the caller is not acceptable (an unknown action, a bad hint).
    public static let invalidArgument = Code(rawValue: "invalid-argument")
    /// The server answered with an error or a reply of the wrong type.
    public static let serverError = Code(rawValue: "server-error")
    /// A file (the record, the identifier store) could not be written or read.
    public static let file = Code(rawValue: "file")
    /// The connection to the bus was lost.
    public static let disconnected = Code(rawValue: "disconnected")

    static let errorNamePrefix = "org.shieldbridge.NotificationServer1.Error."
    /// The codes the embedded server sends as D-Bus errors, and their names after the prefix.
    static let errorNames: [(code: Code, name: String)] = [
      (.unknownNotification, "UnknownNotification"), (.actionsUnsupported, "ActionsUnsupported"),
      (.inlineReplyUnsupported, "InlineReplyUnsupported"), (.invalidArgument, "InvalidArgument"),
    ]

    /// The code of an error the embedded server sent, or `nil` for any other error name.
    init?(dbusErrorName name: String) {
      guard name.hasPrefix(Code.errorNamePrefix) else { return nil }
      let suffix = name.dropFirst(Code.errorNamePrefix.count)
      guard let match = Code.errorNames.first(where: { $0.name == suffix }) else { return nil }
      self = match.code
    }
  }

  public var code: Code
  public var message: String
  /// The D-Bus error that caused this one, if any.
  public var underlying: DBusError?

  public init(_ code: Code, _ message: String, underlying: DBusError? = nil) {
    self.code = code
    self.message = message
    self.underlying = underlying
  }

  public var description: String { message }

  /// The D-Bus error the embedded server answers with for this error.
  var dbusError: DBusError {
    let suffix = Code.errorNames.first { $0.code == code }?.name ?? "Failed"
    return DBusError(name: Code.errorNamePrefix + suffix, message: message)
  }

  /// Reads a D-Bus error from a call to the notification server, `doing` what (for the message).
  static func from(_ error: DBusError, doing action: String, timeout: Duration) -> NotificationError {
    switch DBusError.Name(rawValue: error.name) {
    case .serviceUnknown, .nameHasNoOwner:
      return NotificationError(
        .noServer,
        "no notification server: nothing owns org.freedesktop.Notifications on this bus and none could be started",
        underlying: error)
    case .noReply, .timeout:
      return NotificationError(
        .timeout, "the notification server did not answer \(action) within \(timeout.text)",
        underlying: error)
    case .noServer, .badAddress:
      return NotificationError(.noBus, "no message bus: \(error.message)", underlying: error)
    case .disconnected:
      return NotificationError(
        .disconnected, "the connection to the bus was lost", underlying: error)
    case .unknownInterface, .unknownMethod, .unknownObject:
      return NotificationError(
        .serverError, "the notification server does not implement \(action): \(error.message)",
        underlying: error)
    default:
      if error.isSpawnFailure {
        return NotificationError(
          .noServer,
          "no notification server is running, and the bus could not start one: \(error.message)",
          underlying: error)
      }
      if let code = Code(dbusErrorName: error.name) {
        return NotificationError(code, error.message, underlying: error)
      }
      return NotificationError(
        .serverError,
        "the notification server answered \(action) with \(error.name): \(error.message)",
        underlying: error)
    }
  }
}

extension Duration {
  /// "2 s", "250 ms": for messages.
  var text: String {
    let milliseconds = components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    return milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(milliseconds) ms"
  }

  /// The duration in whole milliseconds, at least 1 for a positive duration.
  var milliseconds: Int64 {
    let value = components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    return value == 0 && self > .zero ? 1 : value
  }
}
