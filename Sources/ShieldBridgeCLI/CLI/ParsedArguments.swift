import Localization

/// A leaf command's arguments, split by the options it declares, before anything reads them.
struct ParsedArguments: Sendable, Equatable {
  var positionals: [String] = []
  /// Values by option name; a flag has one empty string per occurrence.
  var values: [String: [String]] = [:]
}

extension Command {
  /// Splits the arguments of a leaf command by its declared `options`; `nil` when help was asked for.
  ///
  /// Help is `--help`, `-?` (GLib's spelling, so notify-send's), and `-h`
  /// unless an option takes `h` as its short name (`notify`'s `-h` is
  /// `--hint`, as in notify-send).
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
      if argument == "--help" || argument == "-?" { return nil }
      if argument == "-h" && !options.contains(where: { $0.short == "h" }) { return nil }
      if !argument.hasPrefix("--") {
        guard try parseShort(argument.dropFirst(), options: options, into: &parsed, rest: &remaining)
        else { return nil }
        continue
      }
      let name: String
      var inlineValue: String?
      if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
        name = String(argument[..<equals])
        inlineValue = String(argument[argument.index(after: equals)...])
      } else {
        name = argument
      }
      guard let option = options.first(where: { $0.name == name }) else {
        throw .usage(.unknownOption(name))
      }
      switch option.kind {
      case .flag:
        guard inlineValue == nil else { throw .usage(.takesNoValue(name)) }
        parsed.values[name, default: []].append("")
      case .value, .repeated:
        guard let value = inlineValue ?? remaining.popFirst() else {
          throw .usage(.needsValue(name))
        }
        parsed.values[name, default: []].append(value)
      }
    }
    guard argumentCount.contains(parsed.positionals.count) else {
      if parsed.positionals.count < argumentCount.lowerBound {
        throw .usage(.missingArgument(expected: self.arguments))
      }
      throw .usage(.unexpectedArgument(parsed.positionals[argumentCount.upperBound]))
    }
    return parsed
  }

  /// Reads one word of short options, `-pw` or `-pu low`, into `parsed`; `false` when it asks for help.
  ///
  /// As GLib's parser (so notify-send): every letter is an option, and the
  /// one letter that takes a value takes the next word of `rest`; a value is
  /// never attached (`-ulow` is `-u -l -o -w`), and a second letter that
  /// takes a value in the same word is an error, as GLib's is.
  private func parseShort(
    _ letters: Substring, options: [OptionDeclaration], into parsed: inout ParsedArguments,
    rest: inout ArraySlice<String>
  ) throws(CommandFailure) -> Bool {
    var valueTaken: Character?
    for letter in letters {
      if letter == "?" { return false }
      guard let option = options.first(where: { $0.short == letter }) else {
        throw .usage(.unknownOption("-\(letter)"))
      }
      switch option.kind {
      case .flag:
        parsed.values[option.name, default: []].append("")
      case .value, .repeated:
        if let valueTaken {
          throw .usage(.bothTakeValues("-\(letter)", "-\(valueTaken)"))
        }
        valueTaken = letter
        guard let value = rest.popFirst() else { throw .usage(.needsValue("-\(letter)")) }
        parsed.values[option.name, default: []].append(value)
      }
    }
    return true
  }
}
