import Localization
import Version

extension Command {
  /// How a command line ended, and what the tree itself prints for it.
  ///
  /// The body of a leaf prints its own output as it runs; this holds only the
  /// help or version text (stdout) or the failure's message (stderr), so that
  /// tests can run a command line in-process and look at both.
  struct Ending: Sendable, Equatable {
    var status: ExitCode
    /// The help or the version, for stdout.
    var output: String? = nil
    /// The message of a failure, for stderr.
    var error: String? = nil
  }

  /// Parses `arguments` (without the program name) against this command tree,
  /// runs the leaf, and prints what ``run(_:)`` returns.
  func main(_ arguments: [String]) async -> ExitCode {
    let ending = await run(arguments)
    // machine output: the English --help and the version, or a failure's message rendered from the catalogs.
    if let output = ending.output { Output.out(output) }
    // machine output: as above, the failure's message is rendered already.
    if let error = ending.error { Output.err(error) }
    return ending.status
  }

  /// Parses `arguments` (without the program name) against this command tree and runs the leaf.
  ///
  /// `--help` or `-h` on any level answers that level's help with exit 0;
  /// `--version` on the root answers the version. A mistake answers the
  /// message and the usage, with exit 64.
  func run(_ arguments: [String]) async -> Ending {
    var command = self
    var path = [name]
    var remaining = arguments[...]
    while !command.subcommands.isEmpty, let first = remaining.first {
      if first == "--help" || first == "-h" || first == "-?" || first == "help" {
        return Ending(status: .success, output: command.help(path: path))
      }
      if first == "--version", path.count == 1 {
        return Ending(status: .success, output: "\(name) \(shieldBridgeVersion)")
      }
      guard let next = command.subcommands.first(where: { $0.name == first }) else {
        return Ending(
          status: .usage, error: "\(name): \(Output.text(.unknownCommand(first)))\n\n\(command.usage(path: path))")
      }
      command = next
      path.append(next.name)
      remaining = remaining.dropFirst()
    }
    guard let leaf = command.leaf?() else {
      return Ending(status: .usage, error: "\(name): \(Output.text(.missingCommand))\n\n\(command.usage(path: path))")
    }
    do {
      guard let parsed = try command.parse(remaining, options: leaf.options) else {
        return Ending(status: .success, output: command.help(path: path))
      }
      return Ending(status: try await leaf.body(parsed))
    } catch let failure as CommandFailure {
      if failure.exitCode == .usage {
        return Ending(
          status: failure.exitCode, error: "\(name): \(failure.message)\n\n\(command.usage(path: path))")
      }
      return Ending(status: failure.exitCode, error: "\(name): \(failure.message)")
    } catch {
      return Ending(status: .failure, error: "\(name): \(error)")
    }
  }
}
