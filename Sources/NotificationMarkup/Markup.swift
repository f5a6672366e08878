/// The body markup of the notification specification (a small XML subset: `<b>`, `<i>`,
/// `<u>`, `<a href>`, `<img>`), as far as a client needs it.
public enum Markup {
  /// Escapes `& < > " '` so that `text` shows as written on a server that reads markup.
  public static func escape(_ text: String) -> String {
    guard
      text.utf8.contains(where: {
        $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27
      })
    else {
      return text
    }
    var result = ""
    result.reserveCapacity(text.utf8.count + 16)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "'": result += "&apos;"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// The text of `markup` without its tags and with its entities decoded, for
  /// a server that shows the body as plain text.
  ///
  /// An unknown or malformed entity stays as written; a `<` that opens no tag
  /// (no closing `>`) stays too.
  public static func plainText(_ markup: String) -> String {
    var result = ""
    let scalars = Array(markup.unicodeScalars)
    var index = 0
    while index < scalars.count {
      let scalar = scalars[index]
      if scalar == "<", let end = scalars[index...].firstIndex(of: ">") {
        index = end + 1
        continue
      }
      if scalar == "&", let end = scalars[index...].prefix(12).firstIndex(of: ";"),
        let decoded = entity(String(String.UnicodeScalarView(scalars[(index + 1)..<end])))
      {
        result.unicodeScalars.append(decoded)
        index = end + 1
        continue
      }
      result.unicodeScalars.append(scalar)
      index += 1
    }
    return result
  }

  /// The character an entity name (between `&` and `;`) stands for.
  private static func entity(_ name: String) -> Unicode.Scalar? {
    switch name {
    case "amp": return "&"
    case "lt": return "<"
    case "gt": return ">"
    case "quot": return "\""
    case "apos": return "'"
    default:
      guard name.hasPrefix("#") else { return nil }
      let digits = name.dropFirst()
      let value =
        digits.hasPrefix("x") || digits.hasPrefix("X")
        ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
      return value.flatMap(Unicode.Scalar.init)
    }
  }
}
