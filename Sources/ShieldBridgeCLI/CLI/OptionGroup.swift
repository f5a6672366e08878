import Localization

/// The options of a command, declared once: each stored key is made by declaring its option.
///
/// A command names its group (`options: NotifyOptions.self`); parsing accepts
/// exactly the options the group declares, `--help` lists them in the order
/// they are declared, and the body reads them as `invocation[\.appName]`.
/// The keys can only be made by ``OptionDeclarations``, and the compiler makes
/// the initialiser set every stored key, so each key the body can name is one
/// the command declared: reading anything else does not compile.
///
/// ```swift
/// private struct ShieldOptions: BusOptions {
///   let app: Option<String>
///   let address: Option<String>
///
///   init(declaring options: inout OptionDeclarations) {
///     app = options.value("--app", "NAME", "The app that was just blocked.")
///     address = options.address()
///   }
/// }
/// ```
///
/// Options several commands share are declared by a method on
/// ``OptionDeclarations`` (`options.address()`) and read through a protocol
/// that requires the key (``BusOptions``); a group can also declare another
/// group in its initialiser.
protocol OptionGroup: Sendable {
  /// Declares the options in `options`, in the order `--help` lists them, and keeps their keys.
  init(declaring options: inout OptionDeclarations)
}

/// The options of a command that has none.
struct NoOptions: OptionGroup {
  init(declaring options: inout OptionDeclarations) {}
}

/// The declarations an ``OptionGroup`` makes, in order; the only maker of option keys.
struct OptionDeclarations: Sendable {
  /// What parsing accepts and `--help` lists.
  private(set) var all: [OptionDeclaration] = []

  /// Declares a flag, `--json`, read as whether it was given.
  mutating func flag(_ name: String, short: Character? = nil, _ help: String) -> Flag {
    all.append(OptionDeclaration(name: name, short: short, kind: .flag, help: help))
    return Flag(name: name)
  }

  /// Declares an option with a text value, `--app NAME`; the last one given wins.
  mutating func value(_ name: String, short: Character? = nil, _ placeholder: String, _ help: String)
    -> Option<String>
  {
    all.append(OptionDeclaration(name: name, short: short, kind: .value(placeholder), help: help))
    return Option(name: name) { text in text }
  }

  /// Declares an option with a whole number in `range`, `--grant N`; the last one given wins.
  ///
  /// The text is read as `Number(_:)` reads it (a sign is allowed), or with
  /// `digitsOnly` as ASCII digits alone. Reading a value outside `range` is a
  /// usage failure that names the option and the range.
  mutating func integer<Number: FixedWidthInteger & Sendable>(
    _ name: String, short: Character? = nil, _ placeholder: String, in range: ClosedRange<Number>,
    digitsOnly: Bool = false, _ help: String
  ) -> Option<Number> {
    all.append(OptionDeclaration(name: name, short: short, kind: .value(placeholder), help: help))
    return Option(name: name) { text throws(CommandFailure) in
      guard let number = Number(text), range.contains(number),
        !digitsOnly || text.utf8.allSatisfy({ (0x30...0x39).contains($0) })
      else {
        throw .usage(
          .numberRange(option: name, low: "\(range.lowerBound)", high: "\(range.upperBound)", text: text))
      }
      return number
    }
  }

  /// Declares an option whose value is one of `choices`, named as `choices` names them, `--log-level LEVEL`;
  /// the last one given wins.
  ///
  /// Reading any other text is a usage failure that names the option and every choice.
  mutating func choice<Value: Sendable>(
    _ name: String, short: Character? = nil, _ placeholder: String, _ choices: [(name: String, value: Value)],
    _ help: String
  ) -> Option<Value> {
    all.append(OptionDeclaration(name: name, short: short, kind: .value(placeholder), help: help))
    return Option(name: name) { text throws(CommandFailure) in
      guard let chosen = choices.first(where: { $0.name == text }) else {
        throw .usage(.choice(option: name, choices: choices.map(\.name).joined(separator: ", "), text: text))
      }
      return chosen.value
    }
  }

  /// Declares an option that may be given more than once, `--action KEY=LABEL`; all values are kept in order.
  mutating func repeated(_ name: String, short: Character? = nil, _ placeholder: String, _ help: String)
    -> RepeatedOption
  {
    all.append(OptionDeclaration(name: name, short: short, kind: .repeated(placeholder), help: help))
    return RepeatedOption(name: name)
  }
}

/// What every option key has: the name of the option it reads.
protocol OptionKey: Sendable {
  /// The long name with its dashes, `--app-name`.
  var name: String { get }
}

/// The key of a declared flag: read as `Bool`.
struct Flag: OptionKey {
  /// The long name with its dashes.
  let name: String

  fileprivate init(name: String) {
    self.name = name
  }
}

/// The key of a declared option with one value: read as the value of the last one given, or `nil`.
struct Option<Value: Sendable>: OptionKey {
  /// The long name with its dashes.
  let name: String
  private let convert: @Sendable (String) throws(CommandFailure) -> Value

  fileprivate init(name: String, convert: @escaping @Sendable (String) throws(CommandFailure) -> Value) {
    self.name = name
    self.convert = convert
  }

  /// The value `text` stands for.
  ///
  /// - Throws: a usage failure that names the option when `text` is not a value it takes.
  func value(of text: String) throws(CommandFailure) -> Value {
    try convert(text)
  }
}

/// The key of a declared option that may be given more than once: read as every value, in order.
struct RepeatedOption: OptionKey {
  /// The long name with its dashes.
  let name: String

  fileprivate init(name: String) {
    self.name = name
  }
}
