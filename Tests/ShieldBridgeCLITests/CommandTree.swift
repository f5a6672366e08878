import Testing

@testable import ShieldBridgeCLI

/// Every level of the command tree, with the names that lead to it from the root.
struct CommandLevel: Sendable, CustomTestStringConvertible {
  /// The names from the root, `["shieldbridge", "link", "parse"]`.
  var path: [String]
  var command: Command

  /// What follows the program name on a command line that reaches this level.
  var arguments: [String] { Array(path.dropFirst()) }

  var testDescription: String { path.joined(separator: " ") }

  /// The root and everything below it, parents before their subcommands.
  static let all: [CommandLevel] = {
    var levels: [CommandLevel] = []
    func visit(_ command: Command, _ path: [String]) {
      levels.append(CommandLevel(path: path, command: command))
      for subcommand in command.subcommands { visit(subcommand, path + [subcommand.name]) }
    }
    visit(Command.root, [Command.root.name])
    return levels
  }()

  /// The leaves: the levels that run a body.
  static let leaves = all.filter { $0.command.subcommands.isEmpty }
}
