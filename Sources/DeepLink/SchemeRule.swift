/// The one rule for a link scheme, for every place that takes one.
///
/// A scheme is RFC 3986's `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )` of at
/// most ``maximumLength`` bytes. Links compare it without case, and it is kept
/// and written in lowercase, its canonical form. A scheme given in code or on
/// the command line may be in any case and is lowercased
/// (``normalized(_:)``); a scheme stored in a file must be written in its
/// canonical form (``isCanonical(_:)``), so that the file says what links carry.
public enum SchemeRule {
  /// The longest scheme, in bytes.
  public static let maximumLength = 32

  /// `scheme` in lowercase, once it is known to follow the rule.
  ///
  /// - Throws: `bad-scheme` at the first byte that cannot stand in a scheme,
  ///   at 0 for an empty one, at ``maximumLength`` for one that is longer.
  public static func normalized(_ scheme: String) throws(DeepLinkError) -> String {
    try scheme.withUTF8Bytes { bytes throws(DeepLinkError) in
      if let problem = problem(bytes) { throw problem }
      return String(decoding: bytes.map(ASCII.lowercased), as: UTF8.self)
    }
  }

  /// Whether `scheme` follows the rule and is in lowercase already.
  public static func isCanonical(_ scheme: String) -> Bool {
    (try? normalized(scheme)) == scheme
  }

  /// Why `bytes` is not a scheme, or `nil` when it is one.
  static func problem(_ bytes: UnsafeBufferPointer<UInt8>) -> DeepLinkError? {
    for (index, byte) in bytes.enumerated()
    where !(index == 0 ? ASCII.isLetter(byte) : ASCII.isSchemeByte(byte)) {
      return DeepLinkError(
        .badScheme, at: index,
        "\(ASCII.describe(byte)) cannot stand in a scheme, which is a letter, then letters, digits, '+', '-' and '.'"
      )
    }
    guard !bytes.isEmpty else { return DeepLinkError(.badScheme, at: 0, "the scheme is empty") }
    guard bytes.count <= maximumLength else {
      return DeepLinkError(
        .badScheme, at: maximumLength,
        "the scheme has \(bytes.count) bytes; at most \(maximumLength) are allowed")
    }
    return nil
  }
}
