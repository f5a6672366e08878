import CDBus

/// One complete D-Bus type, such as `s`, `a{sv}` or `(ii)`.
///
/// Unix file descriptors (`h`) are not supported: ShieldBridge passes none, and
/// a message that carries one is refused rather than half-read.
public indirect enum SignatureType: Hashable, Sendable, CustomStringConvertible {
  case byte
  case boolean
  case int16
  case uint16
  case int32
  case uint32
  case int64
  case uint64
  case double
  case string
  case objectPath
  case signature
  case variant
  case array(SignatureType)
  /// `a{KV}`: the key must be a basic type.
  case dictionary(key: SignatureType, value: SignatureType)
  case structure([SignatureType])

  /// The type in signature syntax.
  public var description: String {
    switch self {
    case .byte: "y"
    case .boolean: "b"
    case .int16: "n"
    case .uint16: "q"
    case .int32: "i"
    case .uint32: "u"
    case .int64: "x"
    case .uint64: "t"
    case .double: "d"
    case .string: "s"
    case .objectPath: "o"
    case .signature: "g"
    case .variant: "v"
    case .array(let element): "a\(element)"
    case .dictionary(let key, let value): "a{\(key)\(value)}"
    case .structure(let members): "(\(members.map(\.description).joined()))"
    }
  }

  /// Whether this is a basic type (one that can be a dictionary key).
  public var isBasic: Bool {
    switch self {
    case .variant, .array, .dictionary, .structure: false
    default: true
    }
  }

  /// Whether the signature text at `bytes[index...]` starts with this type;
  /// on a match `index` moves past it. Compares without parsing the text
  /// into `SignatureType` values, so checking an argument's type allocates nothing.
  func matches(_ bytes: UnsafeBufferPointer<UInt8>, at index: inout Int) -> Bool {
    func next(_ byte: UInt8) -> Bool {
      guard index < bytes.count, bytes[index] == byte else { return false }
      index += 1
      return true
    }
    switch self {
    case .array(let element):
      return next(UInt8(ascii: "a")) && element.matches(bytes, at: &index)
    case .dictionary(let key, let value):
      return next(UInt8(ascii: "a")) && next(UInt8(ascii: "{")) && key.matches(bytes, at: &index)
        && value.matches(bytes, at: &index) && next(UInt8(ascii: "}"))
    case .structure(let members):
      guard next(UInt8(ascii: "(")) else { return false }
      for member in members where !member.matches(bytes, at: &index) { return false }
      return next(UInt8(ascii: ")"))
    default:
      return next(UInt8(truncatingIfNeeded: code))
    }
  }

  /// The basic type with the libdbus type code `code`, `nil` for any other code.
  init?(basicCode code: Int32) {
    switch code {
    case TypeCode.byte: self = .byte
    case TypeCode.boolean: self = .boolean
    case TypeCode.int16: self = .int16
    case TypeCode.uint16: self = .uint16
    case TypeCode.int32: self = .int32
    case TypeCode.uint32: self = .uint32
    case TypeCode.int64: self = .int64
    case TypeCode.uint64: self = .uint64
    case TypeCode.double: self = .double
    case TypeCode.string: self = .string
    case TypeCode.objectPath: self = .objectPath
    case TypeCode.signature: self = .signature
    default: return nil
    }
  }

  /// The libdbus type code of the outermost type (`DBUS_TYPE_…`).
  var code: Int32 {
    switch self {
    case .byte: TypeCode.byte
    case .boolean: TypeCode.boolean
    case .int16: TypeCode.int16
    case .uint16: TypeCode.uint16
    case .int32: TypeCode.int32
    case .uint32: TypeCode.uint32
    case .int64: TypeCode.int64
    case .uint64: TypeCode.uint64
    case .double: TypeCode.double
    case .string: TypeCode.string
    case .objectPath: TypeCode.objectPath
    case .signature: TypeCode.signature
    case .variant: TypeCode.variant
    case .array, .dictionary: TypeCode.array
    case .structure: TypeCode.structure
    }
  }
}

/// A validated D-Bus signature: zero or more complete types, such as `susssasa{sv}i`.
public struct Signature: Hashable, Sendable, CustomStringConvertible, RawRepresentable {
  /// The signature text.
  public let rawValue: String
  /// The complete types it is made of, in order.
  public let types: [SignatureType]

  /// Parses and validates a signature.
  ///
  /// - Throws: `org.freedesktop.DBus.Error.InvalidSignature` naming the problem:
  ///   an unknown type code, an unbalanced container, a dictionary outside an
  ///   array or with a non-basic key, nesting deeper than the spec's 32 levels,
  ///   or more than 255 bytes.
  public init(_ rawValue: String) throws(DBusError) {
    guard rawValue.utf8.count <= 255 else {
      throw DBusError(.invalidSignature, "signature '\(rawValue)' is longer than 255 bytes")
    }
    var text = rawValue
    let parsed = text.withUTF8 { bytes in
      Result { () throws(DBusError) -> [SignatureType] in try Signature.parse(bytes) }
    }
    self.types = try parsed.get()
    self.rawValue = rawValue
  }

  /// The complete types in signature text, without building a `String` first.
  static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(DBusError) -> [SignatureType] {
    var parser = SignatureParser(bytes: bytes)
    var types: [SignatureType] = []
    while !parser.atEnd {
      types.append(try parser.parseComplete(arrayDepth: 0, structDepth: 0))
    }
    return types
  }

  public init?(rawValue: String) {
    guard let signature = try? Signature(rawValue) else { return nil }
    self = signature
  }

  /// The signature made of `types` in order.
  public init(_ types: [SignatureType]) {
    self.types = types
    rawValue = types.map(\.description).joined()
  }

  /// The empty signature (no arguments).
  public static let empty = Signature([])

  public var description: String { rawValue }
}

private struct SignatureParser {
  let bytes: UnsafeBufferPointer<UInt8>
  var index = 0

  var atEnd: Bool { index >= bytes.count }

  func fail(_ problem: String) -> DBusError {
    let text = String(decoding: bytes, as: UTF8.self)
    return DBusError(.invalidSignature, "invalid signature '\(text)' at byte \(index): \(problem)")
  }

  mutating func parseComplete(arrayDepth: Int, structDepth: Int) throws(DBusError) -> SignatureType {
    guard index < bytes.count else { throw fail("expected a type") }
    let code = bytes[index]
    index += 1
    switch code {
    case UInt8(ascii: "y"): return .byte
    case UInt8(ascii: "b"): return .boolean
    case UInt8(ascii: "n"): return .int16
    case UInt8(ascii: "q"): return .uint16
    case UInt8(ascii: "i"): return .int32
    case UInt8(ascii: "u"): return .uint32
    case UInt8(ascii: "x"): return .int64
    case UInt8(ascii: "t"): return .uint64
    case UInt8(ascii: "d"): return .double
    case UInt8(ascii: "s"): return .string
    case UInt8(ascii: "o"): return .objectPath
    case UInt8(ascii: "g"): return .signature
    case UInt8(ascii: "v"): return .variant
    case UInt8(ascii: "h"):
      index -= 1
      throw fail("unix file descriptors (h) are not supported")
    case UInt8(ascii: "a"):
      guard arrayDepth < 32 else { throw fail("arrays nested deeper than 32") }
      if index < bytes.count, bytes[index] == UInt8(ascii: "{") {
        index += 1
        let key = try parseComplete(arrayDepth: arrayDepth + 1, structDepth: structDepth + 1)
        guard key.isBasic else { throw fail("a dictionary key must be a basic type") }
        let value = try parseComplete(arrayDepth: arrayDepth + 1, structDepth: structDepth + 1)
        guard index < bytes.count, bytes[index] == UInt8(ascii: "}") else {
          throw fail("a dictionary entry holds exactly one key and one value")
        }
        index += 1
        return .dictionary(key: key, value: value)
      }
      return .array(try parseComplete(arrayDepth: arrayDepth + 1, structDepth: structDepth))
    case UInt8(ascii: "("):
      guard structDepth < 32 else { throw fail("structures nested deeper than 32") }
      var members: [SignatureType] = []
      while index < bytes.count, bytes[index] != UInt8(ascii: ")") {
        members.append(try parseComplete(arrayDepth: arrayDepth, structDepth: structDepth + 1))
      }
      guard index < bytes.count else { throw fail("unclosed structure") }
      guard !members.isEmpty else { throw fail("empty structure") }
      index += 1
      return .structure(members)
    case UInt8(ascii: "{"):
      index -= 1
      throw fail("a dictionary entry outside an array")
    default:
      index -= 1
      throw fail("unknown type code '\(String(decoding: [code], as: UTF8.self))'")
    }
  }
}
