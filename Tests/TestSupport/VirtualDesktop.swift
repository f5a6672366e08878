public import DBus
import Foundation
import Spawn
import Synchronization

/// A desktop of its own for end-to-end tests: a virtual X display (Xvfb), a
/// private bus, and dunst on both, configured by `Tests/Fixtures/dunstrc`.
///
/// Every wait is bounded and polls for the state it needs (the display's
/// socket, the bus name's owner, the notification's window); nothing sleeps
/// and hopes. A missing tool (Xvfb, dunst, dunstctl, xdotool) is an error
/// that names the package, never a skipped test.
public final class VirtualDesktop: Sendable {
  /// The X display, such as `:12`.
  public let display: String
  public let bus: BusDaemon
  /// A private `XDG_RUNTIME_DIR` and `XDG_CONFIG_HOME` for everything started on this desktop.
  public let home: TemporaryDirectory
  private let xvfb: XvfbServer
  private let dunst = Mutex<BackgroundProcess?>(nil)
  private let watcher: Connection
  private let tracker: NameOwnerTracker

  /// The configuration dunst runs with.
  public static var dunstConfiguration: String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fixtures/dunstrc").path
  }

  /// Starts Xvfb, a bus and dunst, and returns when dunst owns `org.freedesktop.Notifications`.
  public init(startDunst: Bool = true) async throws {
    for (tool, package) in [("dunst", "dunst"), ("dunstctl", "dunst"), ("xdotool", "xdotool")] {
      _ = try requiredTool(tool, package: package)
    }
    home = try TemporaryDirectory(prefix: "shieldbridge-desktop")
    try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: home.path)
    xvfb = try await XvfbServer()
    display = xvfb.display
    bus = try BusDaemon()
    watcher = try Connection(.address(bus.address))
    tracker = try await NameOwnerTracker.track(
      BusName("org.freedesktop.Notifications"), on: watcher)
    if startDunst { try await self.startDunst() }
  }

  deinit {
    // dunst goes first; the server stops when `xvfb` is released after it.
    dunst.withLock { $0 = nil }
  }

  /// The environment for programs on this desktop: its display, its bus, its private folders.
  public var environment: [String: String] {
    [
      "DISPLAY": display, "DBUS_SESSION_BUS_ADDRESS": bus.address, "XDG_RUNTIME_DIR": home.path,
      "XDG_CONFIG_HOME": home.path, "HOME": home.path,
    ]
  }

  /// The unique bus name of the notification server, if one runs.
  public var serverOwner: BusName? { tracker.owner }

  /// Starts dunst and waits until it owns the notification name.
  public func startDunst() async throws {
    let process = try BackgroundProcess(
      ["dunst", "-config", VirtualDesktop.dunstConfiguration], environment: environment)
    dunst.withLock { $0 = process }
    guard await tracker.waitForOwner(timeout: .seconds(10)) != nil else {
      let output = await process.finish(timeout: .milliseconds(100))
      throw DesktopError(
        "dunst did not take org.freedesktop.Notifications within 10 s: \(output.error)")
    }
  }

  /// Stops dunst (SIGTERM) and waits until it has left the bus.
  public func stopDunst() async throws {
    guard
      let process = dunst.withLock({ state in
        defer { state = nil }
        return state
      })
    else { return }
    process.process.signal(SIGTERM)
    _ = await process.finish(timeout: .seconds(5))
    _ = try await poll("dunst to leave the bus", timeout: .seconds(5)) {
      self.tracker.owner == nil ? true : nil
    }
  }

  /// Runs `dunstctl` with `arguments` on this desktop's bus and returns its output.
  public func dunstctl(_ arguments: [String]) throws -> String {
    let result = try Subprocess.run(
      ["dunstctl"] + arguments, environment: ShieldBridgeTool.mergedEnvironment(environment),
      timeout: .seconds(10))
    guard result.status == 0 else {
      throw DesktopError("dunstctl \(arguments.joined(separator: " ")) failed: \(result.error)")
    }
    return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// `dunstctl count displayed`: how many notifications are on screen.
  public func displayedCount() throws -> Int {
    let text = try dunstctl(["count", "displayed"])
    guard let count = Int(text) else {
      throw DesktopError("dunstctl count displayed printed '\(text)'")
    }
    return count
  }

  /// `dunstctl count waiting`: how many notifications wait for room on screen.
  public func waitingCount() throws -> Int {
    let text = try dunstctl(["count", "waiting"])
    guard let count = Int(text) else {
      throw DesktopError("dunstctl count waiting printed '\(text)'")
    }
    return count
  }

  /// Waits until exactly `count` notifications are on screen and none waits.
  public func waitUntilDisplayed(_ count: Int, timeout: Duration = HangBound.wait) async throws {
    _ = try await poll("\(count) notification(s) on screen", timeout: timeout) {
      try await onOwnThread { try self.displayedCount() == count && self.waitingCount() == 0 } ? true : nil
    }
  }

  /// The X window dunst shows its notifications in, once it is on screen.
  public func notificationWindow(timeout: Duration = HangBound.wait) async throws -> String {
    try await poll("dunst's window on \(display)", timeout: timeout) {
      let environment = ShieldBridgeTool.mergedEnvironment(self.environment)
      let result = try await onOwnThread {
        try Subprocess.run(
          ["xdotool", "search", "--onlyvisible", "--class", "Dunst"], environment: environment, timeout: .seconds(5))
      }
      return result.output.split(separator: "\n").first.map(String.init)
    }
  }

  /// Clicks the (top) notification with `button`: 1 left, 2 middle (dunst: the default action), 3 right.
  ///
  /// - Parameter times: Clicks in quick succession (30 ms apart), as a double click is.
  public func clickNotification(button: Int = 2, times: Int = 1) async throws {
    let window = try await notificationWindow()
    let environment = ShieldBridgeTool.mergedEnvironment(self.environment)
    let result = try await onOwnThread {
      try Subprocess.run(
        [
          "xdotool", "mousemove", "--window", window, "20", "10", "click", "--repeat", String(times), "--delay",
          "30", String(button),
        ],
        environment: environment, timeout: .seconds(5))
    }
    guard result.status == 0 else {
      throw DesktopError("xdotool could not click window \(window): \(result.error)")
    }
  }
}

/// Why the virtual desktop could not be set up or used.
public struct DesktopError: Error, CustomStringConvertible {
  public var description: String

  public init(_ description: String) {
    self.description = description
  }
}
