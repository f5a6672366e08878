/// Turning the bytes of X properties, which any client can set, into names
/// that are safe to match and to log.
enum X11Text {
  /// `WM_CLASS`: the instance and the class, two NUL-terminated strings.
  ///
  /// A value without NUL is taken as the instance alone; anything after the
  /// second string is ignored. Empty strings are `nil`.
  static func wmClass(_ bytes: [UInt8]) -> (instance: String?, windowClass: String?) {
    let parts = bytes.split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false)
    let instance = parts.first.flatMap { name(Array($0)) }
    let windowClass = parts.count > 1 ? name(Array(parts[1])) : nil
    return (instance, windowClass)
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
