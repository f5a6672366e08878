/// The body markup of desktop notifications (a subset of XML), for servers that advertise `body-markup`.
public enum Markup {
  /// `text` with `& < > " '` replaced by their entities, so that it shows as written.
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
    for character in text.unicodeScalars {
      switch character {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "'": result += "&apos;"
      default: result.unicodeScalars.append(character)
      }
    }
    return result
  }
}
