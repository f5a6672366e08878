/// Why `config.json` could not be used: the file, the key path and the problem.
///
/// Printed as `config.json: rules[0].grantMinutes: expected a whole number
/// from 1 to 120, found "five"`, so the user can go straight to the mistake.
public struct ConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The kinds of mistake, each with a stable code.
  public enum Code: String, Hashable, Sendable {
    /// The file exists but cannot be read.
    case unreadable = "config-unreadable"
    /// Neither `XDG_CONFIG_HOME` nor `HOME` is an absolute path.
    case noDirectory = "config-no-directory"
    /// The file is not JSON.
    case syntax = "config-syntax"
    /// A value has the wrong JSON type.
    case type = "config-type"
    /// A number is outside its range.
    case range = "config-range"
    /// A required key is missing, or a list that must not be empty is.
    case missing = "config-missing"
    /// A key, rule name or app appears twice.
    case duplicate = "config-duplicate"
    /// A string does not have the required form (scheme, view name, target).
    case format = "config-format"
    /// A handler's argv is malformed or uses a placeholder it does not offer.
    case handler = "config-handler"
  }

  public var code: Code
  /// The file, as it was named when loading.
  public var file: String
  /// Where in the file, such as `rules[0].grantMinutes`; empty for the file as a whole.
  public var keyPath: String
  public var problem: String
  /// The problem as values, for the messages that say it in the user's language; `nil`: only ``problem`` says it.
  public var detail: ConfigurationProblem?

  public init(code: Code, file: String, keyPath: String, problem: String, detail: ConfigurationProblem? = nil) {
    self.code = code
    self.file = file
    self.keyPath = keyPath
    self.problem = problem
    self.detail = detail
  }

  public var description: String {
    keyPath.isEmpty ? "\(file): \(problem)" : "\(file): \(keyPath): \(problem)"
  }
}

/// Something in `config.json` that was ignored, such as an unknown key.
///
/// Keys may be added in later versions (never renamed), so an unknown key is
/// reported but does not stop the program.
public struct ConfigurationWarning: Hashable, Sendable, CustomStringConvertible {
  public var file: String
  public var keyPath: String
  public var problem: String
  /// The problem as values (``ConfigurationProblem/unknownKey(suggestion:)``); `nil`: only ``problem`` says it.
  public var detail: ConfigurationProblem? = nil

  public var description: String { "\(file): \(keyPath): \(problem)" }
}

/// The most common problems of `config.json` as values, so that the command line can say them in the
/// user's language; ``ConfigurationError/problem`` says every problem in English.
public enum ConfigurationProblem: Hashable, Sendable {
  /// `expected a whole number from 1 to 120, found "five"`.
  case wholeNumber(low: Int, high: Int, found: String)
  /// As ``wholeNumber(low:high:found:)``, for a number written with a fraction or an exponent (`5.0`).
  case wholeNumberDigits(low: Int, high: Int, found: String)
  /// `expected one of "hide", "close", "notify", found "explode"`; `names` are quoted already.
  case choice(names: String, found: String)
  /// `not valid JSON: …`, with the parser's detail.
  case notJSON(String)
  /// `"rules": []`.
  case noRules
  /// A rule without apps.
  case noApps
  /// A key this version does not know (a warning), with the known key nearest to it.
  case unknownKey(suggestion: String?)
}
