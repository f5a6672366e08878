/// A JSON value whose objects keep their keys in the order they were written.
///
/// ShieldBridge prints JSON for people and scripts alike (`--json`, the
/// notification server's record, the service's replies), so the order of keys
/// is part of the output's readability: `{"ok":true,"action":"puzzle",…}`.
/// Foundation's `JSONEncoder` neither keeps that order nor writes `null` for a
/// missing optional, hence this small type.
public enum JSONValue: Hashable, Sendable {
  case null
  case bool(Bool)
  case number(Double)
  case integer(Int64)
  case string(String)
  case array([JSONValue])
  case object([(String, JSONValue)])

  public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): true
    case (.bool(let a), .bool(let b)): a == b
    case (.number(let a), .number(let b)): a == b
    case (.integer(let a), .integer(let b)): a == b
    case (.integer(let a), .number(let b)), (.number(let b), .integer(let a)): Double(a) == b
    case (.string(let a), .string(let b)): a == b
    case (.array(let a), .array(let b)): a == b
    case (.object(let a), .object(let b)):
      a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    default: false
    }
  }

  public func hash(into hasher: inout Hasher) {
    switch self {
    case .null: hasher.combine(0)
    case .bool(let value): hasher.combine(value)
    case .number(let value): hasher.combine(value)
    case .integer(let value): hasher.combine(Double(value))
    case .string(let value): hasher.combine(value)
    case .array(let values): hasher.combine(values)
    case .object(let members):
      for (key, value) in members {
        hasher.combine(key)
        hasher.combine(value)
      }
    }
  }
}

extension JSONValue {
  /// The value of `key` in an object (the last one, if a key repeats), or `nil`.
  public subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.last { $0.0 == key }?.1
  }

  /// The string, or `nil` for anything else.
  public var stringValue: String? {
    if case .string(let value) = self { value } else { nil }
  }

  /// The integer value of a number without a fractional part, or `nil`.
  public var integerValue: Int64? {
    switch self {
    case .integer(let value): value
    case .number(let value):
      abs(value) < 9.0e15 ? Int64(exactly: value) : nil
    default: nil
    }
  }

  /// The Boolean, or `nil` for anything else.
  public var boolValue: Bool? {
    if case .bool(let value) = self { value } else { nil }
  }

  /// The elements of an array, or `nil` for anything else.
  public var arrayValue: [JSONValue]? {
    if case .array(let values) = self { values } else { nil }
  }

  /// The members of an object in their order, or `nil` for anything else.
  public var objectValue: [(String, JSONValue)]? {
    if case .object(let members) = self { members } else { nil }
  }

  /// A name for the kind of value, for error messages ("expected a string, found a number").
  public var kindName: String {
    switch self {
    case .null: "null"
    case .bool: "a Boolean"
    case .number, .integer: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByNilLiteral,
  ExpressibleByFloatLiteral
{
  public init(stringLiteral value: String) { self = .string(value) }
  public init(integerLiteral value: Int64) { self = .integer(value) }
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
  public init(nilLiteral: ()) { self = .null }
  public init(floatLiteral value: Double) { self = .number(value) }
}

extension JSONValue {
  /// A string, or `null` when there is none.
  public static func string(_ value: String?) -> JSONValue {
    value.map(JSONValue.string) ?? .null
  }

  /// An integer from any fixed-width integer type.
  public static func int(_ value: some BinaryInteger) -> JSONValue {
    .integer(Int64(clamping: value))
  }
}
