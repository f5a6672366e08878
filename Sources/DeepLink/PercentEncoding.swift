/// Percent-encoding of UTF-8 text with an explicit set, and its strict inverse.
///
/// The encoder writes every byte that the set names, and every non-ASCII
/// byte, as `%` and two uppercase hexadecimal digits. The decoder accepts
/// hexadecimal digits in either case but nothing else out of place: a raw byte
/// the set would encode, a `%` without two hex digits after it, and (for text)
/// decoded bytes that are not UTF-8 are errors with their byte offset.
public enum PercentEncoding {
  /// `text` with every byte in `set`, and every non-ASCII byte, written as `%XX`.
  public static func encode(
    _ text: String, using set: some PercentEncodeSet = .strictUnreserved
  ) -> String {
    var text = text
    return text.withUTF8 { encode(utf8: $0, using: set) }
  }

  /// Arbitrary bytes, not necessarily UTF-8, percent-encoded with `set`.
  public static func encode(
    bytes: some Sequence<UInt8>, using set: some PercentEncodeSet = .strictUnreserved
  ) -> String {
    let bytes = Array(bytes)
    return bytes.withUnsafeBufferPointer { encode(utf8: $0, using: set) }
  }

  /// Bytes read from somewhere else, percent-encoded once they are known to be UTF-8.
  ///
  /// - Throws: `invalid-utf8` with the offset of the first bad sequence.
  public static func encode(
    validating bytes: UnsafeBufferPointer<UInt8>,
    using set: some PercentEncodeSet = .strictUnreserved
  ) throws(DeepLinkError) -> String {
    var check = UTF8Check(rejectingControlCharacters: false)
    for index in 0..<bytes.count {
      try check.consume(bytes[index], at: index)
    }
    try check.finish()
    return encode(utf8: bytes, using: set)
  }

  /// The bytes in `bytes` percent-encoded with `set`; the hot path of every other form.
  public static func encode(
    utf8 bytes: UnsafeBufferPointer<UInt8>, using set: some PercentEncodeSet = .strictUnreserved
  ) -> String {
    if type(of: set) == StrictUnreservedEncodeSet.self {
      return encode(bytes, table: ByteTables.strictEncoding)
    }
    return withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 256) { table in
      for byte in 0...255 {
        let byte = UInt8(byte)
        table[Int(byte)] = ByteTables.encoding(of: byte, keep: byte < 0x80 && !set.shouldPercentEncode(ascii: byte))
      }
      return encode(
        bytes, table: UnsafePointer(table.baseAddress ?? UnsafeMutablePointer(mutating: ByteTables.strictEncoding)))
    }
  }

  /// The encoding loop: one table lookup, one four-byte store and one addition a byte.
  private static func encode(_ bytes: UnsafeBufferPointer<UInt8>, table: UnsafePointer<UInt32>) -> String {
    guard let source = bytes.baseAddress, !bytes.isEmpty else { return "" }
    let count = bytes.count
    // The worst case, every byte as `%XX`, is allocated once, with room for the
    // last store's spare byte, and filled in place.
    return String(unsafeUninitializedCapacity: count * 3 + 1) { output in
      guard let target = output.baseAddress else { return 0 }
      let raw = UnsafeMutableRawPointer(target)
      var written = 0
      for index in 0..<count {
        let entry = table[Int(source[index])]
        raw.storeBytes(of: entry, toByteOffset: written, as: UInt32.self)
        written &+= Int(entry >> 24)
      }
      return written
    }
  }

  /// The text that `text` percent-encodes, checked strictly.
  ///
  /// - Parameters:
  ///   - set: The bytes that may not appear raw.
  ///   - rejectingControlCharacters: Whether a decoded control character
  ///     (U+0000–U+001F, U+007F–U+009F) is an error, as it is in a deep link.
  /// - Throws: `unencoded-character`, `bad-percent-escape`, `invalid-utf8`, or
  ///   `control-character`, with the byte offset in `text`.
  public static func decode(
    _ text: String, using set: some PercentEncodeSet = .strictUnreserved,
    rejectingControlCharacters: Bool = false
  ) throws(DeepLinkError) -> String {
    return try text.withUTF8Bytes { bytes throws(DeepLinkError) in
      try decode(utf8: bytes, using: set, rejectingControlCharacters: rejectingControlCharacters)
    }
  }

  /// The text that the bytes `bytes` percent-encode, checked strictly; see ``decode(_:using:rejectingControlCharacters:)``.
  public static func decode(
    utf8 bytes: UnsafeBufferPointer<UInt8>, using set: some PercentEncodeSet = .strictUnreserved,
    rejectingControlCharacters: Bool = false
  ) throws(DeepLinkError) -> String {
    let check: PercentDecoder.Check = rejectingControlCharacters ? .textWithoutControls : .text
    let decoded: [UInt8] = try PercentDecoder.decode(bytes, using: set, check: check)
    return String(decoding: decoded, as: UTF8.self)
  }

  /// The bytes that `text` percent-encodes, which need not be UTF-8.
  ///
  /// - Throws: `unencoded-character` or `bad-percent-escape` with the byte offset.
  public static func decodeBytes(
    _ text: String, using set: some PercentEncodeSet = .strictUnreserved
  ) throws(DeepLinkError) -> [UInt8] {
    return try text.withUTF8Bytes { bytes throws(DeepLinkError) in
      try PercentDecoder.decode(bytes, using: set, check: .bytes)
    }
  }

  /// The uppercase hexadecimal digit for a value 0…15.
  static func hexDigit(_ nibble: UInt8) -> UInt8 {
    nibble < 10 ? nibble &+ UInt8(ascii: "0") : nibble &+ (UInt8(ascii: "A") &- 10)
  }
}
