/// Lookup tables over the 256 byte values, built once, for the hot loops.
///
/// A table lookup classifies a byte in one load where a chain of range
/// comparisons takes several instructions, and the encoder writes a whole
/// `%XX` (or one kept byte) with a single four-byte store. The tables are
/// immutable once built, hence safe to read from any thread.
enum ByteTables {
  /// Bits of ``classes``.
  struct Class: OptionSet {
    let rawValue: UInt8

    /// ASCII letters, digits and `-._~`: kept raw by the strict encode set.
    static let unreserved = Class(rawValue: 1 << 0)
    /// `ALPHA / DIGIT / "+" / "-" / "."`: the bytes of a scheme after its first.
    static let scheme = Class(rawValue: 1 << 1)
    /// Letters, digits and `-`: the bytes of a route name.
    static let route = Class(rawValue: 1 << 2)
    /// `[a-z0-9-]`: the bytes of a parameter key after its first.
    static let key = Class(rawValue: 1 << 3)
    /// `[a-z]`.
    static let lowercase = Class(rawValue: 1 << 4)
    /// `[A-Za-z]`.
    static let letter = Class(rawValue: 1 << 5)
    /// The C0 controls and DEL, which no decoded value may hold.
    static let control = Class(rawValue: 1 << 6)
  }

  /// The ``Class`` bits of every byte.
  nonisolated(unsafe) static let classes: UnsafePointer<UInt8> = table(of: UInt8.self) { byte in
    var bits: Class = []
    if byte < 0x80 && !StrictUnreservedEncodeSet().shouldPercentEncode(ascii: byte) { bits.insert(.unreserved) }
    if ASCII.isSchemeByte(byte) { bits.insert(.scheme) }
    if ASCII.isRouteByte(byte) { bits.insert(.route) }
    if ASCII.isKeyByte(byte) { bits.insert(.key) }
    if ASCII.isLowercaseLetter(byte) { bits.insert(.lowercase) }
    if ASCII.isLetter(byte) { bits.insert(.letter) }
    if byte < 0x20 || byte == 0x7F { bits.insert(.control) }
    return bits.rawValue
  }

  /// For every byte that may start a UTF-8 sequence of text without control
  /// characters: how many continuation bytes follow (the low byte) and the
  /// range of the first of them (the next two bytes, lowest first), from
  /// table 3-7 of the Unicode Standard; 0 for any other byte. After `C2` the
  /// range leaves out U+0080–U+009F, the C1 controls.
  nonisolated(unsafe) static let utf8Leads: UnsafePointer<UInt32> = table(of: UInt32.self) { byte in
    func lead(_ pending: UInt32, _ lower: UInt32 = 0x80, _ upper: UInt32 = 0xBF) -> UInt32 {
      pending | lower << 8 | upper << 16
    }
    switch byte {
    case 0xC2: return lead(1, 0xA0)
    case 0xC3...0xDF: return lead(1)
    case 0xE0: return lead(2, 0xA0)
    case 0xE1...0xEC, 0xEE...0xEF: return lead(2)
    case 0xED: return lead(2, 0x80, 0x9F)
    case 0xF0: return lead(3, 0x90)
    case 0xF1...0xF3: return lead(3)
    case 0xF4: return lead(3, 0x80, 0x8F)
    default: return 0
    }
  }

  /// The value of every hexadecimal digit in either case; 0xFF for any other byte.
  nonisolated(unsafe) static let hexValues: UnsafePointer<UInt8> = table(of: UInt8.self) {
    ASCII.hexValue($0) ?? 0xFF
  }

  /// What the strict encoder writes for every byte: up to three bytes in the
  /// low bytes, their count in the high byte.
  nonisolated(unsafe) static let strictEncoding: UnsafePointer<UInt32> = table(of: UInt32.self) {
    encoding(of: $0, keep: Class(rawValue: classes[Int($0)]).contains(.unreserved))
  }

  /// The encoder's entry for `byte`: the byte itself, or `%XX` in uppercase.
  static func encoding(of byte: UInt8, keep: Bool) -> UInt32 {
    if keep { return UInt32(byte) | 1 << 24 }
    let high = UInt32(PercentEncoding.hexDigit(byte >> 4))
    let low = UInt32(PercentEncoding.hexDigit(byte & 0x0F))
    return UInt32(UInt8(ascii: "%")) | high << 8 | low << 16 | 3 << 24
  }

  private static func table<Entry>(of type: Entry.Type, _ entry: (UInt8) -> Entry) -> UnsafePointer<Entry> {
    let table = UnsafeMutablePointer<Entry>.allocate(capacity: 256)
    for byte in 0...255 {
      (table + byte).initialize(to: entry(UInt8(byte)))
    }
    return UnsafePointer(table)
  }
}
