import Posix

extension Command {
  /// The root of the command tree.
  static let root = Command(
    name: "shieldbridge",
    abstract: "Post a shield notification and route its deep link to a puzzle or an app view.",
    discussion: "Run 'shieldbridge <command> --help' for the options of a command.",
    subcommands: [
      .serve, .shield, .open, .puzzle, .status, .report, .desktop,
      .notify, .notificationServer, .doctor,
      .link, .locales, .demo, .nativeHost,
      .rules, .setup,
    ]
  )
}

/// The `shieldbridge` program, which the executable's `main.swift` only starts.
///
/// The command tree lives in this library, not in the executable, so that
/// tests can parse command lines in-process.
public enum ShieldBridgeCommand {
  /// Runs the command line of this process and exits with its status.
  public static func main() async -> Never {
    // A reader that goes away (a closed pipe, a child that exits early) is an
    // error from write(2) for us to report, not a signal that ends the process.
    CurrentProcess.ignoreBrokenPipes()
    let status = await Command.root.main(Array(CommandLine.arguments.dropFirst()))
    Output.flush()
    CurrentProcess.exit(status.rawValue)
  }
}
