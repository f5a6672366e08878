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

  /// Starts Xvfb and returns when its socket accepts clients.
  ///
  /// - Throws: ``DesktopError`` when Xvfb is missing or does not start within 15 s.
  public init(screen: String = "1024x768x24") async throws {
    _ = try requiredTool("Xvfb", package: "xvfb")
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
    let socket = "/tmp/.X11-unix/X" + number
    _ = try await poll("the X socket \(socket)", timeout: .seconds(10)) {
      FileManager.default.fileExists(atPath: socket) ? true : nil
    }
  }

  deinit {
    process.process.terminate(grace: .seconds(2))
  }

  /// Shuts the server down (SIGTERM) and waits until it has gone: every client loses its connection.
  ///
  /// Not SIGKILL: a killed Xvfb leaves its lock file behind, and two servers starting at once
  /// can both take the stale number, which breaks the tests running beside this one.
  public func shutDown() async {
    process.process.signal(SIGTERM)
    _ = await process.finish(timeout: .seconds(5))
  }
}
