/// Why a JSON text could not be read, and where.
public struct JSONParseError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What was wrong, in words ("expected ':' after an object key").
  public var message: String
  /// The byte offset of the problem in the text.
  public var offset: Int
  /// The line of the problem, counted from 1.
  public var line: Int
  /// The column of the problem in bytes, counted from 1.
  public var column: Int

  public var description: String { "line \(line), column \(column): \(message)" }
}

extension JSONValue {
  /// The deepest nesting of arrays and objects the parser accepts.
  public static let maximumDepth = 128

  /// Parses one JSON text (RFC 8259): exactly one value, surrounded by optional whitespace.
  ///
  /// The parser is strict (no comments, no trailing commas, no leading zeros,
  /// no lone surrogates) and bounded: nesting deeper than ``maximumDepth`` is an
  /// error, not a stack overflow. Integers that fit in `Int64` stay integers.
  ///
  /// - Throws: ``JSONParseError`` with the line and column of the first problem.
  public init(parsing text: some Collection<UInt8>) throws(JSONParseError) {
    var parser = Parser(bytes: Array(text))
    self = try parser.parseDocument()
  }

  /// Parses one JSON text as ``init(parsing:)-(Collection<UInt8>)`` does, and
  /// keeps the text of every number that is not an integer as written.
  ///
  /// A `Double` does not say how a number was written: `4.9999999999999999999`
  /// and `5.0` are both 5, and `1e-400` is 0. A reader that takes only whole
  /// numbers needs the text to refuse those and to quote them. Only numbers
  /// stored as ``number(_:)`` are kept: those with a fraction or an exponent,
  /// and digits beyond `Int64`.
  ///
  /// - Returns: The value, and the texts keyed by the JSON Pointer (RFC 6901)
  ///   of each number: `/rules/0/grantMinutes`, `""` for the whole text.
  /// - Throws: ``JSONParseError`` with the line and column of the first problem.
  public static func parsingKeepingNumberTexts(_ text: some Collection<UInt8>) throws(JSONParseError)
    -> (value: JSONValue, numberTexts: [String: String])
  {
    var parser = Parser(bytes: Array(text))
    parser.numberTexts = [:]
    let value = try parser.parseDocument()
    return (value, parser.numberTexts ?? [:])
  }

  /// `key` as one reference token of a JSON Pointer (RFC 6901): `~` as `~0`,
  /// `/` as `~1`; the keys of ``parsingKeepingNumberTexts(_:)``'s texts are built of these.
  public static func pointerToken(_ key: String) -> String {
    var token = ""
    for character in key {
      switch character {
      case "~": token += "~0"
      case "/": token += "~1"
      default: token.append(character)
      }
    }
    return token
  }

  /// Parses one JSON text from a string; see ``init(parsing:)-(Collection<UInt8>)``.
  public init(parsing text: String) throws(JSONParseError) {
    try self.init(parsing: Array(text.utf8))
  }
}

private struct Parser {
  let bytes: [UInt8]
  var index = 0
  /// The texts of the numbers that are not integers, by pointer; `nil` when they are not kept.
  var numberTexts: [String: String]? = nil
  /// The JSON Pointer of the value being parsed, kept up to date only while `numberTexts` is kept.
  var pointer = ""

  init(bytes: [UInt8]) { self.bytes = bytes }

  mutating func parseDocument() throws(JSONParseError) -> JSONValue {
    skipWhitespace()
    let value = try parseValue(depth: 0)
    skipWhitespace()
    guard index == bytes.count else { throw error("unexpected text after the JSON value") }
    return value
  }

  /// Parses the value at `token` below the current pointer (an escaped key or an index).
  mutating func parseValue(depth: Int, at token: @autoclosure () -> String) throws(JSONParseError)
    -> JSONValue
  {
    guard numberTexts != nil else { return try parseValue(depth: depth) }
    let outer = pointer
    pointer = outer + "/" + token()
    let value = try parseValue(depth: depth)
    pointer = outer
    return value
  }

  func error(_ message: String, at offset: Int? = nil) -> JSONParseError {
    let offset = min(offset ?? index, bytes.count)
    var line = 1
    var lineStart = 0
    for position in 0..<offset where bytes[position] == 0x0A {
      line += 1
      lineStart = position + 1
    }
    return JSONParseError(message: message, offset: offset, line: line, column: offset - lineStart + 1)
  }

  mutating func skipWhitespace() {
    while index < bytes.count,
      bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09
    {
      index += 1
    }
  }

  mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
    guard index < bytes.count else { throw error("unexpected end of the text, expected a value") }
    switch bytes[index] {
    case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
    case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
    case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
    case UInt8(ascii: "n"): return try parseLiteral("null", .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
    default: throw error("unexpected character, expected a value")
    }
  }

  mutating func parseLiteral(_ word: String, _ value: JSONValue) throws(JSONParseError) -> JSONValue {
    let start = index
    for byte in word.utf8 {
      guard index < bytes.count, bytes[index] == byte else {
        throw error("invalid literal, expected \(word)", at: start)
      }
      index += 1
    }
    return value
  }

  mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
    guard depth <= JSONValue.maximumDepth else { throw error("nesting is deeper than \(JSONValue.maximumDepth)") }
    index += 1
    var members: [(String, JSONValue)] = []
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
      index += 1
      return .object(members)
    }
    while true {
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
        throw error("expected a string as object key")
      }
      let key = try parseString()
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
        throw error("expected ':' after an object key")
      }
      index += 1
      skipWhitespace()
      let value = try parseValue(depth: depth, at: JSONValue.pointerToken(key))
      members.append((key, value))
      skipWhitespace()
      guard index < bytes.count else { throw error("unexpected end of the text inside an object") }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
      } else if bytes[index] == UInt8(ascii: "}") {
        index += 1
        return .object(members)
      } else {
        throw error("expected ',' or '}' in an object")
      }
    }
  }

  mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
    guard depth <= JSONValue.maximumDepth else { throw error("nesting is deeper than \(JSONValue.maximumDepth)") }
    index += 1
    var values: [JSONValue] = []
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
      index += 1
      return .array(values)
    }
    while true {
      skipWhitespace()
      values.append(try parseValue(depth: depth, at: String(values.count)))
      skipWhitespace()
      guard index < bytes.count else { throw error("unexpected end of the text inside an array") }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
      } else if bytes[index] == UInt8(ascii: "]") {
        index += 1
        return .array(values)
      } else {
        throw error("expected ',' or ']' in an array")
      }
    }
  }

  mutating func parseNumber() throws(JSONParseError) -> JSONValue {
    let start = index
    if bytes[index] == UInt8(ascii: "-") { index += 1 }
    guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit") }
    if bytes[index] == UInt8(ascii: "0") {
      index += 1
      if index < bytes.count, isDigit(bytes[index]) { throw error("leading zeros are not allowed") }
    } else {
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
    var isInteger = true
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      isInteger = false
      index += 1
      guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit after '.'") }
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      isInteger = false
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
        index += 1
      }
      guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit in the exponent") }
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
    let text = String(decoding: bytes[start..<index], as: UTF8.self)
    if isInteger, let integer = Int64(text) { return .integer(integer) }
    guard let number = Double(text), number.isFinite else {
      throw error("number out of range", at: start)
    }
    if numberTexts != nil { numberTexts?[pointer] = text }
    return .number(number)
  }

  mutating func parseString() throws(JSONParseError) -> String {
    index += 1
    var output: [UInt8] = []
    while true {
      guard index < bytes.count else { throw error("unterminated string") }
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "\""):
        index += 1
        guard let string = String(validating: output, as: UTF8.self) else {
          throw error("the string is not valid UTF-8")
        }
        return string
      case UInt8(ascii: "\\"):
        let escapeStart = index
        index += 1
        guard index < bytes.count else { throw error("unterminated escape") }
        let escape = bytes[index]
        index += 1
        switch escape {
        case UInt8(ascii: "\""): output.append(0x22)
        case UInt8(ascii: "\\"): output.append(0x5C)
        case UInt8(ascii: "/"): output.append(0x2F)
        case UInt8(ascii: "b"): output.append(0x08)
        case UInt8(ascii: "f"): output.append(0x0C)
        case UInt8(ascii: "n"): output.append(0x0A)
        case UInt8(ascii: "r"): output.append(0x0D)
        case UInt8(ascii: "t"): output.append(0x09)
        case UInt8(ascii: "u"):
          var scalar = try parseHex4()
          if (0xD800...0xDBFF).contains(scalar) {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
              bytes[index + 1] == UInt8(ascii: "u")
            else { throw error("a high surrogate must be followed by a low surrogate") }
            index += 2
            let low = try parseHex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw error("invalid low surrogate") }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
          } else if (0xDC00...0xDFFF).contains(scalar) {
            throw error("a lone low surrogate", at: escapeStart)
          }
          guard let unicode = Unicode.Scalar(scalar) else { throw error("invalid Unicode escape") }
          output.append(contentsOf: String(Character(unicode)).utf8)
        default: throw error("invalid escape", at: escapeStart)
        }
      case 0x00..<0x20: throw error("a control character must be escaped in a string")
      default:
        output.append(byte)
        index += 1
      }
    }
  }

  mutating func parseHex4() throws(JSONParseError) -> UInt32 {
    guard index + 4 <= bytes.count else { throw error("expected four hex digits") }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let byte = bytes[index]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: throw error("expected a hex digit")
      }
      value = value << 4 | UInt32(digit)
      index += 1
    }
    return value
  }

  func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}
