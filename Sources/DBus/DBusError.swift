import CDBus

/// The one error type of the D-Bus layer: a D-Bus error name and a human message.
///
/// Errors that come back from a peer carry the peer's name and message
/// (`org.freedesktop.DBus.Error.ServiceUnknown`, …); errors found on this side
/// (an invalid name, a reply of the wrong type, a timeout) use the standard
/// names a peer would have used, so that callers match on one thing: ``name``.
public struct DBusError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The D-Bus error name, such as `org.freedesktop.DBus.Error.NoReply`.
  public var name: String
  /// What went wrong, in words.
  public var message: String

  public init(name: String, message: String) {
    self.name = name
    self.message = message
  }

  public var description: String { "\(name): \(message)" }

  /// Whether this is the error called `other` (compares names only).
  public func `is`(_ other: Name) -> Bool { name == other.rawValue }

  /// Makes an error with one of the standard names.
  public init(_ name: Name, _ message: String) {
    self.init(name: name.rawValue, message: message)
  }

  /// Standard D-Bus error names (`DBUS_ERROR_…` in `dbus-protocol.h`).
  public struct Name: RawRepresentable, Hashable, Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `DBUS_ERROR_FAILED`: a generic failure.
    public static let failed = Name(rawValue: "org.freedesktop.DBus.Error.Failed")
    /// `DBUS_ERROR_NO_MEMORY`.
    public static let noMemory = Name(rawValue: "org.freedesktop.DBus.Error.NoMemory")
    /// `DBUS_ERROR_SERVICE_UNKNOWN`: no one owns the name and it cannot be activated.
    public static let serviceUnknown = Name(rawValue: "org.freedesktop.DBus.Error.ServiceUnknown")
    /// `DBUS_ERROR_NAME_HAS_NO_OWNER`.
    public static let nameHasNoOwner = Name(rawValue: "org.freedesktop.DBus.Error.NameHasNoOwner")
    /// `DBUS_ERROR_NO_REPLY`: no reply within the timeout.
    public static let noReply = Name(rawValue: "org.freedesktop.DBus.Error.NoReply")
    /// `DBUS_ERROR_NO_SERVER`: no bus to connect to.
    public static let noServer = Name(rawValue: "org.freedesktop.DBus.Error.NoServer")
    /// `DBUS_ERROR_BAD_ADDRESS`.
    public static let badAddress = Name(rawValue: "org.freedesktop.DBus.Error.BadAddress")
    /// `DBUS_ERROR_NOT_SUPPORTED`.
    public static let notSupported = Name(rawValue: "org.freedesktop.DBus.Error.NotSupported")
    /// `DBUS_ERROR_TIMEOUT`.
    public static let timeout = Name(rawValue: "org.freedesktop.DBus.Error.Timeout")
    /// `DBUS_ERROR_DISCONNECTED`: the connection is closed.
    public static let disconnected = Name(rawValue: "org.freedesktop.DBus.Error.Disconnected")
    /// `DBUS_ERROR_INVALID_ARGS`: arguments of the wrong type or value.
    public static let invalidArgs = Name(rawValue: "org.freedesktop.DBus.Error.InvalidArgs")
    /// `DBUS_ERROR_INVALID_SIGNATURE`.
    public static let invalidSignature = Name(rawValue: "org.freedesktop.DBus.Error.InvalidSignature")
    /// `DBUS_ERROR_UNKNOWN_METHOD`.
    public static let unknownMethod = Name(rawValue: "org.freedesktop.DBus.Error.UnknownMethod")
    /// `DBUS_ERROR_UNKNOWN_OBJECT`.
    public static let unknownObject = Name(rawValue: "org.freedesktop.DBus.Error.UnknownObject")
    /// `DBUS_ERROR_UNKNOWN_INTERFACE`.
    public static let unknownInterface = Name(rawValue: "org.freedesktop.DBus.Error.UnknownInterface")
    /// `DBUS_ERROR_ACCESS_DENIED`.
    public static let accessDenied = Name(rawValue: "org.freedesktop.DBus.Error.AccessDenied")
    /// `DBUS_ERROR_LIMITS_EXCEEDED`.
    public static let limitsExceeded = Name(rawValue: "org.freedesktop.DBus.Error.LimitsExceeded")
    /// `DBUS_ERROR_MATCH_RULE_INVALID`.
    public static let matchRuleInvalid = Name(rawValue: "org.freedesktop.DBus.Error.MatchRuleInvalid")
    /// Cancelled by the caller (a Swift task was cancelled); not sent by any peer.
    public static let cancelled = Name(rawValue: "org.freedesktop.DBus.Error.Cancelled")
  }
}

extension DBusError {
  /// Runs `body` with a fresh libdbus error and turns a set error into a ``DBusError``.
  ///
  /// Every libdbus call that reports through a `DBusError*` goes through here,
  /// so the C error is always initialised and freed exactly once.
  ///
  /// - Throws: the libdbus error, when `body` set one.
  static func check<R>(_ body: (UnsafeMutablePointer<CDBus.DBusError>) -> R) throws(DBusError) -> R {
    var error = CDBus.DBusError()
    dbus_error_init(&error)
    defer { dbus_error_free(&error) }
    let result = body(&error)
    if CDBus_errorIsSet(&error) != 0 {
      throw DBusError(
        name: error.name.map { String(cString: $0) } ?? Name.failed.rawValue,
        message: error.message.map { String(cString: $0) } ?? "")
    }
    return result
  }

  /// The error for an allocation libdbus could not make.
  static let outOfMemory = DBusError(.noMemory, "libdbus could not allocate memory")
}
