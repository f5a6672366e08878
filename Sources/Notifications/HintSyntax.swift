public import DBus

/// Hints written as on `notify-send`'s command line: `TYPE:NAME:VALUE`.
///
/// `TYPE` is `int` (int32), `double`, `string`, `byte` (0…255), `boolean`
/// (`true`/`false`) or `variant`, whose value is written in GVariant's text
/// format: `true`, `42` (int32), `1.5`, `'text'`, a typed number such as
/// `uint32 7` or `byte 0x10`, a type annotation such as `@s 'text'` or
/// `@ai []`, or an array `[1, 2, 3]`. `NAME` is everything before the second
/// colon; the value may contain colons.
public enum HintSyntax {
  /// Parses one hint.
  ///
  /// - Throws: ``NotificationError`` `invalid-argument` naming what is wrong.
  public static func parse(_ text: String) throws(NotificationError) -> (
    name: HintName, value: DBusValue
  ) {
    let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
    guard parts.count == 3 else {
      throw invalid(text, "expected TYPE:NAME:VALUE")
    }
    let type = String(parts[0])
    let name = HintName(rawValue: String(parts[1]))
    let value = String(parts[2])
    guard !name.rawValue.isEmpty else { throw invalid(text, "the hint name is empty") }
    switch type {
    case "int":
      guard let number = Int32(value) else {
        throw invalid(text, "'\(value)' is not a 32-bit integer")
      }
      return (name, .int32(number))
    case "double":
      guard let number = Double(value), number.isFinite else {
        throw invalid(text, "'\(value)' is not a number")
      }
      return (name, .double(number))
    case "string":
      return (name, .string(value))
    case "byte":
      guard let number = UInt8(value) else {
        throw invalid(text, "'\(value)' is not a byte (0 to 255)")
      }
      return (name, .byte(number))
    case "boolean":
      switch value.lowercased() {
      case "true": return (name, .boolean(true))
      case "false": return (name, .boolean(false))
      default: throw invalid(text, "a boolean is 'true' or 'false', not '\(value)'")
      }
    case "variant":
      var parser = VariantTextParser(Array(value.unicodeScalars))
      do throws(VariantTextParser.Failure) {
        return (name, try parser.parseAll())
      } catch {
        throw invalid(text, error.message)
      }
    default:
      throw invalid(
        text, "unknown type '\(type)'; use int, double, string, byte, boolean or variant")
    }
  }

  private static func invalid(_ text: String, _ problem: String) -> NotificationError {
    NotificationError(.invalidArgument, "invalid hint '\(text)': \(problem)")
  }
}

/// A small reader of GVariant's text format, enough for hint values.
private struct VariantTextParser {
  struct Failure: Error {
    var message: String
  }

  let scalars: [Unicode.Scalar]
  var index = 0
  /// Nesting of arrays and variants, bounded so that input cannot exhaust the stack.
  var depth = 0

  init(_ scalars: [Unicode.Scalar]) {
    self.scalars = scalars
  }

  mutating func parseAll() throws(Failure) -> DBusValue {
    let value = try parseValue(expected: nil)
    skipSpaces()
    guard index == scalars.count else { throw fail("unexpected text after the value") }
    return value
  }

  private func fail(_ message: String) -> Failure {
    Failure(message: "\(message) at character \(index + 1)")
  }

  private mutating func skipSpaces() {
    while index < scalars.count, scalars[index].properties.isWhitespace { index += 1 }
  }

  private func peek() -> Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

  /// A word of letters and digits (a keyword, a type name or a number).
  private mutating func word() -> String {
    var result = ""
    while let scalar = peek(),
      scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
        || "+-._".unicodeScalars.contains(scalar)
    {
      result.unicodeScalars.append(scalar)
      index += 1
    }
    return result
  }

  private mutating func parseValue(expected: SignatureType?) throws(Failure) -> DBusValue {
    depth += 1
    defer { depth -= 1 }
    guard depth <= 32 else { throw fail("the value is nested too deeply") }
    skipSpaces()
    guard let first = peek() else { throw fail("a value is missing") }
    switch first {
    case "'", "\"":
      let text = try quoted()
      return try convert(.string(text), to: expected)
    case "@":
      index += 1
      let type = try typeAnnotation()
      skipSpaces()
      return try parseValue(expected: type)
    case "[":
      return try array(expected: expected)
    case "<":
      index += 1
      let inner = try parseValue(expected: nil)
      skipSpaces()
      guard peek() == ">" else { throw fail("expected '>' to close the variant") }
      index += 1
      return try convert(.variant(inner), to: expected)
    default:
      let start = index
      let keyword = word()
      let typed: [String: SignatureType] = [
        "byte": .byte, "int16": .int16, "uint16": .uint16, "int32": .int32, "uint32": .uint32,
        "int64": .int64, "uint64": .uint64, "double": .double, "boolean": .boolean,
        "string": .string,
        "objectpath": .objectPath, "signature": .signature,
      ]
      if let type = typed[keyword] {
        if let expected, expected != type {
          throw fail("'\(keyword)' where \(expected) was expected")
        }
        return try parseValue(expected: type)
      }
      switch keyword {
      case "true": return try convert(.boolean(true), to: expected)
      case "false": return try convert(.boolean(false), to: expected)
      case "": throw fail("unexpected '\(first)'")
      default:
        index = start
        return try number(expected: expected)
      }
    }
  }

  private mutating func number(expected: SignatureType?) throws(Failure) -> DBusValue {
    let text = word()
    let isFloat =
      !text.hasPrefix("0x") && (text.contains(".") || text.contains("e") || text.contains("E"))
    if isFloat || expected == .double {
      guard let value = Double(text), value.isFinite else {
        throw fail("'\(text)' is not a number")
      }
      return try convert(.double(value), to: expected ?? .double)
    }
    let negative = text.hasPrefix("-")
    let digits = negative || text.hasPrefix("+") ? text.dropFirst() : Substring(text)
    let magnitude =
      digits.hasPrefix("0x") ? UInt64(digits.dropFirst(2), radix: 16) : UInt64(digits, radix: 10)
    guard let magnitude else { throw fail("'\(text)' is not a number") }
    let value: DBusValue? =
      switch expected ?? .int32 {
      case .byte: negative ? nil : UInt8(exactly: magnitude).map(DBusValue.byte)
      case .int16: signed(magnitude, negative, Int16.self).map(DBusValue.int16)
      case .uint16: negative ? nil : UInt16(exactly: magnitude).map(DBusValue.uint16)
      case .int32: signed(magnitude, negative, Int32.self).map(DBusValue.int32)
      case .uint32: negative ? nil : UInt32(exactly: magnitude).map(DBusValue.uint32)
      case .int64: signed(magnitude, negative, Int64.self).map(DBusValue.int64)
      case .uint64: negative ? nil : .uint64(magnitude)
      default: nil
      }
    guard let value else { throw fail("'\(text)' does not fit \(expected ?? .int32)") }
    return value
  }

  private func signed<T: FixedWidthInteger & SignedInteger>(
    _ magnitude: UInt64, _ negative: Bool, _: T.Type
  ) -> T? {
    if negative {
      guard magnitude <= UInt64(T.max) + 1 else { return nil }
      return magnitude == UInt64(T.max) + 1 ? T.min : -T(magnitude)
    }
    return T(exactly: magnitude)
  }

  private mutating func quoted() throws(Failure) -> String {
    guard let quote = peek() else { throw fail("a string is missing") }
    index += 1
    var result = ""
    while let scalar = peek() {
      index += 1
      if scalar == quote { return result }
      if scalar == "\\" {
        guard let escaped = peek() else { break }
        index += 1
        switch escaped {
        case "n": result += "\n"
        case "t": result += "\t"
        default: result.unicodeScalars.append(escaped)
        }
        continue
      }
      result.unicodeScalars.append(scalar)
    }
    throw fail("the string is not closed")
  }

  private mutating func typeAnnotation() throws(Failure) -> SignatureType {
    var text = ""
    while let scalar = peek(), !scalar.properties.isWhitespace, scalar != "[", scalar != "'",
      scalar != "\""
    {
      text.unicodeScalars.append(scalar)
      index += 1
    }
    guard let signature = try? Signature(text), signature.types.count == 1,
      let type = signature.types.first
    else {
      throw fail("'@\(text)' is not a single type")
    }
    return type
  }

  private mutating func array(expected: SignatureType?) throws(Failure) -> DBusValue {
    var element: SignatureType?
    if let expected {
      guard case .array(let inner) = expected else {
        throw fail("an array where \(expected) was expected")
      }
      element = inner
    }
    index += 1
    var values: [DBusValue] = []
    skipSpaces()
    if peek() == "]" {
      index += 1
      guard let element else { throw fail("an empty array needs a type, such as @as []") }
      return .array(element: element, [])
    }
    while true {
      let value = try parseValue(expected: element)
      if element == nil { element = value.type }
      guard value.type == element else { throw fail("the elements of an array must have one type") }
      values.append(value)
      skipSpaces()
      if peek() == "," {
        index += 1
        continue
      }
      guard peek() == "]" else { throw fail("expected ',' or ']' in the array") }
      index += 1
      return .array(element: element ?? .string, values)
    }
  }

  /// `value` as the type a prefix or annotation asked for.
  private func convert(_ value: DBusValue, to expected: SignatureType?) throws(Failure) -> DBusValue {
    guard let expected, expected != value.type else { return value }
    switch (expected, value) {
    case (.objectPath, .string(let text)):
      guard let path = ObjectPath(rawValue: text) else {
        throw fail("'\(text)' is not an object path")
      }
      return .objectPath(path)
    case (.signature, .string(let text)):
      guard let signature = Signature(rawValue: text) else {
        throw fail("'\(text)' is not a signature")
      }
      return .signature(signature)
    case (.variant, _):
      return .variant(value)
    default:
      throw fail("a \(value.type) value where \(expected) was expected")
    }
  }
}
