import DeepLink

extension Command {
  /// `shieldbridge link decode [TEXT…]`.
  static let linkDecode = Command(
    name: "decode",
    abstract: "Decode a percent-encoded link value, strictly.",
    arguments: "[TEXT…]",
    argumentCount: 0...Int.max,
    discussion: """
      Accepts what a link value may hold: ASCII letters, digits, -._~ and %XX in
      either case. A raw character outside that set, a bad escape, bytes that are
      not UTF-8 and control characters (which would break the line-by-line
      output) are reported on stderr with their code and byte offset, and the
      exit status is 65. A line of any length is decoded as it arrives, in
      bounded memory.
      """,
    body: { invocation in
      LinkInput().run(invocation, streaming: LinkDecodeStream.init)
    }
  )
}

/// `link decode`'s answer to one input, decoded piece by piece.
private struct LinkDecodeStream: LinkStream {
  private var decoder = PercentEncoding.StreamingDecoder(rejectingControlCharacters: true)

  mutating func consume(_ piece: UnsafeBufferPointer<UInt8>, isFinal: Bool, into answer: inout LinkOutput)
    throws(DeepLinkError)
  {
    try decoder.decode(piece, isFinal: isFinal) { answer.append(bytes: $0) }
  }
}
