/// Strings of at most 15 UTF-8 bytes made from their bits, the way the
/// standard library stores them inline.
///
/// The standard library checks UTF-8 again whichever public initialiser makes
/// a string, which for the short values of a link costs more than parsing
/// them did. The parser has checked them already, and a string of up to 15
/// bytes is two words: the bytes, then a count and flags in the top byte.
/// That layout is not public API, so it is used only after the standard
/// library in use has been seen to make exactly those bits itself for a set
/// of probes (``isSupported``); anywhere else the strings are made the public
/// way, and are equal either way.
enum SmallString {
  /// The most bytes a small string holds.
  static let capacity = 15

  /// Whether this standard library lays small strings out as ``make(_:_:count:)`` does.
  static let isSupported: Bool = {
    guard MemoryLayout<String>.size == 16 && MemoryLayout<(UInt64, UInt64)>.size == 16 else { return false }
    let probes = ["", "a", "shield-open", "abcdefghijklmno", "é", "日本語 x", "ÆÆÆÆÆÆÆa"]
    return probes.allSatisfy { probe in
      let bytes = Array(probe.utf8)
      guard bytes.count <= capacity else { return false }
      let padded = bytes + Array(repeating: 0, count: 16 - bytes.count)
      let words = padded.withUnsafeBytes {
        ($0.loadUnaligned(as: UInt64.self), $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
      }
      let theirs = unsafeBitCast(String(decoding: bytes, as: UTF8.self), to: (UInt64, UInt64).self)
      let ours = unsafeBitCast(make(words.0, words.1, count: bytes.count), to: (UInt64, UInt64).self)
      return theirs == ours
    }
  }()

  /// The string of the `count` bytes of valid UTF-8 in `low` and `high`,
  /// little-endian, where `count` is at most 15 and the other bytes are zero.
  ///
  /// Only to be called where ``isSupported`` holds.
  @inline(__always)
  static func make(_ low: UInt64, _ high: UInt64, count: Int) -> String {
    let isASCII = (low | high) & 0x8080_8080_8080_8080 == 0
    // The top byte: immortal, ASCII or not, small; then the count.
    let discriminator: UInt64 = (isASCII ? 0xE0 : 0xA0) | UInt64(truncatingIfNeeded: count)
    return unsafeBitCast((low, high | discriminator &<< 56), to: String.self)
  }

  /// The string of the `count` bytes at `bytes`, at most 15, where 16 bytes may be read.
  @inline(__always)
  static func make(_ bytes: UnsafeRawPointer, count: Int) -> String {
    var low = bytes.loadUnaligned(as: UInt64.self)
    var high = bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
    if count < 8 {
      low &= (1 &<< UInt64(truncatingIfNeeded: count &* 8)) &- 1
      high = 0
    } else {
      high &= (1 &<< UInt64(truncatingIfNeeded: (count &- 8) &* 8)) &- 1
    }
    return make(low, high, count: count)
  }
}
