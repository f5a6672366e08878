/// The quoted strings of PO files, with the C escapes gettext accepts.
enum POString {
  /// Decodes one string whose opening quote is just before `start`, appending its bytes to `output`.
  ///
  /// Accepted escapes are gettext's: `\n \t \b \r \f \v \a \\ \"`, one to
  /// three octal digits, and `\x` with hex digits. A NUL byte is refused: the
  /// compiled catalogs are C strings, and it would silently cut the text.
  ///
  /// - Returns: The index just after the closing quote.
  static func decode(
    _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, end: Int, into output: inout [UInt8],
    fail: (POParseError.Code, String) throws(POParseError) -> Never
  ) throws(POParseError) -> Int {
    var index = start
    while index < end {
      // Plain runs are copied at once; only quotes and backslashes stop the scan.
      var runEnd = index
      while runEnd < end, bytes[runEnd] != UInt8(ascii: "\""), bytes[runEnd] != UInt8(ascii: "\\") {
        runEnd += 1
      }
      output.append(contentsOf: bytes[index..<runEnd])
      index = runEnd
      guard index < end else { break }
      if bytes[index] == UInt8(ascii: "\"") { return index + 1 }
      index += 1
      guard index < end else { try fail(.badString, "the string ends with a lone backslash") }
      let escape = bytes[index]
      index += 1
      switch escape {
      case UInt8(ascii: "n"): output.append(0x0A)
      case UInt8(ascii: "t"): output.append(0x09)
      case UInt8(ascii: "b"): output.append(0x08)
      case UInt8(ascii: "r"): output.append(0x0D)
      case UInt8(ascii: "f"): output.append(0x0C)
      case UInt8(ascii: "v"): output.append(0x0B)
      case UInt8(ascii: "a"): output.append(0x07)
      case UInt8(ascii: "\\"), UInt8(ascii: "\""): output.append(escape)
      case UInt8(ascii: "0")...UInt8(ascii: "7"):
        var value = Int(escape - UInt8(ascii: "0"))
        var digits = 1
        while digits < 3, index < end, bytes[index] >= UInt8(ascii: "0"),
          bytes[index] <= UInt8(ascii: "7")
        {
          value = value * 8 + Int(bytes[index] - UInt8(ascii: "0"))
          index += 1
          digits += 1
        }
        guard value <= 0xFF else { try fail(.badEscape, "the octal escape is larger than a byte") }
        guard value != 0 else { try fail(.badEscape, "the string holds a NUL character") }
        output.append(UInt8(value))
      case UInt8(ascii: "x"):
        var value = 0
        var digits = 0
        while index < end, let digit = hexValue(bytes[index]) {
          value = value * 16 + digit
          index += 1
          digits += 1
          guard value <= 0xFF else { try fail(.badEscape, "the hex escape is larger than a byte") }
        }
        guard digits > 0 else { try fail(.badEscape, "\\x without hex digits") }
        guard value != 0 else { try fail(.badEscape, "the string holds a NUL character") }
        output.append(UInt8(value))
      default:
        let shown = escape < 0x80 ? String(UnicodeScalar(escape)) : "byte \(escape)"
        try fail(.badEscape, "invalid escape '\\\(shown)'")
      }
    }
    try fail(.badString, "the string has no closing quote")
  }

  /// Encodes `text` as the content of a PO string (without the quotes).
  static func encode(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\n": result += "\\n"
      case "\t": result += "\\t"
      case "\r": result += "\\r"
      case "\\": result += "\\\\"
      case "\"": result += "\\\""
      case _ where scalar.value < 0x20:
        let octal = String(scalar.value, radix: 8)
        result += "\\" + String(repeating: "0", count: 3 - octal.count) + octal
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  private static func hexValue(_ byte: UInt8) -> Int? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a")) + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - UInt8(ascii: "A")) + 10
    default: nil
    }
  }
}

extension String {
  /// The text of UTF-8 bytes, or `nil` when they are not valid UTF-8.
  ///
  /// Through `UTF8Span`, which the compiler specializes, unlike the generic
  /// `String(validating:as:)` that looks up type metadata on every call.
  init?(validatingUTF8 bytes: UnsafeBufferPointer<UInt8>) {
    guard let span = try? UTF8Span(validating: bytes.span) else { return nil }
    self.init(copying: span)
  }

  /// Whether the bytes are valid UTF-8.
  static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    (try? UTF8Span(validating: bytes.span)) != nil
  }
}
