extension PercentEncoding {
  /// Decodes a percent-encoded text that arrives in pieces, with the strict
  /// unreserved set, exactly as ``PercentEncoding/decode(utf8:using:rejectingControlCharacters:)``
  /// decodes it whole: the same bytes, or the same error at the same offset.
  ///
  /// The whole-text decoder reads the text in units, a raw byte, an escape, or
  /// the escapes of one multi-byte character, and is in the same state at the
  /// start of every unit. So each piece is decoded up to the last place that
  /// is surely such a start, and the few bytes after it (at most 16) are kept
  /// for the next piece: a `%XX` split between pieces and a character whose
  /// escapes are split are decoded whole, and the UTF-8 check of the decoded
  /// bytes never needs to carry over.
  public struct StreamingDecoder: Sendable {
    private let check: PercentDecoder.Check
    /// The bytes kept from the last piece, which start a unit.
    private var carry: [UInt8] = []
    /// The offset of `carry`'s first byte in the whole text.
    private var offset = 0

    /// A decoder at the start of a text; see ``PercentEncoding/decode(_:using:rejectingControlCharacters:)``.
    public init(rejectingControlCharacters: Bool = false) {
      check = rejectingControlCharacters ? .textWithoutControls : .text
    }

    /// Decodes `piece`, the next bytes of the text, and hands the decoded bytes to `sink`.
    ///
    /// - Parameter isFinal: whether `piece` ends the text.
    /// - Throws: `unencoded-character`, `bad-percent-escape`, `invalid-utf8`
    ///   or `control-character` with the offset in the whole text; what was
    ///   handed to `sink` before belongs to a text that is not good.
    public mutating func decode(
      _ piece: UnsafeBufferPointer<UInt8>, isFinal: Bool, into sink: (UnsafeBufferPointer<UInt8>) -> Void
    ) throws(DeepLinkError) {
      if carry.isEmpty {
        try decode(contiguous: piece, isFinal: isFinal, into: sink)
        return
      }
      var joined = carry
      carry = []
      joined.append(contentsOf: piece)
      try joined.withUnsafeBufferPointer { bytes throws(DeepLinkError) in
        try decode(contiguous: bytes, isFinal: isFinal, into: sink)
      }
    }

    /// Decodes `bytes`, which start a unit at `offset`, up to the last unit start (all when final).
    private mutating func decode(
      contiguous bytes: UnsafeBufferPointer<UInt8>, isFinal: Bool,
      into sink: (UnsafeBufferPointer<UInt8>) -> Void
    ) throws(DeepLinkError) {
      if isFinal {
        try Self.decode(bytes, base: offset, check: check, into: sink)
        offset &+= bytes.count
        return
      }
      guard let cut = Self.lastUnitStart(in: bytes) else {
        // No unit starts in the last 16 bytes: a good text always has one
        // there (a unit is at most 12 bytes), so decoding them as they are
        // throws the error the whole text has; until then, wait for more.
        if bytes.count > 16 {
          try Self.decode(bytes, base: offset, check: check, into: { _ in })
        }
        carry = Array(bytes)
        return
      }
      try Self.decode(UnsafeBufferPointer(rebasing: bytes[..<cut]), base: offset, check: check, into: sink)
      offset &+= cut
      carry = Array(bytes[cut...])
    }

    /// The last offset after 0, within the last 16 bytes, where a unit surely
    /// starts, or where the whole-text decoder fails just as it would on the
    /// bytes before it alone.
    ///
    /// That is a raw byte the set keeps that is not a digit of an escape, or a
    /// complete `%XX` that does not stand for a UTF-8 continuation byte. When
    /// a character's escapes before it are cut short, both decoders report
    /// the same `invalid-utf8`.
    private static func lastUnitStart(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
      let count = bytes.count
      guard count > 1 else { return nil }
      let kept = PercentDecoder.KeptBytes.strictUnreserved
      let percent = UInt8(ascii: "%")
      for index in stride(from: count - 1, through: max(1, count - 16), by: -1) {
        let byte = bytes[index]
        if kept.table[Int(byte)] & kept.mask != 0 {
          if bytes[index - 1] != percent && (index < 2 || bytes[index - 2] != percent) { return index }
        } else if byte == percent, index + 2 < count, let high = ASCII.hexValue(bytes[index + 1]),
          let low = ASCII.hexValue(bytes[index + 2]), !(0x80...0xBF).contains(high << 4 | low)
        {
          return index
        }
      }
      return nil
    }

    /// Decodes `bytes`, which stand at `base` in the whole text, as a text of their own.
    private static func decode(
      _ bytes: UnsafeBufferPointer<UInt8>, base: Int, check: PercentDecoder.Check,
      into sink: (UnsafeBufferPointer<UInt8>) -> Void
    ) throws(DeepLinkError) {
      guard !bytes.isEmpty else { return }
      try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count) { output throws(DeepLinkError) in
        guard let target = output.baseAddress else { return }
        let written = try PercentDecoder.decode(
          bytes, base: base, into: target, check: check, reporting: ReportingProblems.self
        ).written
        sink(UnsafeBufferPointer(start: target, count: written))
      }
    }
  }
}
