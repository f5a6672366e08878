extension String {
  /// `withUTF8`, whose body may throw only a ``DeepLinkError``.
  mutating func withUTF8Bytes<Result>(
    _ body: (UnsafeBufferPointer<UInt8>) throws(DeepLinkError) -> Result
  ) throws(DeepLinkError) -> Result {
    let outcome = withUTF8 { bytes in
      Swift.Result { () throws(DeepLinkError) -> Result in try body(bytes) }
    }
    return try outcome.get()
  }
}
