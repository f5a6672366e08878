/// A leaf command's arguments, split by the options it declares, before anything reads them.
struct ParsedArguments: Sendable, Equatable {
  var positionals: [String] = []
  /// Values by option name; a flag has one empty string per occurrence.
  var values: [String: [String]] = [:]
}

extension Command {
  /// Splits the arguments of a leaf command by its declared `options`; `nil` when help was asked for.
  ///
  /// - Throws: a usage failure for an option not declared, a flag with a
  ///   value, an option without its value, or too few or too many positional arguments.
  func parse(_ arguments: ArraySlice<String>, options: [OptionDeclaration]) throws(CommandFailure)
    -> ParsedArguments?
  {
    var parsed = ParsedArguments()
    var remaining = arguments
    var optionsEnded = false
    while let argument = remaining.popFirst() {
      if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
        parsed.positionals.append(argument)
        continue
      }
      if argument == "--" {
        optionsEnded = true
        continue
      }
      if argument == "--help" || argument == "-h" { return nil }
      let name: String
      var inlineValue: String?
      if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
        name = String(argument[..<equals])
        inlineValue = String(argument[argument.index(after: equals)...])
      } else {
        name = argument
      }
      guard let option = options.first(where: { $0.name == name }) else {
        throw .usage("unknown option '\(name)'")
      }
      switch option.kind {
      case .flag:
        guard inlineValue == nil else { throw .usage("\(name) takes no value") }
        parsed.values[name, default: []].append("")
      case .value, .repeated:
        guard let value = inlineValue ?? remaining.popFirst() else {
          throw .usage("\(name) needs a value")
        }
        parsed.values[name, default: []].append(value)
      }
    }
    guard argumentCount.contains(parsed.positionals.count) else {
      if parsed.positionals.count < argumentCount.lowerBound {
        throw .usage("missing argument, expected: \(self.arguments)")
      }
      throw .usage("unexpected argument '\(parsed.positionals[argumentCount.upperBound])'")
    }
    return parsed
  }
}
