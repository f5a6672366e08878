/// The parsed command line of a leaf command: its options and positional arguments.
struct Invocation: Sendable {
  /// The command names from the root, `["shieldbridge", "link", "parse"]`.
  var path: [String]
  var positionals: [String]
  /// Values by option name; a flag has one empty string per occurrence.
  var values: [String: [String]]

  /// Whether the flag was given.
  func flag(_ name: String) -> Bool { values[name] != nil }

  /// The value of an option; the last one wins when it was given more than once.
  func value(_ name: String) -> String? { values[name]?.last }

  /// Every value of a repeatable option, in order.
  func all(_ name: String) -> [String] { values[name] ?? [] }

  /// The value of an option as an integer in `range`.
  ///
  /// - Throws: a usage failure that names the option when the value is not a
  ///   whole number in the range.
  func integer(_ name: String, in range: ClosedRange<Int>) throws(CommandFailure) -> Int? {
    guard let text = value(name) else { return nil }
    guard let number = Int(text), range.contains(number) else {
      throw .usage("\(name) takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
    }
    return number
  }

  /// The positional argument at `index`, if it was given.
  func positional(_ index: Int) -> String? {
    positionals.indices.contains(index) ? positionals[index] : nil
  }
}

extension Command {
  /// Parses `arguments` (without the program name) against this command tree and runs the leaf.
  ///
  /// `--help` or `-h` on any level prints that level's help to stdout and
  /// exits 0; `--version` on the root prints the version. A mistake prints the
  /// message and the usage to stderr and exits 64.
  func main(_ arguments: [String]) async -> ExitCode {
    var command = self
    var path = [name]
    var remaining = arguments[...]
    while !command.subcommands.isEmpty, let first = remaining.first {
      if first == "--help" || first == "-h" || first == "help" {
        Output.out(command.help(path: path))
        return .success
      }
      if first == "--version", path.count == 1 {
        Output.out("\(name) \(shieldBridgeVersion)")
        return .success
      }
      guard let next = command.subcommands.first(where: { $0.name == first }) else {
        Output.err("\(name): unknown command '\(first)'\n\n\(command.usage(path: path))")
        return .usage
      }
      command = next
      path.append(next.name)
      remaining = remaining.dropFirst()
    }
    guard let body = command.body else {
      Output.err("\(name): missing command\n\n\(command.usage(path: path))")
      return .usage
    }
    do {
      guard let invocation = try command.parse(remaining, path: path) else {
        Output.out(command.help(path: path))
        return .success
      }
      return try await body(invocation)
    } catch let failure as CommandFailure {
      if failure.exitCode == .usage {
        Output.err("\(name): \(failure.message)\n\n\(command.usage(path: path))")
      } else {
        Output.err("\(name): \(failure.message)")
      }
      return failure.exitCode
    } catch {
      Output.err("\(name): \(error)")
      return .failure
    }
  }

  /// Splits the arguments of a leaf command; `nil` when help was asked for.
  private func parse(_ arguments: ArraySlice<String>, path: [String]) throws(CommandFailure) -> Invocation? {
    var invocation = Invocation(path: path, positionals: [], values: [:])
    var remaining = arguments
    var optionsEnded = false
    while let argument = remaining.popFirst() {
      if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
        invocation.positionals.append(argument)
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
        invocation.values[name, default: []].append("")
      case .value, .repeated:
        guard let value = inlineValue ?? remaining.popFirst() else {
          throw .usage("\(name) needs a value")
        }
        invocation.values[name, default: []].append(value)
      }
    }
    guard argumentCount.contains(invocation.positionals.count) else {
      if invocation.positionals.count < argumentCount.lowerBound {
        throw .usage("missing argument, expected: \(self.arguments)")
      }
      throw .usage("unexpected argument '\(invocation.positionals[argumentCount.upperBound])'")
    }
    return invocation
  }

  /// The short usage block printed after a mistake.
  func usage(path: [String]) -> String {
    let prefix = path.joined(separator: " ")
    if !subcommands.isEmpty {
      return "Usage: \(prefix) <command> [options]\n" + "See '\(prefix) --help'."
    }
    let synopsis = [prefix, options.isEmpty ? "" : "[options]", arguments]
      .filter { !$0.isEmpty }.joined(separator: " ")
    return "Usage: \(synopsis)\n" + "See '\(prefix) --help'."
  }

  /// The full `--help` text of this level.
  func help(path: [String]) -> String {
    let prefix = path.joined(separator: " ")
    var lines = ["\(prefix): \(abstract)", ""]
    if subcommands.isEmpty {
      let synopsis = [prefix, options.isEmpty ? "" : "[options]", arguments]
        .filter { !$0.isEmpty }.joined(separator: " ")
      lines.append("Usage: \(synopsis)")
    } else {
      lines.append("Usage: \(prefix) <command> [options]")
      lines.append("")
      lines.append("Commands:")
      let width = subcommands.map(\.name.count).max() ?? 0
      for command in subcommands {
        lines.append("  " + command.name.padding(to: width) + "  " + command.abstract)
      }
    }
    var optionLines = options.map { option -> (String, String) in
      switch option.kind {
      case .flag: (option.name, option.help)
      case .value(let placeholder): ("\(option.name) \(placeholder)", option.help)
      case .repeated(let placeholder): ("\(option.name) \(placeholder)", option.help + " (repeatable)")
      }
    }
    optionLines.append(("-h, --help", "Show this help."))
    if path.count == 1 { optionLines.append(("--version", "Show the version.")) }
    let width = optionLines.map(\.0.count).max() ?? 0
    lines.append("")
    lines.append("Options:")
    for (name, help) in optionLines {
      lines.append("  " + name.padding(to: width) + "  " + help)
    }
    if !discussion.isEmpty {
      lines.append("")
      lines.append(discussion)
    }
    return lines.joined(separator: "\n")
  }
}

extension String {
  fileprivate func padding(to width: Int) -> String {
    count >= width ? self : self + String(repeating: " ", count: width - count)
  }
}
