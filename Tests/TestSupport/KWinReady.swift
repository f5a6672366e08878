public import DBus
import Desktop

/// Waits until KWin serves its scripting interface on a test's bus.
///
/// KWin owns `org.kde.KWin` a moment before it exports `/Scripting`; a test
/// that loads scripts waits for an answer there, not for the name.
public enum KWinReady {
  /// Waits (bounded) until `org.kde.KWin` answers `isScriptLoaded` on `/Scripting` of `bus`.
  ///
  /// - Throws: When it has not answered within `timeout`.
  public static func wait(on bus: BusDaemon, timeout: Duration = .seconds(30)) async throws {
    let connection = try Connection(.address(bus.address))
    defer { connection.close() }
    _ = try await poll("org.kde.KWin to answer on \(bus.address)", timeout: timeout, every: .milliseconds(100)) {
      let reply = try? await connection.call(
        KWinScriptingInterface.isScriptLoaded, destination: KWinScriptingInterface.busName,
        path: KWinScriptingInterface.path, "shieldbridge-none", timeout: HangBound.answer)
      return reply == nil ? nil : true
    }
  }
}
