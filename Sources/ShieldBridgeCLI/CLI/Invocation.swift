/// The parsed command line of a leaf command, read through the keys of its declared options.
///
/// `invocation[\.json]` is a `Bool`, `invocation[\.app]` a `String?`,
/// `try invocation[\.grant]` an `Int?` checked against the range the option
/// declares, `invocation[\.action]` every value given. The key paths start at
/// the command's own ``OptionGroup``, so a typo or an option of another
/// command does not compile.
struct Invocation<Options: OptionGroup>: Sendable {
  /// The keys of the command's options.
  let options: Options
  /// The values, read only through the keys, so that no name can be misspelt.
  private let arguments: ParsedArguments

  init(options: Options, arguments: ParsedArguments) {
    self.options = options
    self.arguments = arguments
  }

  var positionals: [String] { arguments.positionals }

  /// Whether the flag was given.
  subscript(_ key: KeyPath<Options, Flag>) -> Bool {
    arguments.values[options[keyPath: key].name] != nil
  }

  /// The value of a text option; the last one wins when it was given more than once.
  subscript(_ key: KeyPath<Options, Option<String>>) -> String? {
    arguments.values[options[keyPath: key].name]?.last
  }

  /// The value of an option; the last one wins when it was given more than once.
  ///
  /// - Throws: a usage failure that names the option when the text given is
  ///   not a value it takes, such as a number outside its range.
  subscript<Value>(_ key: KeyPath<Options, Option<Value>>) -> Value? {
    get throws(CommandFailure) {
      let option = options[keyPath: key]
      guard let text = arguments.values[option.name]?.last else { return nil }
      return try option.value(of: text)
    }
  }

  /// Every value of a repeatable option, in order.
  subscript(_ key: KeyPath<Options, RepeatedOption>) -> [String] {
    arguments.values[options[keyPath: key].name] ?? []
  }

  /// The names of the options given, sorted, for commands whose forms take only some of them.
  var givenOptionNames: [String] { arguments.values.keys.sorted() }

  /// The positional argument at `index`, if it was given.
  func positional(_ index: Int) -> String? {
    positionals.indices.contains(index) ? positionals[index] : nil
  }
}
