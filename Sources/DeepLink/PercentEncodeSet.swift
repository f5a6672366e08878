/// A set of ASCII bytes that must be percent-encoded, as a type.
///
/// The encoder writes every byte the set names, and every byte from 0x80 up,
/// as `%XX`; the strict decoder rejects the same bytes when they appear raw.
/// Sets are found as static members, so that call sites read
/// `PercentEncoding.encode(name, using: .strictUnreserved)`.
public protocol PercentEncodeSet: Sendable {
  /// Whether the ASCII byte `byte` (0…127) must be written as `%XX`.
  func shouldPercentEncode(ascii byte: UInt8) -> Bool
}

/// Everything but RFC 3986's unreserved characters: ASCII letters, digits and `-._~`.
///
/// This is the only set a deep link's values use. Unlike
/// `CharacterSet.alphanumerics` it holds no non-ASCII letters, and a space is
/// `%20`, never `+`.
public struct StrictUnreservedEncodeSet: PercentEncodeSet {
  @inlinable
  public init() {}

  @inlinable
  public func shouldPercentEncode(ascii byte: UInt8) -> Bool {
    // One bit per kept byte: 0–63 in the low word (`-`, `.`, digits), 64–127 in
    // the high word (letters, `_`, `~`).
    let low: UInt64 = 0x03FF_6000_0000_0000
    let high: UInt64 = 0x47FF_FFFE_87FF_FFFE
    let word = byte < 64 ? low : high
    return (word >> UInt64(byte & 63)) & 1 == 0
  }
}

extension PercentEncodeSet where Self == StrictUnreservedEncodeSet {
  /// Everything but ASCII letters, digits and `-._~`: the deep link's set.
  @inlinable
  public static var strictUnreserved: StrictUnreservedEncodeSet { StrictUnreservedEncodeSet() }
}
