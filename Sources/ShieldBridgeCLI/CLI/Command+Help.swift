extension Command {
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
    let options = self.options
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
      let names = option.short.map { "-\($0), \(option.name)" } ?? option.name
      return switch option.kind {
      case .flag: (names, option.help)
      case .value(let placeholder): ("\(names) \(placeholder)", option.help)
      case .repeated(let placeholder): ("\(names) \(placeholder)", option.help + " (repeatable)")
      }
    }
    // `-?` always asks for help too; it is listed where `-h` means something else.
    let helpTakesH = !options.contains { $0.short == "h" }
    optionLines.append((helpTakesH ? "-h, --help" : "-?, --help", "Show this help."))
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
