extension PercentEncoding {
  /// Percent-encodes a text that arrives in pieces, with the strict unreserved
  /// set, exactly as ``PercentEncoding/encode(validating:using:)`` encodes it whole.
  ///
  /// Encoding is byte by byte, so each piece is encoded on its own; only the
  /// UTF-8 check carries over, for a character split between two pieces, and
  /// errors carry the offset in the whole text.
  public struct StreamingEncoder: Sendable {
    private var check = UTF8Check(rejectingControlCharacters: false)
    private var offset = 0

    /// An encoder at the start of a text.
    public init() {}

    /// Checks `piece`, the next bytes of the text, and hands their encoding to `sink`.
    ///
    /// - Parameter isFinal: whether `piece` ends the text, so that a UTF-8
    ///   sequence left open is an error.
    /// - Throws: `invalid-utf8` with the offset of the first bad sequence in
    ///   the whole text; `sink` was not called for `piece` then.
    public mutating func encode(
      _ piece: UnsafeBufferPointer<UInt8>, isFinal: Bool, into sink: (UnsafeBufferPointer<UInt8>) -> Void
    ) throws(DeepLinkError) {
      for index in 0..<piece.count {
        try check.consume(piece[index], at: offset &+ index)
      }
      offset &+= piece.count
      if isFinal { try check.finish() }
      guard let source = piece.baseAddress, !piece.isEmpty else { return }
      let count = piece.count
      let table = ByteTables.strictEncoding
      // As in the whole-text encoder: room for every byte as `%XX` and the
      // last four-byte store's spare byte.
      withUnsafeTemporaryAllocation(byteCount: count * 3 + 1, alignment: 4) { output in
        guard let raw = output.baseAddress else { return }
        var written = 0
        for index in 0..<count {
          let entry = table[Int(source[index])]
          raw.storeBytes(of: entry, toByteOffset: written, as: UInt32.self)
          written &+= Int(entry >> 24)
        }
        sink(UnsafeBufferPointer(start: raw.assumingMemoryBound(to: UInt8.self), count: written))
      }
    }
  }
}
