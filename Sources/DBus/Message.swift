import CDBus
import Posix

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A D-Bus message: a method call, a method return, an error or a signal.
///
/// Owns one reference to the libdbus `DBusMessage`; the reference is dropped
/// in `deinit`. A message is built on one thread and then only read, so it can
/// be shared between threads once sent or received.
public final class Message: @unchecked Sendable {
  let raw: OpaquePointer

  /// Takes over one existing reference to `raw`.
  init(taking raw: OpaquePointer) {
    self.raw = raw
  }

  /// Adds a reference to `raw` and wraps it.
  init(retaining raw: OpaquePointer) {
    dbus_message_ref(raw)
    self.raw = raw
  }

  deinit {
    dbus_message_unref(raw)
  }

  /// The kind of a message (`DBUS_MESSAGE_TYPE_…`).
  public enum Kind: Sendable, Equatable {
    case methodCall
    case methodReturn
    case error
    case signal
    case invalid
  }

  /// Builds a method call.
  ///
  /// - Parameters:
  ///   - destination: The bus name to send it to; `nil` on a peer-to-peer connection.
  ///   - path: The object to call.
  ///   - interface: The interface of the method; optional in the protocol, but
  ///     ShieldBridge always names it.
  ///   - member: The method name.
  /// - Throws: `org.freedesktop.DBus.Error.NoMemory` when libdbus cannot allocate it.
  public static func methodCall(
    destination: BusName?, path: ObjectPath, interface: InterfaceName?, member: MemberName
  ) throws(DBusError) -> Message {
    guard
      let raw = dbus_message_new_method_call(
        destination?.rawValue, path.rawValue, interface?.rawValue, member.rawValue)
    else { throw .outOfMemory }
    return Message(taking: raw)
  }

  /// Builds a signal.
  ///
  /// - Throws: `org.freedesktop.DBus.Error.NoMemory` when libdbus cannot allocate it.
  public static func signal(
    path: ObjectPath, interface: InterfaceName, member: MemberName, destination: BusName? = nil
  ) throws(DBusError) -> Message {
    guard let raw = dbus_message_new_signal(path.rawValue, interface.rawValue, member.rawValue) else {
      throw .outOfMemory
    }
    let message = Message(taking: raw)
    if let destination, dbus_message_set_destination(raw, destination.rawValue) == 0 {
      throw .outOfMemory
    }
    return message
  }

  /// A new message with the same header fields and arguments, not yet sent (its serial is 0).
  ///
  /// libdbus takes several microseconds for every argument appended at the
  /// top level of a message; a program that sends the same call many times
  /// can build it once and send copies.
  ///
  /// - Throws: `org.freedesktop.DBus.Error.NoMemory` when libdbus cannot allocate it.
  public func copy() throws(DBusError) -> Message {
    guard let copy = dbus_message_copy(raw) else { throw .outOfMemory }
    return Message(taking: copy)
  }

  /// Builds the method return for this method call.
  ///
  /// - Throws: `org.freedesktop.DBus.Error.NoMemory` when libdbus cannot allocate it.
  public func makeReturn() throws(DBusError) -> Message {
    guard let raw = dbus_message_new_method_return(raw) else { throw .outOfMemory }
    return Message(taking: raw)
  }

  /// The most bytes of text an error reply carries; ``makeError(_:)`` cuts a longer message.
  public static let errorTextLimit = 4096

  /// Builds an error reply to this method call.
  ///
  /// An invalid error name (one a peer or a handler made up) is replaced by
  /// `org.freedesktop.DBus.Error.Failed`, since libdbus would abort on it. A
  /// message over ``errorTextLimit`` bytes is cut there and says how long it
  /// was: an error that quotes a peer's argument (a multi-megabyte app name)
  /// would otherwise send it all back, and one near the bus's message limit
  /// would make a reply the bus refuses, dropping this connection.
  ///
  /// - Throws: `org.freedesktop.DBus.Error.NoMemory` when libdbus cannot allocate it.
  public func makeError(_ error: DBusError) throws(DBusError) -> Message {
    let name = (try? ErrorName(error.name))?.rawValue ?? DBusError.Name.failed.rawValue
    let text = Self.errorText(error.message)
    guard let reply = dbus_message_new_error(raw, name, text) else { throw .outOfMemory }
    return Message(taking: reply)
  }

  /// `message` without NUL bytes, cut at a character boundary to ``errorTextLimit`` bytes.
  static func errorText(_ message: String) -> String {
    let text = message.containsNUL ? message.replacingAll("\0", with: " ") : message
    let count = text.utf8.count
    guard count > errorTextLimit else { return text }
    let suffix = "… (\(count) bytes in all)"
    let budget = errorTextLimit - suffix.utf8.count
    // One byte more than is kept, to see whether the cut falls inside a character.
    let bytes = Array(text.utf8.prefix(budget + 1))
    var end = budget
    while end > 0 && bytes[end] & 0xC0 == 0x80 { end -= 1 }
    return String(decoding: bytes[..<end], as: UTF8.self) + suffix
  }

  /// The kind of the message.
  public var kind: Kind {
    switch dbus_message_get_type(raw) {
    case DBUS_MESSAGE_TYPE_METHOD_CALL: .methodCall
    case DBUS_MESSAGE_TYPE_METHOD_RETURN: .methodReturn
    case DBUS_MESSAGE_TYPE_ERROR: .error
    case DBUS_MESSAGE_TYPE_SIGNAL: .signal
    default: .invalid
    }
  }

  /// The object path, if the message has one.
  public var path: ObjectPath? {
    dbus_message_get_path(raw).map { ObjectPath(trusted: String(cString: $0)) }
  }

  /// The interface, if the message has one.
  public var interface: InterfaceName? {
    dbus_message_get_interface(raw).map { InterfaceName(trusted: String(cString: $0)) }
  }

  /// The member (method or signal name), if the message has one.
  public var member: MemberName? {
    dbus_message_get_member(raw).map { MemberName(trusted: String(cString: $0)) }
  }

  /// The unique name of the sender, as stamped by the bus.
  public var sender: BusName? { dbus_message_get_sender(raw).map { BusName(trusted: String(cString: $0)) } }

  /// The destination bus name, if any.
  public var destination: BusName? {
    dbus_message_get_destination(raw).map { BusName(trusted: String(cString: $0)) }
  }

  /// The error name of an error message.
  public var errorName: String? { dbus_message_get_error_name(raw).map { String(cString: $0) } }

  /// The signature of the body.
  public var signature: String { dbus_message_get_signature(raw).map { String(cString: $0) } ?? "" }

  /// Whether the signature of the body is `text`, compared without building a `String`.
  func hasSignature(_ text: String) -> Bool {
    guard let signature = dbus_message_get_signature(raw) else { return text.isEmpty }
    return text.withCString { strcmp($0, signature) == 0 }
  }

  /// The serial number; 0 until the message is sent.
  public var serial: UInt32 { dbus_message_get_serial(raw) }

  /// The serial of the call this message replies to; 0 if it is not a reply.
  public var replySerial: UInt32 { dbus_message_get_reply_serial(raw) }

  /// Whether the caller said it wants no reply.
  public var noReplyExpected: Bool {
    get { dbus_message_get_no_reply(raw) != 0 }
    set { dbus_message_set_no_reply(raw, newValue ? 1 : 0) }
  }

  /// Whether the bus may start the destination's service to deliver the message.
  public var autoStart: Bool {
    get { dbus_message_get_auto_start(raw) != 0 }
    set { dbus_message_set_auto_start(raw, newValue ? 1 : 0) }
  }

  /// Whether this is the signal `member` of `interface`.
  public func isSignal(_ interface: InterfaceName, _ member: String) -> Bool {
    dbus_message_is_signal(raw, interface.rawValue, member) != 0
  }

  /// The error a reply carries: `nil` for a method return, the peer's error for an error message.
  ///
  /// The message text is the first argument when it is a string, as the spec says.
  public var error: DBusError? {
    guard kind == .error else { return nil }
    var reader = reader()
    let text = reader.nextIs(.string) ? (try? reader.read(String.self)) : nil
    return DBusError(name: errorName ?? DBusError.Name.failed.rawValue, message: text ?? "")
  }
}
