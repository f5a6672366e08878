/// A byte-at-a-time UTF-8 validator that remembers where each sequence began.
///
/// It follows the well-formed byte sequences of the Unicode Standard (table
/// 3-7), so overlong forms (`C0 AF`, `E0 80 AF`), surrogates (`ED A0 80`) and
/// values past U+10FFFF are rejected, each at the offset of the sequence's
/// first byte. With `rejectingControlCharacters` it also rejects category Cc:
/// C0 controls, DEL and the C1 controls U+0080–U+009F.
struct UTF8Check {
  let rejectingControlCharacters: Bool
  /// Continuation bytes still expected for the current sequence.
  private(set) var pending = 0
  /// The range the next continuation byte must fall in.
  private var lower: UInt8 = 0x80
  private var upper: UInt8 = 0xBF
  private var lead: UInt8 = 0
  /// Where the current sequence began.
  private var start = 0

  init(rejectingControlCharacters: Bool) {
    self.rejectingControlCharacters = rejectingControlCharacters
  }

  /// Takes the next byte, which stands at `offset` in the input.
  mutating func consume(_ byte: UInt8, at offset: Int) throws(DeepLinkError) {
    if pending > 0 {
      guard byte >= lower && byte <= upper else { throw malformed(next: byte) }
      if rejectingControlCharacters && lead == 0xC2 && byte < 0xA0 {
        throw DeepLinkError(
          .controlCharacter, at: start,
          "C2 \(ASCII.hex(byte)) decodes to the control character U+00\(ASCII.hex(byte))")
      }
      lower = 0x80
      upper = 0xBF
      pending -= 1
      return
    }
    switch byte {
    case 0x00..<0x80:
      if rejectingControlCharacters && (byte < 0x20 || byte == 0x7F) {
        throw DeepLinkError(
          .controlCharacter, at: offset, "byte 0x\(ASCII.hex(byte)) is a control character")
      }
      return
    case 0xC2...0xDF: pending = 1
    case 0xE0:
      pending = 2
      lower = 0xA0
    case 0xE1...0xEC, 0xEE...0xEF: pending = 2
    case 0xED:
      pending = 2
      upper = 0x9F
    case 0xF0:
      pending = 3
      lower = 0x90
    case 0xF1...0xF3: pending = 3
    case 0xF4:
      pending = 3
      upper = 0x8F
    case 0xC0, 0xC1:
      throw DeepLinkError(
        .invalidUTF8, at: offset, "byte 0x\(ASCII.hex(byte)) starts an overlong UTF-8 form")
    case 0x80...0xBF:
      throw DeepLinkError(
        .invalidUTF8, at: offset,
        "byte 0x\(ASCII.hex(byte)) is a UTF-8 continuation byte without a lead byte")
    default:
      throw DeepLinkError(
        .invalidUTF8, at: offset, "byte 0x\(ASCII.hex(byte)) never occurs in UTF-8")
    }
    lead = byte
    start = offset
  }

  /// Checks that no sequence was left open at the end of the input.
  func finish() throws(DeepLinkError) {
    if pending > 0 { throw cutShort }
  }

  /// The error for a sequence that ends before its continuation bytes do.
  var cutShort: DeepLinkError {
    DeepLinkError(.invalidUTF8, at: start, "the UTF-8 sequence starting with 0x\(ASCII.hex(lead)) is cut short")
  }

  private func malformed(next byte: UInt8) -> DeepLinkError {
    let reason: String
    switch (lead, byte >= 0x80 && byte <= 0xBF) {
    case (0xE0, true), (0xF0, true): reason = "is an overlong UTF-8 form"
    case (0xED, true): reason = "encodes a UTF-16 surrogate, which UTF-8 forbids"
    case (0xF4, true): reason = "encodes a value past U+10FFFF"
    default: reason = "is cut short"
    }
    return DeepLinkError(
      .invalidUTF8, at: start, "the UTF-8 sequence starting with 0x\(ASCII.hex(lead)) \(reason)")
  }
}
