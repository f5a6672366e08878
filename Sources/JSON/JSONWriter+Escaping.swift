/// The one string-escaping rule of every JSON ShieldBridge writes (see ``JSONWriter``).
extension JSONWriter {
  /// Appends `text` as a quoted JSON string, escaped by the one rule (see ``JSONWriter``).
  @inlinable
  public mutating func append(quoted text: String) {
    JSONWriter.withUTF8(text) { append(quotedUTF8: $0) }
  }

  /// Appends UTF-8 bytes as a quoted JSON string, escaped by the one rule (see ``JSONWriter``).
  ///
  /// Nearly every string has nothing to escape: it is checked eight bytes at a
  /// time and copied whole; only one that may need escaping is written byte by byte.
  /// Always inlined, with its check, so that a line of `link parse --json`
  /// writes its six strings without a call for each.
  @inlinable @inline(__always)
  public mutating func append(quotedUTF8 bytes: UnsafeBufferPointer<UInt8>) {
    // Every byte escaped is at most six bytes, plus the quotes: room enough
    // to write without a check for each.
    reserve(bytes.count &* 6 &+ 2)
    var target = storage + byteCount
    target.pointee = UInt8(ascii: "\"")
    target += 1
    if let base = bytes.baseAddress, !bytes.isEmpty {
      if JSONWriter.mayNeedEscape(base, count: bytes.count) {
        target = JSONWriter.writeEscaped(bytes, to: target)
      } else {
        JSONWriter.copy(base, to: target, count: bytes.count)
        target += bytes.count
      }
    }
    target.pointee = UInt8(ascii: "\"")
    byteCount = storage.distance(to: target) &+ 1
  }

  /// Whether `byte` is escaped, or (0xE2) may start a character that is.
  @inlinable
  static func needsEscape(_ byte: UInt8) -> Bool {
    byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F || byte == 0xE2
  }

  /// Whether U+2028 or U+2029 starts at `index`.
  @inlinable
  static func isLineOrParagraphSeparator(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
    index + 2 < bytes.count && bytes[index] == 0xE2 && bytes[index + 1] == 0x80
      && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9)
  }

  /// Whether any of the `count` bytes at `base` may need escaping (see ``needsEscape(_:)``).
  @inlinable @inline(__always)
  static func mayNeedEscape(_ base: UnsafePointer<UInt8>, count: Int) -> Bool {
    let raw = UnsafeRawPointer(base)
    guard count >= 8 else {
      guard count >= 4 else {
        for index in 0..<count where needsEscape(base[index]) { return true }
        return false
      }
      // Four to seven bytes: the first four and the last four, overlapping, make one word.
      let first = raw.loadUnaligned(as: UInt32.self)
      let last = raw.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
      return mayNeedEscape(UInt64(first) | UInt64(last) << 32)
    }
    var index = 0
    while index &+ 8 <= count {
      if mayNeedEscape(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) { return true }
      index &+= 8
    }
    // The last bytes, in a word that overlaps the one before.
    return index < count && mayNeedEscape(raw.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self))
  }

  /// Writes `bytes` escaped to `target`, which has room for six bytes each; returns the end.
  @usableFromInline
  static func writeEscaped(
    _ bytes: UnsafeBufferPointer<UInt8>, to target: UnsafeMutablePointer<UInt8>
  ) -> UnsafeMutablePointer<UInt8> {
    var target = target
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      // 0xE2 starts U+2028 and U+2029 but also many a character that needs nothing.
      guard needsEscape(byte), byte != 0xE2 || isLineOrParagraphSeparator(bytes, at: index) else {
        target.pointee = byte
        target += 1
        index += 1
        continue
      }
      let escaped = writeEscape(of: bytes, at: index, to: target)
      target = escaped.end
      index += escaped.consumed
    }
    return target
  }

  /// Whether any of the eight bytes of `word` may need escaping: one below
  /// 0x20, or one of 0x22, 0x5C, 0x7F and 0xE2 (see ``needsEscape(_:)``).
  ///
  /// The classic tests for a zero byte and for a byte less than n (exact as
  /// to whether there is one), on the whole word at once.
  @inlinable
  static func mayNeedEscape(_ word: UInt64) -> Bool {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    func hasZeroByte(_ value: UInt64) -> UInt64 { (value &- ones) & ~value & highs }
    let control = (word &- ones &* 0x20) & ~word & highs
    return control | hasZeroByte(word ^ (ones &* 0x22)) | hasZeroByte(word ^ (ones &* 0x5C))
      | hasZeroByte(word ^ (ones &* 0x7F)) | hasZeroByte(word ^ (ones &* 0xE2)) != 0
  }

  /// Writes the escape of the byte (or separator) at `index` to `target`,
  /// which has room for six bytes; returns the end and how many bytes of
  /// `bytes` the escape stands for.
  @usableFromInline
  static func writeEscape(
    of bytes: UnsafeBufferPointer<UInt8>, at index: Int, to target: UnsafeMutablePointer<UInt8>
  ) -> (end: UnsafeMutablePointer<UInt8>, consumed: Int) {
    let byte = bytes[index]
    target[0] = UInt8(ascii: "\\")
    switch byte {
    case 0x22, 0x5C:
      target[1] = byte
      return (target + 2, 1)
    case 0x0A, 0x0D, 0x09:
      target[1] = byte == 0x0A ? UInt8(ascii: "n") : byte == 0x0D ? UInt8(ascii: "r") : UInt8(ascii: "t")
      return (target + 2, 1)
    case 0xE2:
      // U+2028 or U+2029: E2 80 A8 or E2 80 A9.
      for (offset, character) in "u202".utf8.enumerated() { target[1 + offset] = character }
      target[5] = bytes[index + 2] == 0xA8 ? UInt8(ascii: "8") : UInt8(ascii: "9")
      return (target + 6, 3)
    default:
      for (offset, character) in "u00".utf8.enumerated() { target[1 + offset] = character }
      target[4] = hexDigit(byte >> 4)
      target[5] = hexDigit(byte & 0x0F)
      return (target + 6, 1)
    }
  }

  /// The lowercase hex digit of `nibble` (0 to 15).
  @inlinable
  static func hexDigit(_ nibble: UInt8) -> UInt8 {
    nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") - 10 + nibble
  }
}
