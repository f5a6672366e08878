/// Any D-Bus value, with its type.
///
/// Containers carry their element types, so that an empty array still has a
/// signature (`as` and `ai` are different types on the wire). Dictionaries keep
/// their entries in order, as they arrived.
///
/// Only a variant holds its value in a box of its own: a value of any other
/// case is stored inline (containers keep their elements in an array), so
/// reading a message's arguments allocates once per string or container, not
/// once per value.
public enum DBusValue: Hashable, Sendable, CustomStringConvertible {
  case byte(UInt8)
  case boolean(Bool)
  case int16(Int16)
  case uint16(UInt16)
  case int32(Int32)
  case uint32(UInt32)
  case int64(Int64)
  case uint64(UInt64)
  case double(Double)
  case string(String)
  case objectPath(ObjectPath)
  case signature(Signature)
  indirect case variant(DBusValue)
  /// An array of values that all have type `element`.
  case array(element: SignatureType, [DBusValue])
  /// A dictionary `a{KV}` as ordered entries.
  case dictionary(key: SignatureType, value: SignatureType, [DictionaryEntry])
  case structure([DBusValue])

  /// One entry of a dictionary value.
  public struct DictionaryEntry: Hashable, Sendable {
    public var key: DBusValue
    public var value: DBusValue

    public init(_ key: DBusValue, _ value: DBusValue) {
      self.key = key
      self.value = value
    }
  }

  /// The type of the value.
  public var type: SignatureType {
    switch self {
    case .byte: .byte
    case .boolean: .boolean
    case .int16: .int16
    case .uint16: .uint16
    case .int32: .int32
    case .uint32: .uint32
    case .int64: .int64
    case .uint64: .uint64
    case .double: .double
    case .string: .string
    case .objectPath: .objectPath
    case .signature: .signature
    case .variant: .variant
    case .array(let element, _): .array(element)
    case .dictionary(let key, let value, _): .dictionary(key: key, value: value)
    case .structure(let members): .structure(members.map(\.type))
    }
  }

  /// Checks that every element of every container has the container's declared type.
  ///
  /// A value built by hand can claim `as` and hold an integer; such a value is
  /// refused before anything is written, instead of producing a broken message.
  ///
  /// - Throws: `org.freedesktop.DBus.Error.InvalidArgs` naming the mismatch.
  public func validate() throws(DBusError) {
    switch self {
    case .variant(let inner):
      try inner.validate()
    case .array(let element, let values):
      for value in values {
        guard value.type == element else {
          throw DBusError(.invalidArgs, "array of '\(element)' holds a value of type '\(value.type)'")
        }
        try value.validate()
      }
    case .dictionary(let key, let valueType, let entries):
      guard key.isBasic else {
        throw DBusError(.invalidArgs, "dictionary key type '\(key)' is not a basic type")
      }
      for entry in entries {
        guard entry.key.type == key, entry.value.type == valueType else {
          throw DBusError(
            .invalidArgs,
            "dictionary 'a{\(key)\(valueType)}' holds an entry of types '\(entry.key.type)' and '\(entry.value.type)'")
        }
        try entry.value.validate()
      }
    case .structure(let members):
      guard !members.isEmpty else { throw DBusError(.invalidArgs, "a structure needs at least one member") }
      for member in members { try member.validate() }
    case .string(let text):
      guard !text.containsNUL else {
        throw DBusError(.invalidArgs, "a D-Bus string cannot contain a NUL byte")
      }
    default:
      break
    }
  }

  public var description: String {
    switch self {
    case .byte(let value): "byte \(value)"
    case .boolean(let value): "boolean \(value)"
    case .int16(let value): "int16 \(value)"
    case .uint16(let value): "uint16 \(value)"
    case .int32(let value): "int32 \(value)"
    case .uint32(let value): "uint32 \(value)"
    case .int64(let value): "int64 \(value)"
    case .uint64(let value): "uint64 \(value)"
    case .double(let value): "double \(value)"
    case .string(let value): "string \"\(value)\""
    case .objectPath(let value): "object path \(value)"
    case .signature(let value): "signature \(value)"
    case .variant(let value): "variant \(value)"
    case .array(_, let values): "[\(values.map(\.description).joined(separator: ", "))]"
    case .dictionary(_, _, let entries):
      "{\(entries.map { "\($0.key): \($0.value)" }.joined(separator: ", "))}"
    case .structure(let members): "(\(members.map(\.description).joined(separator: ", ")))"
    }
  }
}

extension DBusValue {
  /// The string inside a `.string`, `.objectPath` or `.signature`, looking through variants.
  public var stringValue: String? {
    switch self {
    case .string(let value): value
    case .objectPath(let value): value.rawValue
    case .signature(let value): value.rawValue
    case .variant(let inner): inner.stringValue
    default: nil
    }
  }

  /// The value of any integer case as `Int64`, looking through variants; `nil`
  /// for other cases and for a `uint64` beyond `Int64.max`.
  public var integerValue: Int64? {
    switch self {
    case .byte(let value): Int64(value)
    case .int16(let value): Int64(value)
    case .uint16(let value): Int64(value)
    case .int32(let value): Int64(value)
    case .uint32(let value): Int64(value)
    case .int64(let value): value
    case .uint64(let value): Int64(exactly: value)
    case .variant(let inner): inner.integerValue
    default: nil
    }
  }

  /// The Boolean inside a `.boolean`, looking through variants.
  public var boolValue: Bool? {
    switch self {
    case .boolean(let value): value
    case .variant(let inner): inner.boolValue
    default: nil
    }
  }

  /// The value inside a variant, or the value itself.
  public var unwrapped: DBusValue {
    if case .variant(let inner) = self { inner.unwrapped } else { self }
  }
}
