import CDBus

/// A Swift type with a fixed D-Bus type, read and written directly from and to messages.
///
/// Conforming types: the integer types, `Bool`, `Double`, `String`,
/// ``ObjectPath``, ``Signature``, ``Variant``, arrays and dictionaries of
/// conforming types, and ``DBusValue`` through ``Variant``.
public protocol DBusArgument: Sendable {
  /// The D-Bus type of every value of this Swift type.
  static var dbusType: SignatureType { get }
  /// Reads the next argument; the reader checks its type first.
  init(from reader: inout MessageReader) throws(DBusError)
  /// Appends the value as the next argument.
  func write(to writer: inout MessageWriter) throws(DBusError)
}

/// A basic type that `dbus_message_iter_get_basic` reads into memory of the same layout.
private protocol FixedWidthArgument: DBusArgument {
  static var code: Int32 { get }
  static var zero: Self { get }
}

extension FixedWidthArgument {
  public init(from reader: inout MessageReader) throws(DBusError) {
    self = try reader.readBasic(Self.code, Self.zero)
  }

  public func write(to writer: inout MessageWriter) throws(DBusError) {
    try writer.appendBasic(Self.code, self)
  }
}

extension UInt8: DBusArgument, FixedWidthArgument {
  public static var dbusType: SignatureType { .byte }
  fileprivate static var code: Int32 { TypeCode.byte }
  fileprivate static var zero: UInt8 { 0 }
}

extension Int16: DBusArgument, FixedWidthArgument {
  public static var dbusType: SignatureType { .int16 }
  fileprivate static var code: Int32 { TypeCode.int16 }
  fileprivate static var zero: Int16 { 0 }
}

extension UInt16: DBusArgument, FixedWidthArgument {
  public static var dbusType: SignatureType { .uint16 }
  fileprivate static var code: Int32 { TypeCode.uint16 }
  fileprivate static var zero: UInt16 { 0 }
}

extension Int32: DBusArgument, FixedWidthArgument {
  public static var dbusType: SignatureType { .int32 }
  fileprivate static var code: Int32 { TypeCode.int32 }
  fileprivate static var zero: Int32 { 0 }
}

extension UInt32: DBusArgument, FixedWidthArgument {
  public static var dbusType: SignatureType { .uint32 }
  fileprivate static var code: Int32 { TypeCode.uint32 }
  fileprivate static var zero: UInt32 { 0 }
}

extension Int64: DBusArgument, FixedWidthArgument {
  public static var dbusType: SignatureType { .int64 }
  fileprivate static var code: Int32 { TypeCode.int64 }
  fileprivate static var zero: Int64 { 0 }
}

extension UInt64: DBusArgument, FixedWidthArgument {
  public static var dbusType: SignatureType { .uint64 }
  fileprivate static var code: Int32 { TypeCode.uint64 }
  fileprivate static var zero: UInt64 { 0 }
}

extension Double: DBusArgument, FixedWidthArgument {
  public static var dbusType: SignatureType { .double }
  fileprivate static var code: Int32 { TypeCode.double }
  fileprivate static var zero: Double { 0 }
}

extension Bool: DBusArgument {
  public static var dbusType: SignatureType { .boolean }

  public init(from reader: inout MessageReader) throws(DBusError) {
    self = try reader.readBasic(TypeCode.boolean, dbus_bool_t(0)) != 0
  }

  public func write(to writer: inout MessageWriter) throws(DBusError) {
    try writer.appendBasic(TypeCode.boolean, dbus_bool_t(self ? 1 : 0))
  }
}

extension String: DBusArgument {
  public static var dbusType: SignatureType { .string }

  public init(from reader: inout MessageReader) throws(DBusError) {
    self = try reader.readString(TypeCode.string)
  }

  public func write(to writer: inout MessageWriter) throws(DBusError) {
    try writer.appendString(TypeCode.string, self)
  }
}

extension ObjectPath: DBusArgument {
  public static var dbusType: SignatureType { .objectPath }

  public init(from reader: inout MessageReader) throws(DBusError) {
    self = try ObjectPath(try reader.readString(TypeCode.objectPath))
  }

  public func write(to writer: inout MessageWriter) throws(DBusError) {
    try writer.appendString(TypeCode.objectPath, rawValue)
  }
}

extension Signature: DBusArgument {
  public static var dbusType: SignatureType { .signature }

  public init(from reader: inout MessageReader) throws(DBusError) {
    self = try Signature(try reader.readString(TypeCode.signature))
  }

  public func write(to writer: inout MessageWriter) throws(DBusError) {
    try writer.appendString(TypeCode.signature, rawValue)
  }
}

extension Array: DBusArgument where Element: DBusArgument {
  public static var dbusType: SignatureType { .array(Element.dbusType) }

  // Inlinable, so that reading `[String]` in another module is specialised there.
  @inlinable
  public init(from reader: inout MessageReader) throws(DBusError) {
    var inner = try reader.enterArray(Self.dbusType)
    var elements: [Element] = []
    while !inner.isAtEnd { elements.append(try Element(from: &inner)) }
    self = elements
  }

  public func write(to writer: inout MessageWriter) throws(DBusError) {
    try writer.withContainer(TypeCode.array, signature: Element.dbusType.description) { inner throws(DBusError) in
      for element in self { try element.write(to: &inner) }
    }
  }
}

extension Dictionary: DBusArgument where Key: DBusArgument, Value: DBusArgument {
  public static var dbusType: SignatureType { .dictionary(key: Key.dbusType, value: Value.dbusType) }

  /// Reads a dictionary; a key that repeats keeps its last value.
  @inlinable
  public init(from reader: inout MessageReader) throws(DBusError) {
    guard Key.dbusType.isBasic else {
      throw DBusError(.invalidArgs, "dictionary key type '\(Key.dbusType)' is not a basic type")
    }
    var inner = try reader.enterArray(Self.dbusType)
    var result: [Key: Value] = [:]
    while !inner.isAtEnd {
      var entry = try inner.enterEntry()
      let key = try Key(from: &entry)
      result[key] = try Value(from: &entry)
    }
    self = result
  }

  public func write(to writer: inout MessageWriter) throws(DBusError) {
    guard Key.dbusType.isBasic else {
      throw DBusError(.invalidArgs, "dictionary key type '\(Key.dbusType)' is not a basic type")
    }
    let signature = "{\(Key.dbusType)\(Value.dbusType)}"
    try writer.withContainer(TypeCode.array, signature: signature) { inner throws(DBusError) in
      for (key, value) in self {
        try inner.withContainer(TypeCode.dictEntry, signature: nil) { entry throws(DBusError) in
          try key.write(to: &entry)
          try value.write(to: &entry)
        }
      }
    }
  }
}

/// A variant: a value of any type, carried with its type (`v`).
public struct Variant: DBusArgument, Hashable {
  public var value: DBusValue

  public init(_ value: DBusValue) { self.value = value }

  public static var dbusType: SignatureType { .variant }

  public init(from reader: inout MessageReader) throws(DBusError) {
    var inner = try reader.enter(TypeCode.variant)
    value = try inner.readValue()
  }

  public func write(to writer: inout MessageWriter) throws(DBusError) {
    try value.validate()
    try writer.append(value: .variant(value))
  }
}

/// A dictionary argument (`a{KV}`) as its entries in order: written as given,
/// read as they arrived, a key that repeats kept each time. For a dictionary
/// whose order is part of what is sent, such as a notification's hints.
public struct DictionaryEntries<Key: DBusArgument, Value: DBusArgument>: DBusArgument {
  public var entries: [(key: Key, value: Value)]

  public init(_ entries: [(key: Key, value: Value)]) { self.entries = entries }

  public static var dbusType: SignatureType { .dictionary(key: Key.dbusType, value: Value.dbusType) }

  public init(from reader: inout MessageReader) throws(DBusError) {
    entries = try reader.readEntries(Key.self, Value.self)
  }

  public func write(to writer: inout MessageWriter) throws(DBusError) {
    guard Key.dbusType.isBasic else {
      throw DBusError(.invalidArgs, "dictionary key type '\(Key.dbusType)' is not a basic type")
    }
    let signature = "{\(Key.dbusType)\(Value.dbusType)}"
    try writer.withContainer(TypeCode.array, signature: signature) { inner throws(DBusError) in
      for (key, value) in entries {
        try inner.withContainer(TypeCode.dictEntry, signature: nil) { entry throws(DBusError) in
          try key.write(to: &entry)
          try value.write(to: &entry)
        }
      }
    }
  }
}
