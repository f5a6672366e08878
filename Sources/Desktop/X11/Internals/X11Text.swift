/// Turning the bytes of X properties, which any client can set, into names
/// that are safe to match and to log.
enum X11Text {
  /// `WM_CLASS`: the instance and the class, two NUL-terminated strings.
  ///
  /// A value without NUL is taken as the instance alone; anything after the
  /// second string is ignored. Empty strings are `nil`.
  static func wmClass(_ bytes: [UInt8]) -> (instance: String?, windowClass: String?) {
    let parts = bytes.split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false)
    let instance = parts.first.flatMap { name(Array($0.prefix(nameBound))) }
    let windowClass = parts.count > 1 ? name(Array(parts[1].prefix(nameBound))) : nil
    return (instance, windowClass)
  }

  /// The most bytes of the instance, and of the class, that are read: each has its own
  /// bound, so that a long instance cannot push the class out of what is read.
  static let nameBound = 1024

  /// How many bytes of `WM_CLASS` are asked first: both names at their bounds, with their NULs.
  static let headBytes = 2 * (nameBound + 1)

  /// Where the class of a `WM_CLASS` is, given its first ``headBytes`` (`head`).
  enum ClassPlace: Equatable {
    /// Both names are in `head`.
    case inHead
    /// The instance is longer than its bound: the class is the last string of the
    /// value, to be read from its last ``tailBytes``.
    case inTail
  }

  /// The last bytes of `WM_CLASS` read for its class when the instance is longer than its bound.
  static let tailBytes = nameBound + 2

  /// Where the class of a value starting with `head` is; `remaining` is how many bytes follow `head`.
  static func classPlace(head: [UInt8], remaining: Int) -> ClassPlace {
    guard remaining > 0, !head.prefix(nameBound + 1).contains(0) else { return .inHead }
    return .inTail
  }

  /// The class from the last bytes of a `WM_CLASS` whose instance is longer than its bound:
  /// the last string (after one closing NUL), when a NUL starts it within `tail`.
  ///
  /// `nil` when `tail` holds no NUL before the last string: then no second string ends within
  /// the class's bound (a value that is one long name, or a class over its bound).
  static func lastName(_ tail: [UInt8]) -> String? {
    var body = tail[...]
    if body.last == 0 { body = body.dropLast() }
    guard let start = body.lastIndex(of: 0) else { return nil }
    return name(Array(body[body.index(after: start)...].prefix(nameBound)))
  }

  /// A name from `bytes`: UTF-8 when it is valid, else ISO 8859-1 (what ICCCM
  /// says `STRING` is), without control or formatting characters (no escape
  /// sequences or bidirectional overrides reach a log); `nil` when nothing is left.
  static func name(_ bytes: [UInt8]) -> String? {
    var text = String(validating: bytes, as: UTF8.self) ?? String(bytes.map { Character(Unicode.Scalar($0)) })
    text.unicodeScalars.removeAll { scalar in
      switch scalar.properties.generalCategory {
      case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned: true
      default: false
      }
    }
    return text.isEmpty ? nil : text
  }
}
