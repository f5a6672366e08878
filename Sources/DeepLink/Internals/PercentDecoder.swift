/// The strict decoding loop shared by ``PercentEncoding`` and the link parser.
enum PercentDecoder {
  /// What the decoded bytes must be.
  enum Check {
    /// Any bytes.
    case bytes
    /// UTF-8.
    case text
    /// UTF-8 without control characters: a deep link's values.
    case textWithoutControls
  }

  /// Decodes `input` into `output`, which has room for at least `input.count` bytes.
  ///
  /// - Parameter base: The offset of `input` in the whole text, for errors.
  /// - Returns: The number of bytes written.
  static func decode(
    _ input: UnsafeBufferPointer<UInt8>, base: Int = 0, into output: UnsafeMutablePointer<UInt8>,
    using set: some PercentEncodeSet, check: Check
  ) throws(DeepLinkError) -> Int {
    var utf8 = UTF8Check(rejectingControlCharacters: check == .textWithoutControls)
    let count = input.count
    var index = 0
    var written = 0
    while index < count {
      let byte = input[index]
      let start = index
      let decoded: UInt8
      if byte == UInt8(ascii: "%") {
        guard index + 2 < count, let high = ASCII.hexValue(input[index + 1]),
          let low = ASCII.hexValue(input[index + 2])
        else {
          throw DeepLinkError(
            .badPercentEscape, at: base + index, "'%' must be followed by two hexadecimal digits")
        }
        decoded = high << 4 | low
        index += 3
      } else if byte < 0x80 && !set.shouldPercentEncode(ascii: byte) {
        decoded = byte
        index += 1
      } else {
        throw DeepLinkError(
          .unencodedCharacter, at: base + index,
          "\(ASCII.describe(byte)) must be percent-encoded as %\(ASCII.hex(byte))")
      }
      if check != .bytes {
        try utf8.consume(decoded, at: base + start)
      }
      output[written] = decoded
      written += 1
    }
    if check != .bytes {
      try utf8.finish()
    }
    return written
  }

  /// Decodes `input` into a new array.
  static func decode(
    _ input: UnsafeBufferPointer<UInt8>, using set: some PercentEncodeSet, check: Check
  ) throws(DeepLinkError) -> [UInt8] {
    var failure: DeepLinkError?
    let decoded = [UInt8](unsafeUninitializedCapacity: input.count) { buffer, initialized in
      guard let base = buffer.baseAddress else { return }
      do throws(DeepLinkError) {
        initialized = try decode(input, into: base, using: set, check: check)
      } catch {
        failure = error
      }
    }
    if let failure { throw failure }
    return decoded
  }
}
