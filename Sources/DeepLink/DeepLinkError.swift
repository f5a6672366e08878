/// Why a deep link, a percent-encoded text or a link's part was rejected.
///
/// Every error has a stable ``code`` that scripts can match on, the byte
/// ``offset`` in the input where the problem is, and a ``message`` for people.
/// Offsets count UTF-8 bytes from 0. For a link that is too long the offset is
/// the first byte past the limit; for a missing parameter it is the end of the
/// link; for a value given to a builder it is the offset inside that value.
public struct DeepLinkError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A stable, machine-readable error code, such as `bad-percent-escape`.
  public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
      self.rawValue = rawValue
    }

    public var description: String { rawValue }

    /// A raw byte that the grammar does not allow where it stands: a space, a
    /// `+`, a non-ASCII byte or any other character that must be percent-encoded.
    public static let unencodedCharacter = Code(rawValue: "unencoded-character")
    /// A `%` that is not followed by two hexadecimal digits.
    public static let badPercentEscape = Code(rawValue: "bad-percent-escape")
    /// Decoded bytes that are not UTF-8: a truncated sequence, a stray
    /// continuation byte, an overlong form, a surrogate or a value past U+10FFFF.
    public static let invalidUTF8 = Code(rawValue: "invalid-utf8")
    /// A decoded control character (Unicode category Cc: U+0000–U+001F,
    /// U+007F–U+009F).
    public static let controlCharacter = Code(rawValue: "control-character")
    /// The same parameter key twice.
    public static let duplicateParameter = Code(rawValue: "duplicate-parameter")
    /// A required parameter is absent (an empty text value counts as absent).
    public static let missingParameter = Code(rawValue: "missing-parameter")
    /// A value outside its rule: a number out of range or a token with a
    /// character or a length its rule does not allow.
    public static let invalidValue = Code(rawValue: "invalid-value")
    /// A route that is not in the router's table, or not a route name at all.
    public static let unknownRoute = Code(rawValue: "unknown-route")
    /// A scheme that is malformed, not followed by `://`, or not the configured one.
    public static let badScheme = Code(rawValue: "bad-scheme")
    /// A link longer than ``DeepLink/maximumLength`` bytes.
    public static let tooLong = Code(rawValue: "too-long")
    /// A query parameter without `=`, with an empty or malformed key, or an
    /// empty one between two `&`.
    public static let malformedParameter = Code(rawValue: "malformed-parameter")
  }

  /// What was wrong.
  public var code: Code
  /// Where it was: the offset in UTF-8 bytes from the start of the input.
  public var offset: Int
  /// A sentence for people; it may change between versions, the code does not.
  public var message: String

  public init(_ code: Code, at offset: Int, _ message: String) {
    self.code = code
    self.offset = offset
    self.message = message
  }

  /// `too-long` for a link of `length` bytes, at the offset of the first byte
  /// past ``DeepLink/maximumLength``: what the parser says of any link over the
  /// limit, and what a reader that kept only the start of a long line says of it.
  public static func tooLong(length: Int) -> DeepLinkError {
    DeepLinkError(
      .tooLong, at: DeepLink.maximumLength,
      "the link has \(length) bytes; at most \(DeepLink.maximumLength) are allowed")
  }

  public var description: String { "\(code) at byte \(offset): \(message)" }
}
