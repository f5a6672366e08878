/// One command-line message with its values: what `status`, `rules`, `setup`, `desktop`, `doctor` and the errors print.
///
/// A value comes only from a ``CommandKey`` and the values its placeholders
/// name, so that a text written to the user is a catalog message; the
/// command line's writer accepts nothing else. Values are inserted as they
/// are (names, paths, numbers, and other messages already rendered).
public struct CommandMessage: Hashable, Sendable {
  public let key: CommandKey
  /// The placeholder values, the count's among them.
  let values: [String: String]
  /// The number that chooses the plural form, for plural messages.
  let count: Int?

  /// `key` with `values`; `count`, when given, chooses the plural form and fills the placeholder `countName`.
  public init(_ key: CommandKey, _ values: [String: String] = [:], count: Int? = nil, as countName: String = "count") {
    var values = key.commands.merging(values.mapValues(Localizer.clean)) { _, given in given }
    if let count { values[countName] = String(count) }
    self.key = key
    self.values = values
    self.count = count
  }
}

extension CommandMessage {
  // errors
  public static func unknownCommand(_ command: String) -> Self { Self(.unknownCommand, ["command": command]) }
  public static let missingCommand = Self(.missingCommand)
  public static func unknownOption(_ option: String) -> Self { Self(.unknownOption, ["option": option]) }
  public static func takesNoValue(_ option: String) -> Self { Self(.takesNoValue, ["option": option]) }
  public static func needsValue(_ option: String) -> Self { Self(.needsValue, ["option": option]) }
  public static func missingArgument(expected: String) -> Self { Self(.missingArgument, ["arguments": expected]) }
  public static func unexpectedArgument(_ argument: String) -> Self {
    Self(.unexpectedArgument, ["argument": argument])
  }
  public static func bothTakeValues(_ first: String, _ second: String) -> Self {
    Self(.bothTakeValues, ["first": first, "second": second])
  }
  public static func numberRange(option: String, low: String, high: String, text: String) -> Self {
    Self(.numberRange, ["option": option, "low": low, "high": high, "text": text])
  }
  public static func choice(option: String, choices: String, text: String) -> Self {
    Self(.choice, ["option": option, "choices": choices, "text": text])
  }
  public static func optionProblem(option: String, problem: String) -> Self {
    Self(.optionProblem, ["option": option, "problem": problem])
  }
  /// A refused `config.json`: `file: key: problem`, or `file: problem` for the file as a whole.
  public static func configRefused(file: String, key: String, problem: String) -> Self {
    key.isEmpty
      ? Self(.configRefusedFile, ["file": file, "problem": problem])
      : Self(.configRefused, ["file": file, "key": key, "problem": problem])
  }
  public static func warning(_ warning: String) -> Self { Self(.warning, ["warning": warning]) }
  public static func ledgerLocked(path: String) -> Self { Self(.ledgerLocked, ["path": path]) }
  public static func configLocked(lock: String, seconds: Int) -> Self {
    Self(.configLocked, ["lock": lock], count: seconds, as: "seconds")
  }
  public static let noConfigDirectory = Self(.noConfigDirectory)
  public static func noSuchRule(_ rule: String) -> Self { Self(.noSuchRule, ["rule": rule]) }
  public static func noSuchApp(rule: String, app: String) -> Self { Self(.noSuchApp, ["rule": rule, "app": app]) }
  public static func noSuchSite(rule: String, site: String) -> Self {
    Self(.noSuchSite, ["rule": rule, "site": site])
  }
  public static func unkeepable(file: String) -> Self { Self(.unkeepable, ["file": file]) }
  public static func needAppOrSite(rule: String) -> Self {
    Self(.needAppOrSite, ["command": "shieldbridge rules pick " + rule])
  }
  public static func giveAtLeastOne(_ option: String) -> Self { Self(.giveAtLeastOne, ["option": option]) }
  // durations
  public static func hours(_ hours: Int) -> Self { Self(.hours, count: hours, as: "hours") }
  public static func minutes(_ minutes: Int) -> Self { Self(.minutes, count: minutes, as: "minutes") }
  public static func seconds(_ seconds: Int) -> Self { Self(.seconds, count: seconds, as: "seconds") }
  public static func minutesWord(_ minutes: Int) -> Self { Self(.minutesWord, count: minutes, as: "minutes") }
}
