import Config
import Localization

/// `config.json`'s problems and the refused durations in the user's language, where they are known as values.
///
/// The reader says every problem in English (``ConfigurationError/problem``);
/// the most common ones it also gives as a ``ConfigurationProblem``, which
/// these messages say. The rest are shown in English inside the translated
/// frame, with the file and the key.
enum ConfigurationText {
  /// The problem of `error`, translated when it is known as values.
  static func problem(_ error: ConfigurationError) -> String {
    guard let detail = error.detail, let message = message(detail) else { return error.problem }
    return Output.text(message)
  }

  /// A warning about `config.json`, translated when it is known as values.
  static func warning(_ warning: ConfigurationWarning) -> CommandMessage {
    guard case .unknownKey(let suggestion)? = warning.detail else { return .warning(warning.description) }
    let values = ["file": warning.file, "key": warning.keyPath]
    let text = Output.text(
      suggestion.map { CommandMessage(.unknownKeySuggestion, values.merging(["suggestion": $0]) { $1 }) }
        ?? CommandMessage(.unknownKey, values))
    return .warning(text)
  }

  private static func message(_ detail: ConfigurationProblem) -> CommandMessage? {
    switch detail {
    case .wholeNumber(let low, let high, let found):
      CommandMessage(.wholeNumber, ["low": "\(low)", "high": "\(high)", "found": found])
    case .wholeNumberDigits(let low, let high, let found):
      CommandMessage(.wholeNumberDigits, ["low": "\(low)", "high": "\(high)", "found": found])
    case .choice(let names, let found): CommandMessage(.configChoice, ["names": names, "found": found])
    case .notJSON(let detail): CommandMessage(.notJSON, ["detail": detail])
    case .noRules: CommandMessage(.noRules)
    case .noApps: CommandMessage(.noApps)
    case .unknownKey: nil
    }
  }

  /// Why a duration typed on the command line was refused.
  static func problem(_ error: DurationTextError) -> String {
    let message: CommandMessage =
      switch error.reason {
      case .empty: CommandMessage(.durationEmpty)
      case .tooLong(let text): CommandMessage(.durationTooLong, ["text": text])
      case .notDuration(let text): CommandMessage(.durationNotDuration, ["text": text])
      case .noUnit(let text): CommandMessage(.durationNoUnit, ["text": text])
      case .notWholeMinutes(let text, let below):
        below == 0
          ? CommandMessage(.durationNotWholeUnder, ["text": text, "above": "\(below + 1)"])
          : CommandMessage(.durationNotWhole, ["text": text, "below": "\(below)", "above": "\(below + 1)"])
      }
    return Output.text(message)
  }
}
