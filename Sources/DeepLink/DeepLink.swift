/// A deep link: a scheme, a route and parameters with decoded values, in order.
///
/// A `DeepLink` is always one that the parser accepts: the initialiser and
/// ``append(_:_:)`` check every part, so that `DeepLink(parsing:
/// link.description) == link` holds for every value. Scheme and route are
/// kept in lowercase, as they are compared without case. This is the syntactic
/// layer; ``Router`` turns a link into a typed action.
///
/// ```swift
/// var link = try DeepLink(scheme: "shieldbridge", route: "puzzle")
/// try link.append("app", "Café")
/// link.description  // "shieldbridge://puzzle?app=Caf%C3%A9"
/// ```
public struct DeepLink: Hashable, Sendable, CustomStringConvertible {
  /// The longest link, in UTF-8 bytes, that is built or parsed.
  public static let maximumLength = 2048

  /// One `key=value` pair; the value is decoded.
  public struct Parameter: Hashable, Sendable {
    public var key: String
    public var value: String

    public init(key: String, value: String) {
      self.key = key
      self.value = value
    }
  }

  /// The scheme in lowercase, such as `shieldbridge`.
  public private(set) var scheme: String
  /// The route in lowercase, such as `puzzle`.
  public private(set) var route: String
  /// The parameters in the order they were written.
  public private(set) var parameters: [Parameter] = []

  /// A link without parameters.
  ///
  /// - Throws: `bad-scheme` when the scheme does not follow ``SchemeRule``,
  ///   `unknown-route` when the route is not a name of letters, digits and
  ///   `-` starting with a letter, `too-long` past ``maximumLength``.
  public init(scheme: String, route: String) throws(DeepLinkError) {
    self.scheme = try SchemeRule.normalized(scheme)
    self.route = try route.withUTF8Bytes { bytes throws(DeepLinkError) in
      if let problem = LinkScanner.routeSyntaxProblem(bytes) {
        throw DeepLinkError(.unknownRoute, at: 0, problem)
      }
      return String(decoding: bytes.map(ASCII.lowercased), as: UTF8.self)
    }
    try DeepLink.checkLength(encodedLength)
  }

  /// Appends `key=value`.
  ///
  /// - Throws: `malformed-parameter` for a key that is not `[a-z][a-z0-9-]*`,
  ///   `duplicate-parameter` when the key is there already, `control-character`
  ///   for a control character in the value (offset in the value), `too-long`
  ///   when the link would pass ``maximumLength``.
  public mutating func append(_ key: String, _ value: String) throws(DeepLinkError) {
    try key.withUTF8Bytes { bytes throws(DeepLinkError) in
      for (index, byte) in bytes.enumerated()
      where !(index == 0 ? ASCII.isLowercaseLetter(byte) : ASCII.isKeyByte(byte)) {
        throw DeepLinkError(
          .malformedParameter, at: index,
          "\(ASCII.describe(byte)) cannot stand in a parameter key, which is [a-z][a-z0-9-]*")
      }
    }
    guard !key.isEmpty else {
      throw DeepLinkError(.malformedParameter, at: 0, "a parameter has an empty key")
    }
    guard !parameters.contains(where: { $0.key == key }) else {
      throw DeepLinkError(.duplicateParameter, at: 0, "the link has a parameter '\(key)' already")
    }
    var check = UTF8Check(rejectingControlCharacters: true)
    for (index, byte) in value.utf8.enumerated() {
      try check.consume(byte, at: index)
    }
    try DeepLink.checkLength(encodedLength + 2 + key.utf8.count + DeepLink.encodedLength(of: value))
    parameters.append(Parameter(key: key, value: value))
  }

  /// The value of the parameter `key`, or `nil` when the link has none.
  public subscript(key: String) -> String? {
    parameters.first { $0.key == key }?.value
  }

  /// The link as text, values percent-encoded with ``StrictUnreservedEncodeSet``.
  public var description: String {
    var text = scheme + "://" + route
    for (index, parameter) in parameters.enumerated() {
      text += index == 0 ? "?" : "&"
      text +=
        parameter.key + "=" + PercentEncoding.encode(parameter.value, using: .strictUnreserved)
    }
    return text
  }

  /// The link in `text`, checked strictly against the grammar.
  ///
  /// Any scheme and route name are accepted here; ``Router`` checks them
  /// against its configuration and table.
  ///
  /// - Throws: a ``DeepLinkError`` with the code and byte offset of the first
  ///   problem from the left.
  public init(parsing text: String) throws(DeepLinkError) {
    self = try text.withUTF8Bytes { bytes throws(DeepLinkError) in try DeepLink(parsingUTF8: bytes)
    }
  }

  /// The link in the UTF-8 bytes `bytes`; see ``init(parsing:)``.
  public init(parsingUTF8 bytes: UnsafeBufferPointer<UInt8>) throws(DeepLinkError) {
    var collector = Collector()
    try LinkScanner.scan(bytes, into: &collector)
    scheme = collector.scheme
    route = collector.route
    parameters = collector.parameters
  }

  /// The length of ``description`` in bytes.
  var encodedLength: Int {
    parameters.reduce(scheme.utf8.count + 3 + route.utf8.count) {
      $0 + 2 + $1.key.utf8.count + DeepLink.encodedLength(of: $1.value)
    }
  }

  /// The length of `value` once percent-encoded.
  private static func encodedLength(of value: String) -> Int {
    value.utf8.reduce(0) {
      $0 + ($1 < 0x80 && !StrictUnreservedEncodeSet().shouldPercentEncode(ascii: $1) ? 1 : 3)
    }
  }

  private static func checkLength(_ length: Int) throws(DeepLinkError) {
    guard length <= maximumLength else {
      throw DeepLinkError(
        .tooLong, at: maximumLength,
        "the link would have \(length) bytes; at most \(maximumLength) are allowed")
    }
  }
}

/// Gathers the parts of a scanned link into a ``DeepLink``.
private struct Collector: LinkVisitor {
  typealias Reporter = ReportingProblems

  var scheme = ""
  var route = ""
  var parameters: [DeepLink.Parameter] = []

  mutating func visitScheme(_ scheme: UnsafeBufferPointer<UInt8>) {
    self.scheme = String(decoding: scheme.map(ASCII.lowercased), as: UTF8.self)
  }

  mutating func visitRoute(_ route: UnsafeBufferPointer<UInt8>, at offset: Int) {
    self.route = String(decoding: route.map(ASCII.lowercased), as: UTF8.self)
  }

  mutating func visitParameter(
    key: UnsafeBufferPointer<UInt8>, word: UInt64, at keyOffset: Int,
    value: UnsafeBufferPointer<UInt8>, decodedAt decodedOffset: Int, at valueOffset: Int
  ) throws(DeepLinkError) {
    let key = String(decoding: key, as: UTF8.self)
    guard !parameters.contains(where: { $0.key == key }) else {
      throw DeepLinkError(
        .duplicateParameter, at: keyOffset, "the parameter '\(key)' is given twice")
    }
    parameters.append(DeepLink.Parameter(key: key, value: String(decoding: value, as: UTF8.self)))
  }

  func visitEnd(at offset: Int) {}
}
