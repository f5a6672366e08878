import CDBus

// libdbus aborts the process when it is handed an invalid name or path, so every
// name is validated once, in a throwing initialiser, before it can reach C. The
// validators are libdbus's own `dbus_validate_*`, which only report; a string
// with a NUL byte is refused first, since C would see only its first part.

/// Validates `string` with one of libdbus's `dbus_validate_*` functions.
private func validateName(
  _ string: String, as kind: String,
  _ validator: (UnsafePointer<CChar>, UnsafeMutablePointer<CDBus.DBusError>) -> dbus_bool_t
) throws(DBusError) {
  guard !string.utf8.contains(0) else {
    throw DBusError(.invalidArgs, "invalid \(kind) '\(string)': contains a NUL byte")
  }
  let valid: dbus_bool_t
  do {
    valid = try DBusError.check { error in string.withCString { validator($0, error) } }
  } catch {
    throw DBusError(.invalidArgs, "invalid \(kind) '\(string)': \(error.message)")
  }
  guard valid != 0 else { throw DBusError(.invalidArgs, "invalid \(kind) '\(string)'") }
}

/// A string that is valid as one kind of D-Bus name: a bus name, an object
/// path, an interface, member or error name.
///
/// A conforming type declares its stored `rawValue`, how to wrap a
/// ``ValidatedName``, and its validation; the throwing initialiser, the
/// failable `init?(rawValue:)`, the description and `Hashable` follow from
/// those, the same for every kind (as zbus_names derives its conversions
/// with `impl_try_from!`). Only this module can make a ``ValidatedName``, so
/// every name that reaches libdbus has passed `validate(_:)` or came from
/// libdbus itself.
public protocol DBusName: RawRepresentable<String>, Hashable, Sendable, CustomStringConvertible {
  /// Wraps a string already known to be valid.
  init(validated name: ValidatedName<Self>)

  /// Throws unless `rawValue` is valid as this kind of name.
  ///
  /// - Throws: `org.freedesktop.DBus.Error.InvalidArgs` naming the problem.
  static func validate(_ rawValue: String) throws(DBusError)
}

/// A string that has been validated as a `Name`, or that libdbus has validated
/// (in a message it parsed or built). Only the `DBus` module makes one.
public struct ValidatedName<Name: DBusName>: Sendable {
  /// The name as it is on the wire.
  public let rawValue: String

  init(trusted rawValue: String) { self.rawValue = rawValue }
}

extension DBusName {
  /// Validates `rawValue` as this kind of name.
  ///
  /// - Throws: `org.freedesktop.DBus.Error.InvalidArgs` naming the problem.
  public init(_ rawValue: String) throws(DBusError) {
    try Self.validate(rawValue)
    self.init(validated: ValidatedName(trusted: rawValue))
  }

  /// `nil` when `rawValue` is not valid as this kind of name.
  public init?(rawValue: String) {
    guard (try? Self.validate(rawValue)) != nil else { return nil }
    self.init(validated: ValidatedName(trusted: rawValue))
  }

  /// For names libdbus has already validated (in a message it parsed or built).
  init(trusted rawValue: String) { self.init(validated: ValidatedName(trusted: rawValue)) }

  public var description: String { rawValue }
}

/// A bus name: a unique connection name (`:1.42`) or a well-known name (`org.freedesktop.Notifications`).
public struct BusName: DBusName {
  public let rawValue: String
  public init(validated name: ValidatedName<BusName>) { rawValue = name.rawValue }

  /// Validates with `dbus_validate_bus_name`.
  public static func validate(_ rawValue: String) throws(DBusError) {
    try validateName(rawValue, as: "bus name") { dbus_validate_bus_name($0, $1) }
  }

  /// Whether this is a unique connection name (it starts with `:`).
  public var isUnique: Bool { rawValue.hasPrefix(":") }

  /// `org.freedesktop.DBus`, the bus itself.
  public static let bus = BusName(trusted: "org.freedesktop.DBus")
}

/// An object path such as `/org/freedesktop/Notifications`.
public struct ObjectPath: DBusName {
  public let rawValue: String
  public init(validated path: ValidatedName<ObjectPath>) { rawValue = path.rawValue }

  /// Validates with `dbus_validate_path`.
  public static func validate(_ rawValue: String) throws(DBusError) {
    try validateName(rawValue, as: "object path") { dbus_validate_path($0, $1) }
  }

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
public struct InterfaceName: DBusName {
  public let rawValue: String
  public init(validated name: ValidatedName<InterfaceName>) { rawValue = name.rawValue }

  /// Validates with `dbus_validate_interface`.
  public static func validate(_ rawValue: String) throws(DBusError) {
    try validateName(rawValue, as: "interface name") { dbus_validate_interface($0, $1) }
  }

  /// `org.freedesktop.DBus`.
  public static let bus = InterfaceName(trusted: "org.freedesktop.DBus")
  /// `org.freedesktop.DBus.Introspectable`.
  public static let introspectable = InterfaceName(trusted: "org.freedesktop.DBus.Introspectable")
  /// `org.freedesktop.DBus.Peer`.
  public static let peer = InterfaceName(trusted: "org.freedesktop.DBus.Peer")
  /// `org.freedesktop.DBus.Properties`.
  public static let properties = InterfaceName(trusted: "org.freedesktop.DBus.Properties")
  /// `org.freedesktop.DBus.Local`, for messages libdbus makes itself (`Disconnected`).
  public static let local = InterfaceName(trusted: "org.freedesktop.DBus.Local")
}

/// A method or signal name such as `Notify`.
public struct MemberName: DBusName {
  public let rawValue: String
  public init(validated name: ValidatedName<MemberName>) { rawValue = name.rawValue }

  /// Validates with `dbus_validate_member`.
  public static func validate(_ rawValue: String) throws(DBusError) {
    try validateName(rawValue, as: "member name") { dbus_validate_member($0, $1) }
  }
}

/// An error name such as `org.freedesktop.DBus.Error.Failed`.
public struct ErrorName: DBusName {
  public let rawValue: String
  public init(validated name: ValidatedName<ErrorName>) { rawValue = name.rawValue }

  /// Validates with `dbus_validate_error_name`.
  public static func validate(_ rawValue: String) throws(DBusError) {
    try validateName(rawValue, as: "error name") { dbus_validate_error_name($0, $1) }
  }
}
