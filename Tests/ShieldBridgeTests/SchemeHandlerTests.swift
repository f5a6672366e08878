import DBus
import Foundation
import JSON
import Spawn
import TestSupport
import Testing

/// `xdg-open shieldbridge://…` on a machine without a desktop, with the
/// example `.desktop` file and a `mimeapps.list` in temporary XDG folders.
///
/// What xdg-open (xdg-utils 1.1) needs there, read from the script:
/// - `XDG_CURRENT_DESKTOP=X-Generic`, so that it takes its generic path at
///   once instead of guessing the desktop (which asks the session bus for
///   GNOME's session manager and runs `xprop` on the display);
/// - `DISPLAY` or `WAYLAND_DISPLAY` set to anything: the generic path looks
///   up `x-scheme-handler/…` only when one of them is set ("has a display"),
///   and otherwise tries text browsers. It never connects to it;
/// - `XDG_CONFIG_HOME/mimeapps.list` naming the desktop file for
///   `x-scheme-handler/shieldbridge`, and the file in `XDG_DATA_HOME/applications`;
/// - the program in the file's `Exec` line (an absolute path here).
///
/// Everything else is the environment `shieldbridge open` itself needs.
private final class SchemeHandlerSetup: Sendable {
  let sandbox: Sandbox
  let xdgOpen: String

  init(sandbox: Sandbox) throws {
    self.sandbox = sandbox
    xdgOpen = try requiredTool("xdg-open", package: "xdg-utils")
    let binaries = URL(fileURLWithPath: ShieldBridgeTool.path).deletingLastPathComponent().path
    let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("examples/applications/shieldbridge.desktop")
    let entry = try String(contentsOf: example, encoding: .utf8).replacing("@BINDIR@", with: binaries)
    try FileManager.default.createDirectory(
      atPath: sandbox.root.file("data/applications"), withIntermediateDirectories: true)
    try entry.write(
      toFile: sandbox.root.file("data/applications/shieldbridge.desktop"), atomically: true, encoding: .utf8)
    try FileManager.default.createDirectory(atPath: sandbox.root.file("config"), withIntermediateDirectories: true)
    try "[Default Applications]\nx-scheme-handler/shieldbridge=shieldbridge.desktop\n".write(
      toFile: sandbox.root.file("config/mimeapps.list"), atomically: true, encoding: .utf8)
  }

  /// Runs `xdg-open link` with exactly the environment described above, and the bus at `address`.
  func open(_ link: String, busAddress address: String) async throws -> Subprocess.Result {
    var environment = sandbox.serviceEnvironment(address: address).filter { !$0.value.isEmpty }
    environment["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    environment["XDG_DATA_HOME"] = sandbox.root.file("data")
    environment["XDG_CURRENT_DESKTOP"] = "X-Generic"
    environment["WAYLAND_DISPLAY"] = "no-compositor-needed"
    let (xdgOpen, fixed) = (self.xdgOpen, environment)
    return try await onOwnThread {
      try Subprocess.run([xdgOpen, link], environment: fixed, timeout: .seconds(15))
    }
  }
}

@Suite("xdg-open hands shieldbridge:// links to shieldbridge open through the desktop file")
struct SchemeHandlerTests {
  @Test func xdgOpenReachesShieldbridgeOpenWhichRunsThePuzzleHandler() async throws {
    let sandbox = try Sandbox()
    let setup = try SchemeHandlerSetup(sandbox: sandbox)
    try sandbox.writeServiceConfig(
      apps: ["Candy Crush"], puzzleHandler: [try sandbox.recordingHandler("puzzle"), "{app}", "{link}"])
    let bus = try BusDaemon()
    let link = "shieldbridge://puzzle?app=Candy%20Crush&grant=5"
    let result = try await setup.open(link, busAddress: bus.address)
    #expect(result.status == 0, "\(result.error)")
    #expect(try JSONValue(parsing: result.output).outcome == "handler")
    #expect(try await sandbox.handlerOutput("puzzle").prefix(2) == ["arg=Candy Crush", "arg=\(link)"])
  }

  @Test func withTheServiceRunningTheLinkIsDispatchedByIt() async throws {
    let running = try await RunningService()
    let setup = try SchemeHandlerSetup(sandbox: running.sandbox)
    let result = try await setup.open(
      "shieldbridge://view?app=Instagram&view=direct", busAddress: running.desk.bus.address)
    #expect(result.status == 0, "\(result.error)")
    let record = try await running.watcher.record(after: 0)
    #expect(record.outcome == "opened")
    #expect(try await running.sandbox.handlerOutput("view").first == "arg=https://www.instagram.com/direct/inbox/")
  }

  @Test func theDesktopFileIsValid() throws {
    let validate = try requiredTool("desktop-file-validate", package: "desktop-file-utils")
    let sandbox = try Sandbox()
    _ = try SchemeHandlerSetup(sandbox: sandbox)
    let result = try Subprocess.run(
      [validate, sandbox.root.file("data/applications/shieldbridge.desktop")], timeout: .seconds(10))
    #expect(result.status == 0)
    #expect(result.output.isEmpty, "\(result.output)")
  }
}
