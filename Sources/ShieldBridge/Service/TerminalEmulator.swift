import Posix

/// A terminal emulator that can run a command in a new window, and how to ask it.
///
/// Terminals disagree on how to take the command: `gnome-terminal` wants it
/// after `--`, `xterm` and most others after `-e`, `foot` and `kitty` take it
/// as their own arguments. The table below is the one place that knows.
struct TerminalEmulator: Hashable, Sendable {
  /// How the terminal takes the command to run.
  enum CommandStyle: Hashable, Sendable {
    /// `terminal -e program arguments…`.
    case dashE
    /// `terminal -- program arguments…`.
    case doubleDash
    /// `terminal program arguments…`.
    case direct
  }

  /// The program's name, or a path (`$TERMINAL` may hold one).
  var program: String
  var style: CommandStyle

  /// The terminals tried, in order, after `$TERMINAL`: as desktops look for
  /// one (the freedesktop `xdg-terminal-exec`, Debian's alternative), then the
  /// common ones.
  static let candidates: [TerminalEmulator] = [
    TerminalEmulator(program: "xdg-terminal-exec", style: .direct),
    TerminalEmulator(program: "x-terminal-emulator", style: .dashE),
    TerminalEmulator(program: "gnome-terminal", style: .doubleDash),
    TerminalEmulator(program: "konsole", style: .dashE),
    TerminalEmulator(program: "xfce4-terminal", style: .dashE),
    TerminalEmulator(program: "foot", style: .direct),
    TerminalEmulator(program: "alacritty", style: .dashE),
    TerminalEmulator(program: "kitty", style: .direct),
    TerminalEmulator(program: "xterm", style: .dashE),
  ]

  /// The argv that runs `command` (an argv of its own) in this terminal.
  func argv(running command: [String]) -> [String] {
    switch style {
    case .dashE: [program, "-e"] + command
    case .doubleDash: [program, "--"] + command
    case .direct: [program] + command
    }
  }

  /// The first terminal found on `environment`'s `PATH`, by absolute path.
  ///
  /// `$TERMINAL` comes first; a known name there gets that terminal's way
  /// of taking a command, anything else `-e` (what most terminals take).
  /// The launcher's `PATH` is searched rather than this process's, so that
  /// what is found is what the child could start.
  static func find(in environment: [String: String]) -> TerminalEmulator? {
    let path = environment["PATH"] ?? ""
    var tried: [TerminalEmulator] = []
    if let chosen = environment["TERMINAL"], !chosen.isEmpty {
      let name = chosen.split(separator: "/").last.map(String.init) ?? chosen
      let style = candidates.first { $0.program == name }?.style ?? .dashE
      tried.append(TerminalEmulator(program: chosen, style: style))
    }
    tried += candidates
    for terminal in tried {
      if let found = executable(terminal.program, searchPath: path) {
        return TerminalEmulator(program: found, style: terminal.style)
      }
    }
    return nil
  }

  /// `program`'s absolute path when it is an executable file in `searchPath`
  /// (or, with a slash, where it says).
  private static func executable(_ program: String, searchPath: String) -> String? {
    func runnable(_ file: String) -> Bool {
      guard FileSystem.isRegularFile(file) else { return false }
      return (try? FileSystem.checkAccess(file, .search)) != nil
    }
    if program.contains("/") { return program.hasPrefix("/") && runnable(program) ? program : nil }
    for folder in searchPath.split(separator: ":", omittingEmptySubsequences: true) where folder.hasPrefix("/") {
      let file = folder.hasSuffix("/") ? String(folder) + program : String(folder) + "/" + program
      if runnable(file) { return file }
    }
    return nil
  }
}
