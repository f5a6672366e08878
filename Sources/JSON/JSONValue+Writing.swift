extension JSONValue {
  /// The value as compact JSON text on one line (RFC 8259), keys in their order.
  ///
  /// Non-ASCII characters are written as they are (UTF-8); control characters,
  /// `"` and `\` are escaped, and so are U+2028 and U+2029 so that the line is
  /// also valid JavaScript. A number that is not finite is written as `null`.
  public var serialized: String {
    var output: [UInt8] = []
    output.reserveCapacity(64)
    write(to: &output)
    return String(decoding: output, as: UTF8.self)
  }

  /// Appends the compact JSON text of the value to `output`.
  public func write(to output: inout [UInt8]) {
    switch self {
    case .null: output.append(contentsOf: "null".utf8)
    case .bool(let value): output.append(contentsOf: (value ? "true" : "false").utf8)
    case .integer(let value): output.append(contentsOf: String(value).utf8)
    case .number(let value):
      if !value.isFinite {
        output.append(contentsOf: "null".utf8)
      } else if abs(value) < 1e15, let integer = Int64(exactly: value) {
        output.append(contentsOf: String(integer).utf8)
      } else {
        output.append(contentsOf: "\(value)".utf8)
      }
    case .string(let value): JSONValue.writeString(value, to: &output)
    case .array(let values):
      output.append(UInt8(ascii: "["))
      for (index, value) in values.enumerated() {
        if index > 0 { output.append(UInt8(ascii: ",")) }
        value.write(to: &output)
      }
      output.append(UInt8(ascii: "]"))
    case .object(let members):
      output.append(UInt8(ascii: "{"))
      for (index, (key, value)) in members.enumerated() {
        if index > 0 { output.append(UInt8(ascii: ",")) }
        JSONValue.writeString(key, to: &output)
        output.append(UInt8(ascii: ":"))
        value.write(to: &output)
      }
      output.append(UInt8(ascii: "}"))
    }
  }

  /// Appends `string` as a quoted JSON string literal to `output`.
  public static func writeString(_ string: String, to output: inout [UInt8]) {
    output.append(UInt8(ascii: "\""))
    var string = string
    string.withUTF8 { bytes in
      var index = 0
      while index < bytes.count {
        let byte = bytes[index]
        switch byte {
        case UInt8(ascii: "\""): output.append(contentsOf: [0x5C, 0x22])
        case UInt8(ascii: "\\"): output.append(contentsOf: [0x5C, 0x5C])
        case 0x0A: output.append(contentsOf: [0x5C, UInt8(ascii: "n")])
        case 0x0D: output.append(contentsOf: [0x5C, UInt8(ascii: "r")])
        case 0x09: output.append(contentsOf: [0x5C, UInt8(ascii: "t")])
        case 0x00..<0x20, 0x7F:
          output.append(contentsOf: "\\u00".utf8)
          output.append(hexDigits[Int(byte >> 4)])
          output.append(hexDigits[Int(byte & 0x0F)])
        case 0xE2
        where index + 2 < bytes.count && bytes[index + 1] == 0x80
          && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9):
          output.append(contentsOf: (bytes[index + 2] == 0xA8 ? "\\u2028" : "\\u2029").utf8)
          index += 2
        default: output.append(byte)
        }
        index += 1
      }
    }
    output.append(UInt8(ascii: "\""))
  }
}

private let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
