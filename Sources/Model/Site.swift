/// A website as rules and browsers name it: a host name such as `instagram.com`.
///
/// A rule's app lists the sites it covers; a site covers itself and its
/// subdomains (`instagram.com` covers `www.instagram.com`, not
/// `notinstagram.com`). Names are compared without regard to case and
/// without a trailing dot, so they are kept lowercase and without one. Only
/// the host name is ever held: no scheme, port, path or query, so that
/// nothing of a URL is stored or logged beyond the site.
public struct Site: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// The longest host name DNS allows, in bytes, without the trailing dot.
  public static let maximumLength = 253
  /// The longest label (the part between dots).
  public static let maximumLabelLength = 63

  /// The host name, lowercase, without a trailing dot.
  public let name: String

  /// The site `text` names, or `nil` when it is not a host name.
  ///
  /// A host name is labels of ASCII letters, digits and hyphens, 1 to 63
  /// bytes each, joined by dots, at most 253 bytes; a label neither starts
  /// nor ends with a hyphen. One trailing dot is allowed and dropped. A
  /// scheme, a port, a path, spaces or non-ASCII letters (the browser gives
  /// internationalised names in punycode, `xn--…`) make it no host name.
  public init?(_ text: String) {
    var bytes = Array(text.utf8)
    if bytes.last == UInt8(ascii: ".") { bytes.removeLast() }
    guard !bytes.isEmpty, bytes.count <= Site.maximumLength else { return nil }
    var labelLength = 0
    var previous: UInt8 = UInt8(ascii: ".")
    for (index, byte) in bytes.enumerated() {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        labelLength += 1
      case UInt8(ascii: "A")...UInt8(ascii: "Z"):
        bytes[index] = byte + 32
        labelLength += 1
      case UInt8(ascii: "-"):
        guard previous != UInt8(ascii: ".") else { return nil }
        labelLength += 1
      case UInt8(ascii: "."):
        guard labelLength > 0, previous != UInt8(ascii: "-") else { return nil }
        labelLength = 0
      default:
        return nil
      }
      guard labelLength <= Site.maximumLabelLength else { return nil }
      previous = byte
    }
    guard labelLength > 0, previous != UInt8(ascii: "-") else { return nil }
    name = String(decoding: bytes, as: UTF8.self)
  }

  /// Whether `other` is this site or one of its subdomains.
  public func covers(_ other: Site) -> Bool {
    guard other.name.utf8.count >= name.utf8.count else { return false }
    if other.name == name { return true }
    // A subdomain ends in ".<name>": the dot keeps `notinstagram.com` out.
    return other.name.utf8.count > name.utf8.count && other.name.hasSuffix("." + name)
  }

  public var description: String { name }

  public static func < (lhs: Site, rhs: Site) -> Bool { lhs.name < rhs.name }
}
