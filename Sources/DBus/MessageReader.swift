import CDBus

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Reads the arguments of a message in order, checking each type before reading it.
///
/// A message from another process can hold anything; a value of the wrong
/// type is a `org.freedesktop.DBus.Error.InvalidArgs` error, never a crash.
public struct MessageReader {
  var iterator = DBusMessageIter()
  /// Keeps the message alive while its iterators point into it.
  private let message: Message

  init(message: Message) {
    self.message = message
    dbus_message_iter_init(message.raw, &iterator)
  }

  init(message: Message, iterator: DBusMessageIter) {
    self.message = message
    self.iterator = iterator
  }

  /// The type code of the next argument, `TypeCode.invalid` at the end.
  var nextCode: Int32 {
    var copy = iterator
    return dbus_message_iter_get_arg_type(&copy)
  }

  /// Whether every argument has been read.
  public var isAtEnd: Bool { nextCode == TypeCode.invalid }

  /// The type of the next argument, or `nil` at the end.
  public var peekType: SignatureType? {
    guard !isAtEnd else { return nil }
    return withNextSignature { bytes in (try? Signature.parse(bytes))?.first }
  }

  /// Calls `body` with the signature text of the next argument (empty at the end).
  private func withNextSignature<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    var copy = iterator
    guard let signature = dbus_message_iter_get_signature(&copy) else {
      return body(UnsafeBufferPointer(start: nil, count: 0))
    }
    defer { dbus_free(signature) }
    return signature.withMemoryRebound(to: UInt8.self, capacity: 1) { start in
      body(UnsafeBufferPointer(start: start, count: strlen(signature)))
    }
  }

  /// Whether the next argument has exactly the type `type`.
  func nextIs(_ type: SignatureType) -> Bool {
    let code = nextCode
    guard code == type.code else { return false }
    switch type {
    case .array(let element) where element.isBasic:
      // The element type code says it all; no signature text needed.
      var copy = iterator
      return dbus_message_iter_get_element_type(&copy) == element.code
    case .array, .dictionary, .structure:
      return withNextSignature { bytes in
        var index = 0
        return type.matches(bytes, at: &index) && index == bytes.count
      }
    default:
      return true
    }
  }

  /// Reads the next argument as a `T`.
  ///
  /// - Throws: `org.freedesktop.DBus.Error.InvalidArgs` when the next argument
  ///   has another type or there is none.
  @inlinable
  public mutating func read<T: DBusArgument>(_ type: T.Type = T.self) throws(DBusError) -> T {
    try T(from: &self)
  }

  /// Reads a dictionary argument (`a{KV}`) as its entries, in the order they
  /// arrived; unlike reading a `[Key: Value]`, a key that repeats is kept each time.
  ///
  /// - Throws: `org.freedesktop.DBus.Error.InvalidArgs` when the next argument
  ///   is not a dictionary of these types.
  @inlinable
  public mutating func readEntries<Key: DBusArgument, Value: DBusArgument>(
    _ key: Key.Type, _ value: Value.Type
  ) throws(DBusError) -> [(key: Key, value: Value)] {
    guard Key.dbusType.isBasic else {
      throw DBusError(.invalidArgs, "dictionary key type '\(Key.dbusType)' is not a basic type")
    }
    var inner = try enterArray(.dictionary(key: Key.dbusType, value: Value.dbusType))
    var entries: [(key: Key, value: Value)] = []
    while !inner.isAtEnd {
      var entry = try inner.enterEntry()
      let key = try Key(from: &entry)
      entries.append((key, try Value(from: &entry)))
    }
    return entries
  }

  /// Reads the next argument whatever its type.
  ///
  /// - Throws: `org.freedesktop.DBus.Error.InvalidArgs` at the end of the message
  ///   or for a type ShieldBridge does not read (unix file descriptors).
  public mutating func readValue() throws(DBusError) -> DBusValue {
    var budget = Int.max
    // Without a limit the walk never stops early: no message holds Int.max / 8 values.
    guard let value = try readValue(within: &budget) else {
      throw DBusError(.invalidArgs, "the argument is too large to read")
    }
    return value
  }

  /// The next argument if it fits in `budget`, which it uses up: 8 for every
  /// value and the bytes of every string, counted before anything is built;
  /// `nil` as soon as it does not fit (the reader is then left inside it).
  ///
  /// - Throws: as ``readValue()``.
  mutating func readValue(within budget: inout Int) throws(DBusError) -> DBusValue? {
    budget -= 8
    guard budget >= 0 else { return nil }
    switch nextCode {
    case TypeCode.byte: return .byte(try readBasic(TypeCode.byte, UInt8(0)))
    case TypeCode.boolean: return .boolean(try readBasic(TypeCode.boolean, dbus_bool_t(0)) != 0)
    case TypeCode.int16: return .int16(try readBasic(TypeCode.int16, Int16(0)))
    case TypeCode.uint16: return .uint16(try readBasic(TypeCode.uint16, UInt16(0)))
    case TypeCode.int32: return .int32(try readBasic(TypeCode.int32, Int32(0)))
    case TypeCode.uint32: return .uint32(try readBasic(TypeCode.uint32, UInt32(0)))
    case TypeCode.int64: return .int64(try readBasic(TypeCode.int64, Int64(0)))
    case TypeCode.uint64: return .uint64(try readBasic(TypeCode.uint64, UInt64(0)))
    case TypeCode.double: return .double(try readBasic(TypeCode.double, Double(0)))
    case TypeCode.string, TypeCode.objectPath, TypeCode.signature:
      if budget != .max {
        var copy = iterator
        budget -= CDBus_getString(&copy).map { strlen($0) } ?? 0
        guard budget >= 0 else { return nil }
      }
      switch nextCode {
      case TypeCode.string: return .string(try readString(TypeCode.string))
      case TypeCode.objectPath: return .objectPath(try ObjectPath(try readString(TypeCode.objectPath)))
      default: return .signature(try Signature(try readString(TypeCode.signature)))
      }
    case TypeCode.variant:
      var inner = try enter(TypeCode.variant)
      return try inner.readValue(within: &budget).map { .variant($0) }
    case TypeCode.structure:
      var inner = try enter(TypeCode.structure)
      var members: [DBusValue] = []
      while !inner.isAtEnd {
        guard let member = try inner.readValue(within: &budget) else { return nil }
        members.append(member)
      }
      return .structure(members)
    case TypeCode.array:
      guard let type = arrayType else { throw mismatch(expected: "an array") }
      if budget != .max {
        // Counted without reading: a fixed-size element type takes no walk at all.
        var copy = iterator
        budget -= 8 * Int(dbus_message_iter_get_element_count(&copy))
        guard budget >= 0 else { return nil }
      }
      var inner = try enter(TypeCode.array)
      switch type {
      case .dictionary(let keyType, let valueType):
        var entries: [DBusValue.DictionaryEntry] = []
        while !inner.isAtEnd {
          var entry = try inner.enter(TypeCode.dictEntry)
          guard let key = try entry.readValue(within: &budget), let value = try entry.readValue(within: &budget)
          else { return nil }
          entries.append(.init(key, value))
        }
        return .dictionary(key: keyType, value: valueType, entries)
      case .array(let element):
        var values: [DBusValue] = []
        while !inner.isAtEnd {
          guard let value = try inner.readValue(within: &budget) else { return nil }
          values.append(value)
        }
        return .array(element: element, values)
      default:
        throw mismatch(expected: "an array")
      }
    case TypeCode.invalid:
      throw DBusError(.invalidArgs, "expected another argument, but the message ends here")
    default:
      throw DBusError(.invalidArgs, "argument of type '\(typeName(nextCode))' is not supported")
    }
  }

  /// The type of the array at the current position: from its element type
  /// code when that is basic, from its signature text otherwise.
  var arrayType: SignatureType? {
    var copy = iterator
    if let element = SignatureType(basicCode: dbus_message_iter_get_element_type(&copy)) {
      return .array(element)
    }
    return peekType
  }

  /// Reads one basic value of the C type `T` after checking that its type code is `code`.
  mutating func readBasic<T>(_ code: Int32, _ initial: T) throws(DBusError) -> T {
    guard nextCode == code else { throw mismatch(expected: typeName(code)) }
    var value = initial
    withUnsafeMutablePointer(to: &value) { dbus_message_iter_get_basic(&iterator, $0) }
    dbus_message_iter_next(&iterator)
    return value
  }

  /// Reads a string, object path or signature after checking that its type code is `code`.
  mutating func readString(_ code: Int32) throws(DBusError) -> String {
    guard nextCode == code else { throw mismatch(expected: typeName(code)) }
    // libdbus has validated the UTF-8 and the terminating NUL of every
    // string in a message it received or built.
    let value = CDBus_getString(&iterator).map { String(cString: $0) } ?? ""
    dbus_message_iter_next(&iterator)
    return value
  }

  /// Steps into the container at the current position (checking its type code)
  /// and past it: the returned reader reads its contents.
  mutating func enter(_ code: Int32) throws(DBusError) -> MessageReader {
    guard nextCode == code else { throw mismatch(expected: typeName(code)) }
    var sub = DBusMessageIter()
    dbus_message_iter_recurse(&iterator, &sub)
    dbus_message_iter_next(&iterator)
    return MessageReader(message: message, iterator: sub)
  }

  /// Steps into a dictionary entry (`{KV}`) inside a dictionary.
  @usableFromInline
  mutating func enterEntry() throws(DBusError) -> MessageReader {
    try enter(TypeCode.dictEntry)
  }

  /// Steps into an array or dictionary after checking its whole type against `type`.
  @usableFromInline
  mutating func enterArray(_ type: SignatureType) throws(DBusError) -> MessageReader {
    guard nextIs(type) else { throw mismatch(expected: type.description) }
    return try enter(TypeCode.array)
  }

  func mismatch(expected: String) -> DBusError {
    let found = nextCode == TypeCode.invalid ? "the end of the message" : "'\(typeName(nextCode))'"
    return DBusError(.invalidArgs, "expected an argument of type '\(expected)', found \(found)")
  }

  private func typeName(_ code: Int32) -> String {
    code == TypeCode.invalid ? "nothing" : String(UnicodeScalar(UInt8(truncatingIfNeeded: code)))
  }
}

extension Message {
  /// A reader positioned at the first argument.
  public func reader() -> MessageReader { MessageReader(message: self) }

  /// Reads all arguments, checking that the body's signature is exactly these types.
  ///
  /// ```swift
  /// let (id, key) = try signal.decode(UInt32.self, String.self)
  /// ```
  ///
  /// - Throws: `org.freedesktop.DBus.Error.InvalidArgs` naming the expected and
  ///   the actual signature when they differ.
  public func decode<each T: DBusArgument>(_ types: repeat (each T).Type) throws(DBusError) -> (repeat each T) {
    var expected = ""
    for type in repeat each types {
      expected += type.dbusType.description
    }
    let actual = signature
    guard actual == expected else {
      throw DBusError(.invalidArgs, "expected arguments of type '\(expected)', found '\(actual)'")
    }
    var reader = reader()
    return (repeat try reader.read((each T).self))
  }

  /// Reads every argument as a ``DBusValue``.
  ///
  /// - Throws: `org.freedesktop.DBus.Error.InvalidArgs` for an argument type
  ///   that is not supported.
  public func values() throws(DBusError) -> [DBusValue] {
    var reader = reader()
    var values: [DBusValue] = []
    while !reader.isAtEnd { values.append(try reader.readValue()) }
    return values
  }
}
