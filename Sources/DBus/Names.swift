import CDBus

// libdbus aborts the process when it is handed an invalid name or path, so every
// name is validated once, in a throwing initialiser, before it can reach C. The
// validators are libdbus's own `dbus_validate_*`, which only report; a string
// with a NUL byte is refused first, since C would see only its first part.

/// Validates `string` with one of libdbus's `dbus_validate_*` functions.
private func validate(
  _ string: String, as kind: String, errorName: DBusError.Name,
  _ validator: (UnsafePointer<CChar>, UnsafeMutablePointer<CDBus.DBusError>) -> dbus_bool_t
) throws(DBusError) {
  guard !string.utf8.contains(0) else {
    throw DBusError(errorName, "invalid \(kind) '\(string)': contains a NUL byte")
  }
  let valid: dbus_bool_t
  do {
    valid = try DBusError.check { error in string.withCString { validator($0, error) } }
  } catch {
    throw DBusError(errorName, "invalid \(kind) '\(string)': \(error.message)")
  }
  guard valid != 0 else { throw DBusError(errorName, "invalid \(kind) '\(string)'") }
}

/// A bus name: a unique connection name (`:1.42`) or a well-known name (`org.freedesktop.Notifications`).
public struct BusName: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  public let rawValue: String

  /// Validates `rawValue` as a bus name.
  ///
  /// - Throws: `org.freedesktop.DBus.Error.InvalidArgs` naming the problem.
  public init(_ rawValue: String) throws(DBusError) {
    try validate(rawValue, as: "bus name", errorName: .invalidArgs) { dbus_validate_bus_name($0, $1) }
    self.rawValue = rawValue
  }

  public init?(rawValue: String) {
    guard let name = try? BusName(rawValue) else { return nil }
    self = name
  }

  private init(trusted: String) { rawValue = trusted }

  /// Whether this is a unique connection name (it starts with `:`).
  public var isUnique: Bool { rawValue.hasPrefix(":") }

  public var description: String { rawValue }

  /// `org.freedesktop.DBus`, the bus itself.
  public static let bus = BusName(trusted: "org.freedesktop.DBus")
}

/// An object path such as `/org/freedesktop/Notifications`.
public struct ObjectPath: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  public let rawValue: String

  /// Validates `rawValue` as an object path.
  ///
  /// - Throws: `org.freedesktop.DBus.Error.InvalidArgs` naming the problem.
  public init(_ rawValue: String) throws(DBusError) {
    try validate(rawValue, as: "object path", errorName: .invalidArgs) { dbus_validate_path($0, $1) }
    self.rawValue = rawValue
  }

  public init?(rawValue: String) {
    guard let path = try? ObjectPath(rawValue) else { return nil }
    self = path
  }

  private init(trusted: String) { rawValue = trusted }

  public var description: String { rawValue }

  /// `/`.
  public static let root = ObjectPath(trusted: "/")
  /// `/org/freedesktop/DBus`, the bus object.
  public static let bus = ObjectPath(trusted: "/org/freedesktop/DBus")

  /// The path of the parent object, or `nil` for `/`.
  public var parent: ObjectPath? {
    guard rawValue != "/", let slash = rawValue.lastIndex(of: "/") else { return nil }
    return slash == rawValue.startIndex ? .root : ObjectPath(trusted: String(rawValue[..<slash]))
  }

  /// Whether `other` lies below this path (not equal to it).
  public func isAncestor(of other: ObjectPath) -> Bool {
    if rawValue == "/" { return other.rawValue != "/" }
    return other.rawValue.hasPrefix(rawValue + "/")
  }
}

/// An interface name such as `org.freedesktop.Notifications`.
public struct InterfaceName: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  public let rawValue: String

  /// Validates `rawValue` as an interface name.
  ///
  /// - Throws: `org.freedesktop.DBus.Error.InvalidArgs` naming the problem.
  public init(_ rawValue: String) throws(DBusError) {
    try validate(rawValue, as: "interface name", errorName: .invalidArgs) { dbus_validate_interface($0, $1) }
    self.rawValue = rawValue
  }

  public init?(rawValue: String) {
    guard let name = try? InterfaceName(rawValue) else { return nil }
    self = name
  }

  private init(trusted: String) { rawValue = trusted }

  public var description: String { rawValue }

  /// `org.freedesktop.DBus`.
  public static let bus = InterfaceName(trusted: "org.freedesktop.DBus")
  /// `org.freedesktop.DBus.Introspectable`.
  public static let introspectable = InterfaceName(trusted: "org.freedesktop.DBus.Introspectable")
  /// `org.freedesktop.DBus.Peer`.
  public static let peer = InterfaceName(trusted: "org.freedesktop.DBus.Peer")
  /// `org.freedesktop.DBus.Local`, for messages libdbus makes itself (`Disconnected`).
  public static let local = InterfaceName(trusted: "org.freedesktop.DBus.Local")
}

/// A method or signal name such as `Notify`.
public struct MemberName: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  public let rawValue: String

  /// Validates `rawValue` as a member name.
  ///
  /// - Throws: `org.freedesktop.DBus.Error.InvalidArgs` naming the problem.
  public init(_ rawValue: String) throws(DBusError) {
    try validate(rawValue, as: "member name", errorName: .invalidArgs) { dbus_validate_member($0, $1) }
    self.rawValue = rawValue
  }

  public init?(rawValue: String) {
    guard let name = try? MemberName(rawValue) else { return nil }
    self = name
  }

  public var description: String { rawValue }
}

/// An error name such as `org.freedesktop.DBus.Error.Failed`.
public struct ErrorName: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  public let rawValue: String

  /// Validates `rawValue` as an error name.
  ///
  /// - Throws: `org.freedesktop.DBus.Error.InvalidArgs` naming the problem.
  public init(_ rawValue: String) throws(DBusError) {
    try validate(rawValue, as: "error name", errorName: .invalidArgs) { dbus_validate_error_name($0, $1) }
    self.rawValue = rawValue
  }

  public init?(rawValue: String) {
    guard let name = try? ErrorName(rawValue) else { return nil }
    self = name
  }

  public var description: String { rawValue }
}
