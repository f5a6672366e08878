extension String {
  /// The string's UTF-8 in place when it is stored contiguously, as native
  /// strings are (a copy otherwise), for a body that may throw only a
  /// ``DeepLinkError``.
  ///
  /// `withUTF8` and `withContiguousStorageIfAvailable` rethrow untyped errors,
  /// so the outcome is carried out by hand. The closure given to them returns
  /// nothing: a generic result would be handled through value witnesses
  /// (`Result(catching:)` likewise), which on the resolver's hot path cost
  /// more than the parsing.
  func withUTF8Bytes<Result>(
    _ body: (UnsafeBufferPointer<UInt8>) throws(DeepLinkError) -> Result
  ) throws(DeepLinkError) -> Result {
    var result: Result?
    var failure: DeepLinkError?
    let inPlace: Void? = utf8.withContiguousStorageIfAvailable { bytes in
      do throws(DeepLinkError) { result = try body(bytes) } catch { failure = error }
    }
    if inPlace == nil {
      var copy = self
      copy.withUTF8 { bytes in
        do throws(DeepLinkError) { result = try body(bytes) } catch { failure = error }
      }
    }
    // Moved out, not copied: a copy of a resolution goes through value witnesses.
    guard let result = consume result else {
      throw failure ?? DeepLinkError(.invalidUTF8, at: 0, "the text could not be read")
    }
    return result
  }
}
