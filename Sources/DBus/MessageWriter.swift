import CDBus

/// Appends arguments to a message being built.
///
/// Everything is checked before it reaches libdbus (which aborts on invalid
/// input): strings must not contain NUL, containers must hold what their type
/// says. When appending fails the message is left incomplete and must not be sent.
public struct MessageWriter {
  private var iterator = DBusMessageIter()
  private let message: Message

  init(message: Message) {
    self.message = message
    dbus_message_iter_init_append(message.raw, &iterator)
  }

  private init(message: Message, iterator: DBusMessageIter) {
    self.message = message
    self.iterator = iterator
  }

  /// Appends a typed argument.
  public mutating func append<T: DBusArgument>(_ value: T) throws(DBusError) {
    try value.write(to: &self)
  }

  /// Appends a dynamically typed value.
  ///
  /// - Throws: `org.freedesktop.DBus.Error.InvalidArgs` when a container holds
  ///   a value of another type than it declares.
  public mutating func append(value: DBusValue) throws(DBusError) {
    try value.validate()
    try appendUnchecked(value)
  }

  private mutating func appendUnchecked(_ value: DBusValue) throws(DBusError) {
    switch value {
    case .byte(let value): try appendBasic(TypeCode.byte, value)
    case .boolean(let value): try appendBasic(TypeCode.boolean, dbus_bool_t(value ? 1 : 0))
    case .int16(let value): try appendBasic(TypeCode.int16, value)
    case .uint16(let value): try appendBasic(TypeCode.uint16, value)
    case .int32(let value): try appendBasic(TypeCode.int32, value)
    case .uint32(let value): try appendBasic(TypeCode.uint32, value)
    case .int64(let value): try appendBasic(TypeCode.int64, value)
    case .uint64(let value): try appendBasic(TypeCode.uint64, value)
    case .double(let value): try appendBasic(TypeCode.double, value)
    case .string(let value): try appendString(TypeCode.string, value)
    case .objectPath(let value): try appendString(TypeCode.objectPath, value.rawValue)
    case .signature(let value): try appendString(TypeCode.signature, value.rawValue)
    case .variant(let inner):
      try withContainer(TypeCode.variant, signature: inner.type.description) { writer throws(DBusError) in
        try writer.appendUnchecked(inner)
      }
    case .structure(let members):
      try withContainer(TypeCode.structure, signature: nil) { writer throws(DBusError) in
        for member in members { try writer.appendUnchecked(member) }
      }
    case .array(let element, let values):
      try withContainer(TypeCode.array, signature: element.description) { writer throws(DBusError) in
        for value in values { try writer.appendUnchecked(value) }
      }
    case .dictionary(let key, let valueType, let entries):
      try withContainer(TypeCode.array, signature: "{\(key)\(valueType)}") { writer throws(DBusError) in
        for entry in entries {
          try writer.withContainer(TypeCode.dictEntry, signature: nil) { pair throws(DBusError) in
            try pair.appendUnchecked(entry.key)
            try pair.appendUnchecked(entry.value)
          }
        }
      }
    }
  }

  /// Appends one basic value of the C type `T` with the type code `code`.
  mutating func appendBasic<T>(_ code: Int32, _ value: T) throws(DBusError) {
    var value = value
    let appended = withUnsafePointer(to: &value) { dbus_message_iter_append_basic(&iterator, code, $0) }
    guard appended != 0 else { throw .outOfMemory }
  }

  /// Appends a string, object path or signature; the caller has validated the latter two.
  mutating func appendString(_ code: Int32, _ value: String) throws(DBusError) {
    guard !value.containsNUL else {
      throw DBusError(.invalidArgs, "a D-Bus string cannot contain a NUL byte")
    }
    let appended = value.withCString { CDBus_appendString(&iterator, code, $0) }
    guard appended != 0 else { throw .outOfMemory }
  }

  /// Opens a container, lets `body` fill it, and closes it (or abandons it when `body` throws).
  ///
  /// - Parameter signature: The contained signature for arrays and variants; `nil` for structs and dict entries.
  mutating func withContainer(
    _ code: Int32, signature: String?, _ body: (inout MessageWriter) throws(DBusError) -> Void
  ) throws(DBusError) {
    var sub = DBusMessageIter()
    guard dbus_message_iter_open_container(&iterator, code, signature, &sub) != 0 else {
      throw .outOfMemory
    }
    var writer = MessageWriter(message: message, iterator: sub)
    do {
      try body(&writer)
    } catch {
      dbus_message_iter_abandon_container(&iterator, &writer.iterator)
      throw error
    }
    guard dbus_message_iter_close_container(&iterator, &writer.iterator) != 0 else {
      throw .outOfMemory
    }
  }
}

extension Message {
  /// Appends typed arguments to the body.
  ///
  /// ```swift
  /// try call.append("ShieldBridge", UInt32(0), "icon", "Summary", "Body")
  /// ```
  public func append<each T: DBusArgument>(_ values: repeat each T) throws(DBusError) {
    var writer = MessageWriter(message: self)
    for value in repeat each values {
      try writer.append(value)
    }
  }

  /// Appends dynamically typed values to the body.
  public func append(values: [DBusValue]) throws(DBusError) {
    var writer = MessageWriter(message: self)
    for value in values { try writer.append(value: value) }
  }

  /// A writer that appends after the arguments already in the body.
  public func writer() -> MessageWriter { MessageWriter(message: self) }
}
