import Foundation
import Spawn

/// A virtual X server of a test's own: Xvfb on a display it picks itself.
///
/// Xvfb is started with `-displayfd`, so it chooses a free display number
/// and prints it once it accepts clients; tests running side by side never
/// share a fixed display. The server is stopped when the value is released.
public final class XvfbServer: Sendable {
  /// The X display, such as `:12`.
  public let display: String
  /// The server's process.
  public let process: BackgroundProcess
  /// This server's place among the desktops running at once (``DesktopSlots``).
  private let slot: DesktopSlot
  /// The lock file `/tmp/.XN-lock` this value wrote for the server, removed with it.
  private let lockFile: String?

  /// Starts Xvfb and returns when its socket accepts clients.
  ///
  /// - Throws: ``DesktopError`` when Xvfb is missing or does not start within 15 s.
  public init(screen: String = "1024x768x24") async throws {
    _ = try requiredTool("Xvfb", package: "xvfb")
    // Given back in deinit, also when starting fails below.
    await DesktopSlots.shared.take()
    slot = DesktopSlot()
    await DesktopSlots.displayNumbers.take()
    defer { DesktopSlots.displayNumbers.give() }
    process = try BackgroundProcess([
      "Xvfb", "-displayfd", "1", "-screen", "0", screen, "-nolisten", "tcp",
    ])
    let number: String
    do {
      number = try await process.waitForFirstLine(timeout: .seconds(15)).trimmingCharacters(
        in: .whitespaces)
    } catch {
      throw DesktopError(
        "Xvfb did not start within 15 s: \(process.standardOutput) \(process.standardError)")
    }
    guard Int(number) != nil else {
      throw DesktopError("Xvfb printed '\(number)' instead of a display number")
    }
    display = ":" + number
    lockFile = Self.lock(number, pid: process.process.pid)
    let socket = "/tmp/.X11-unix/X" + number
    _ = try await poll("the X socket \(socket)", timeout: .seconds(10)) {
      FileManager.default.fileExists(atPath: socket) ? true : nil
    }
  }

  /// Writes the X lock file of display `number` (the server's pid, as X servers write it), unless one exists.
  ///
  /// Xvfb with `-displayfd` writes none here, and KWin picks the display of
  /// its Xwayland by the lock files alone: without one, a `kwin_wayland` test
  /// running beside this server could take its number and replace its socket.
  private static func lock(_ number: String, pid: Int32) -> String? {
    let path = "/tmp/.X\(number)-lock"
    var descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o444)
    if descriptor < 0, let text = try? String(contentsOfFile: path, encoding: .utf8),
      let owner = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)), kill(owner, 0) != 0, errno == ESRCH
    {
      // A stale lock (its server was killed): Xvfb took the number anyway, so the lock is made ours.
      unlink(path)
      descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o444)
    }
    guard descriptor >= 0 else { return nil }
    let text = String(repeating: " ", count: max(0, 10 - String(pid).count)) + String(pid) + "\n"
    _ = text.withCString { write(descriptor, $0, strlen($0)) }
    close(descriptor)
    return path
  }

  deinit {
    process.process.terminate(grace: .seconds(2))
    if let lockFile { unlink(lockFile) }
  }

  /// Shuts the server down (SIGTERM) and waits until it has gone: every client loses its connection.
  ///
  /// Not SIGKILL: a killed Xvfb leaves its lock file behind, and two servers starting at once
  /// can both take the stale number, which breaks the tests running beside this one.
  public func shutDown() async {
    process.process.signal(SIGTERM)
    _ = await process.finish(timeout: .seconds(5))
    if let lockFile { unlink(lockFile) }
  }
}
