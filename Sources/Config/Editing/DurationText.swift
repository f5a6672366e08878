/// A duration written on the command line, `90s`, `5m`, `1h30m`, as the whole minutes `config.json` holds.
///
/// The units are `h`, `m` and `s`, each at most once and in that order; a
/// number alone counts minutes (`--limit 30` is 30 minutes). The
/// configuration counts whole minutes, so a duration that is not one (`90s`)
/// is refused with the two whole minutes around it rather than rounded: a
/// limit is a promise, and rounding would change it silently.
public enum DurationText {
  /// The whole minutes `text` stands for.
  ///
  /// - Throws: ``DurationTextError`` saying what is wrong and what to write.
  public static func minutes(_ text: String) throws(DurationTextError) -> Int {
    let expected = "a duration such as 90s, 5m or 1h30m"
    guard !text.isEmpty else { throw DurationTextError(message: "expected \(expected), found nothing", reason: .empty) }
    if text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
      guard text.count <= 6, let minutes = Int(text) else {
        throw DurationTextError(message: "'\(text)' is too long for \(expected)", reason: .tooLong(text))
      }
      return minutes
    }
    var seconds = 0
    var digits = ""
    var units = ["h": 3600, "m": 60, "s": 1]
    let order = ["h", "m", "s"]
    var lastRank = -1
    for character in text {
      if character.isASCII, character.isNumber {
        digits.append(character)
        continue
      }
      let unit = String(character)
      guard let scale = units[unit], let rank = order.firstIndex(of: unit), rank > lastRank else {
        throw DurationTextError(message: "expected \(expected), found '\(text)'", reason: .notDuration(text))
      }
      guard !digits.isEmpty, digits.count <= 6, let number = Int(digits) else {
        throw DurationTextError(message: "expected \(expected), found '\(text)'", reason: .notDuration(text))
      }
      seconds += number * scale
      digits = ""
      lastRank = rank
      units[unit] = nil
    }
    guard digits.isEmpty else {
      throw DurationTextError(
        message: "'\(text)' ends without a unit: write h, m or s after the number", reason: .noUnit(text))
    }
    guard seconds % 60 == 0 else {
      let below = seconds / 60
      throw DurationTextError(
        message: "'\(text)' is not a whole number of minutes, which is what the configuration holds; "
          + "write \(below == 0 ? "" : "\(below)m or ")\(below + 1)m",
        reason: .notWholeMinutes(text, below: below))
    }
    return seconds / 60
  }

  /// Minutes as the shortest duration text: `90` as `1h30m`, `5` as `5m`, `0` as `0m`.
  public static func text(minutes: Int) -> String {
    let hours = minutes / 60
    let rest = minutes % 60
    if hours == 0 { return "\(rest)m" }
    return rest == 0 ? "\(hours)h" : "\(hours)h\(rest)m"
  }
}

/// Why a duration on the command line was refused.
public struct DurationTextError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What is wrong, for the messages that say it in the user's language.
  public enum Reason: Hashable, Sendable {
    case empty
    case tooLong(String)
    case notDuration(String)
    case noUnit(String)
    /// Seconds that are no whole minutes; `below` is the whole minutes under them.
    case notWholeMinutes(String, below: Int)
  }

  public var message: String
  public var reason: Reason
  public var description: String { message }
}
