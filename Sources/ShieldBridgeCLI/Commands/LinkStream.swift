import DeepLink

/// The answer to one input of `link encode` or `link decode`, built piece by
/// piece as the input arrives.
protocol LinkStream {
  /// Appends the answer to `piece`, the next bytes of the input, to `answer`.
  ///
  /// - Parameter isFinal: whether `piece` ends the input.
  mutating func consume(_ piece: UnsafeBufferPointer<UInt8>, isFinal: Bool, into answer: inout LinkOutput)
    throws(DeepLinkError)
}
