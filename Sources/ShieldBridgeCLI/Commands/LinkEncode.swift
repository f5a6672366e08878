import DeepLink

extension Command {
  /// `shieldbridge link encode [TEXT…]`.
  static let linkEncode = Command(
    name: "encode",
    abstract: "Percent-encode text for a link value (UTF-8, uppercase %XX).",
    arguments: "[TEXT…]",
    argumentCount: 0...Int.max,
    discussion: """
      Every byte but ASCII letters, digits and -._~ becomes %XX; a space is %20,
      never +. Without TEXT, each line of stdin is encoded; a line that is not
      UTF-8 is reported on stderr (invalid-utf8) and the exit status is 65.
      A line of any length is encoded as it arrives, in bounded memory.
      """,
    body: { invocation in
      LinkInput().run(invocation, streaming: LinkEncodeStream.init)
    }
  )
}

/// `link encode`'s answer to one input, encoded piece by piece.
private struct LinkEncodeStream: LinkStream {
  private var encoder = PercentEncoding.StreamingEncoder()

  mutating func consume(_ piece: UnsafeBufferPointer<UInt8>, isFinal: Bool, into answer: inout LinkOutput)
    throws(DeepLinkError)
  {
    try encoder.encode(piece, isFinal: isFinal) { answer.append(bytes: $0) }
  }
}
