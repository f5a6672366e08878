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
    /// `DBUS_ERROR_IO_ERROR`.
    public static let ioError = Name(rawValue: "org.freedesktop.DBus.Error.IOError")
    /// `DBUS_ERROR_AUTH_FAILED`.
    public static let authFailed = Name(rawValue: "org.freedesktop.DBus.Error.AuthFailed")
    /// `DBUS_ERROR_NO_NETWORK`.
    public static let noNetwork = Name(rawValue: "org.freedesktop.DBus.Error.NoNetwork")
    /// `DBUS_ERROR_ADDRESS_IN_USE`.
    public static let addressInUse = Name(rawValue: "org.freedesktop.DBus.Error.AddressInUse")
    /// `DBUS_ERROR_FILE_NOT_FOUND`.
    public static let fileNotFound = Name(rawValue: "org.freedesktop.DBus.Error.FileNotFound")
    /// `DBUS_ERROR_FILE_EXISTS`.
    public static let fileExists = Name(rawValue: "org.freedesktop.DBus.Error.FileExists")
    /// `DBUS_ERROR_UNKNOWN_PROPERTY`.
    public static let unknownProperty = Name(rawValue: "org.freedesktop.DBus.Error.UnknownProperty")
    /// `DBUS_ERROR_PROPERTY_READ_ONLY`.
    public static let propertyReadOnly = Name(rawValue: "org.freedesktop.DBus.Error.PropertyReadOnly")
    /// `DBUS_ERROR_TIMED_OUT`: a timeout the bus or a service reports (``timeout`` is libdbus's own).
    public static let timedOut = Name(rawValue: "org.freedesktop.DBus.Error.TimedOut")
    /// `DBUS_ERROR_MATCH_RULE_NOT_FOUND`: `RemoveMatch` of a rule the connection did not add.
    public static let matchRuleNotFound = Name(rawValue: "org.freedesktop.DBus.Error.MatchRuleNotFound")
    /// `DBUS_ERROR_UNIX_PROCESS_ID_UNKNOWN`: the bus does not know the process of a connection.
    public static let unixProcessIdUnknown = Name(rawValue: "org.freedesktop.DBus.Error.UnixProcessIdUnknown")
    /// `DBUS_ERROR_INVALID_FILE_CONTENT`.
    public static let invalidFileContent = Name(rawValue: "org.freedesktop.DBus.Error.InvalidFileContent")
    /// `DBUS_ERROR_SELINUX_SECURITY_CONTEXT_UNKNOWN`.
    public static let selinuxSecurityContextUnknown = Name(
      rawValue: "org.freedesktop.DBus.Error.SELinuxSecurityContextUnknown")
    /// `DBUS_ERROR_ADT_AUDIT_DATA_UNKNOWN`.
    public static let adtAuditDataUnknown = Name(rawValue: "org.freedesktop.DBus.Error.AdtAuditDataUnknown")
    /// `DBUS_ERROR_OBJECT_PATH_IN_USE`.
    public static let objectPathInUse = Name(rawValue: "org.freedesktop.DBus.Error.ObjectPathInUse")
    /// `DBUS_ERROR_INCONSISTENT_MESSAGE`.
    public static let inconsistentMessage = Name(rawValue: "org.freedesktop.DBus.Error.InconsistentMessage")
    /// `DBUS_ERROR_INTERACTIVE_AUTHORIZATION_REQUIRED`.
    public static let interactiveAuthorizationRequired = Name(
      rawValue: "org.freedesktop.DBus.Error.InteractiveAuthorizationRequired")
    /// `DBUS_ERROR_NOT_CONTAINER`.
    public static let notContainer = Name(rawValue: "org.freedesktop.DBus.Error.NotContainer")
    /// Cancelled by the caller (a Swift task was cancelled); not sent by any peer.
    public static let cancelled = Name(rawValue: "org.freedesktop.DBus.Error.Cancelled")

    // The bus's failures to start a service it was asked to activate (`DBUS_ERROR_SPAWN_…`).

    /// `DBUS_ERROR_SPAWN_EXEC_FAILED`: the service's program could not be run.
    public static let spawnExecFailed = Name(rawValue: "org.freedesktop.DBus.Error.Spawn.ExecFailed")
    /// `DBUS_ERROR_SPAWN_FORK_FAILED`.
    public static let spawnForkFailed = Name(rawValue: "org.freedesktop.DBus.Error.Spawn.ForkFailed")
    /// `DBUS_ERROR_SPAWN_CHILD_EXITED`: the program exited before it owned the name.
    public static let spawnChildExited = Name(rawValue: "org.freedesktop.DBus.Error.Spawn.ChildExited")
    /// `DBUS_ERROR_SPAWN_CHILD_SIGNALED`: the program was killed before it owned the name.
    public static let spawnChildSignaled = Name(rawValue: "org.freedesktop.DBus.Error.Spawn.ChildSignaled")
    /// `DBUS_ERROR_SPAWN_FAILED`.
    public static let spawnFailed = Name(rawValue: "org.freedesktop.DBus.Error.Spawn.Failed")
    /// `DBUS_ERROR_SPAWN_SETUP_FAILED`.
    public static let spawnSetupFailed = Name(rawValue: "org.freedesktop.DBus.Error.Spawn.FailedToSetup")
    /// `DBUS_ERROR_SPAWN_CONFIG_INVALID`.
    public static let spawnConfigInvalid = Name(rawValue: "org.freedesktop.DBus.Error.Spawn.ConfigInvalid")
    /// `DBUS_ERROR_SPAWN_SERVICE_INVALID`: the service file is not valid.
    public static let spawnServiceInvalid = Name(rawValue: "org.freedesktop.DBus.Error.Spawn.ServiceNotValid")
    /// `DBUS_ERROR_SPAWN_SERVICE_NOT_FOUND`.
    public static let spawnServiceNotFound = Name(rawValue: "org.freedesktop.DBus.Error.Spawn.ServiceNotFound")
    /// `DBUS_ERROR_SPAWN_PERMISSIONS_INVALID`.
    public static let spawnPermissionsInvalid = Name(
      rawValue: "org.freedesktop.DBus.Error.Spawn.PermissionsInvalid")
    /// `DBUS_ERROR_SPAWN_FILE_INVALID`.
    public static let spawnFileInvalid = Name(rawValue: "org.freedesktop.DBus.Error.Spawn.FileInvalid")
    /// `DBUS_ERROR_SPAWN_NO_MEMORY`.
    public static let spawnNoMemory = Name(rawValue: "org.freedesktop.DBus.Error.Spawn.NoMemory")

    /// Whether this is one of the bus's failures to start a service (`org.freedesktop.DBus.Error.Spawn.…`).
    ///
    /// The family as a whole, not only the twelve names above, since a bus may
    /// add to it: to every caller here each means the same, the bus could not
    /// start what the call was for.
    public var isSpawnFailure: Bool { rawValue.hasPrefix("org.freedesktop.DBus.Error.Spawn.") }
  }

  /// Whether the bus could not start the service the call was for (``Name/isSpawnFailure``).
  public var isSpawnFailure: Bool { Name(rawValue: name).isSpawnFailure }
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
