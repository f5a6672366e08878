/// Byte classes of the link grammar, on raw UTF-8 bytes.
enum ASCII {
  static func isLetter(_ byte: UInt8) -> Bool {
    (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
  }

  static func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  static func isLowercaseLetter(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")
  }

  /// RFC 3986: `scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`.
  static func isSchemeByte(_ byte: UInt8) -> Bool {
    isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
      || byte == UInt8(ascii: ".")
  }

  /// A route name: letters, digits and `-`, starting with a letter.
  static func isRouteByte(_ byte: UInt8) -> Bool {
    isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "-")
  }

  /// A parameter key: `[a-z][a-z0-9-]*`.
  static func isKeyByte(_ byte: UInt8) -> Bool {
    isLowercaseLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "-")
  }

  static func lowercased(_ byte: UInt8) -> UInt8 {
    byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
  }

  /// The value of a hexadecimal digit in either case, or `nil`.
  static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte &- UInt8(ascii: "0")
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte &- UInt8(ascii: "A") &+ 10
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte &- UInt8(ascii: "a") &+ 10
    default: nil
    }
  }

  /// Whether `count` bytes at `bytes` equal those at `expected`, eight at a time.
  ///
  /// Every byte of `bytes` is ORed with the byte at the same place in `folds`
  /// first: 0x20 where `expected` holds a lowercase letter, so that its
  /// uppercase form matches too, and 0 elsewhere, so that no other byte
  /// (a control character ORed into a digit, say) can pass for it.
  @inline(__always)
  static func equal(
    _ bytes: UnsafePointer<UInt8>, _ expected: UnsafePointer<UInt8>, folds: UnsafePointer<UInt8>, count: Int
  ) -> Bool {
    @inline(__always) func wordsEqual(at index: Int) -> Bool {
      let word = UnsafeRawPointer(bytes + index).loadUnaligned(as: UInt64.self)
      let fold = UnsafeRawPointer(folds + index).loadUnaligned(as: UInt64.self)
      return word | fold == UnsafeRawPointer(expected + index).loadUnaligned(as: UInt64.self)
    }
    guard count >= 8 else {
      var index = 0
      while index < count {
        if bytes[index] | folds[index] != expected[index] { return false }
        index &+= 1
      }
      return true
    }
    // Whole words, the last one overlapping the one before when `count` is not a multiple of 8.
    var index = 0
    while index &+ 8 < count {
      if !wordsEqual(at: index) { return false }
      index &+= 8
    }
    return wordsEqual(at: count &- 8)
  }

  /// How a byte is named in a message: `'+'` when printable, `byte 0xC3` otherwise.
  static func describe(_ byte: UInt8) -> String {
    if byte > 0x20 && byte < 0x7F {
      return "'\(Character(Unicode.Scalar(byte)))'"
    }
    if byte == 0x20 { return "a space" }
    return "byte 0x" + hex(byte)
  }

  /// Two uppercase hexadecimal digits.
  static func hex(_ byte: UInt8) -> String {
    String(
      decoding: [PercentEncoding.hexDigit(byte >> 4), PercentEncoding.hexDigit(byte & 0x0F)],
      as: UTF8.self)
  }

  /// Up to `limit` bytes of `bytes` as text for a message, invalid UTF-8 repaired.
  static func excerpt(_ bytes: UnsafeBufferPointer<UInt8>, limit: Int = 64) -> String {
    if bytes.count <= limit { return String(decoding: bytes, as: UTF8.self) }
    return String(decoding: UnsafeBufferPointer(rebasing: bytes[0..<limit]), as: UTF8.self) + "…"
  }
}
