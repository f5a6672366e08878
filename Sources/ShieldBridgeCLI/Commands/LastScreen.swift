import Posix

/// Keeps the puzzle's last screen readable in a terminal opened only for it.
///
/// A terminal started with `-e` closes as soon as the puzzle ends, so the
/// line that says the minutes are unlocked (or used up, or refused) would
/// vanish before anyone read it. In a terminal the screen stays until Enter
/// or ``timeout``; piped input (tests, scripts) never waits.
enum LastScreen {
  /// How long the last screen stays without Enter.
  static let timeout: Duration = .seconds(10)

  /// Whether someone may be reading: stdin is a terminal.
  static var isInteractive: Bool { FileDescriptor.standardInput.isTerminal }

  /// Waits for Enter or ``timeout`` when ``isInteractive``; returns at once otherwise.
  static func hold() {
    guard isInteractive else { return }
    Output.flush()
    // A terminal in canonical mode hands over a whole line at once: one read takes Enter.
    guard (try? FileDescriptor.standardInput.waitUntilReadable(timeout: timeout)) == true else { return }
    var buffer = [UInt8](repeating: 0, count: 4096)
    _ = try? FileDescriptor.standardInput.read(into: &buffer)
  }
}
