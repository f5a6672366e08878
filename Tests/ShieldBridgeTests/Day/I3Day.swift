import DBus
import Foundation
import Spawn
import Synchronization
import TestSupport
import Testing

/// i3 on Xvfb with dunst, as an i3 user has it: focus moves with a click on
/// the window (i3 focuses on click), a hidden window comes back from the
/// scratchpad with the keys i3's default configuration binds (`scratchpad
/// show`, then `floating toggle` to tile it again), and dunst's bubble acts
/// on a middle click on its body (its default `mouse_middle_click = do_action,
/// close_current`; a left click only closes it, see
/// docs/notification-servers.md). The tasks open in xterm.
final class I3Desk: DayDesk {
  let bus: BusDaemon
  let session: XSession
  let terminal: XTaskTerminal
  private let folder: TemporaryDirectory
  private let dunst: Mutex<BackgroundProcess?>
  private let watcher: Connection
  private let tracker: NameOwnerTracker

  var name: String { "i3 + dunst 1.9" }

  init() async throws {
    for (tool, package) in [("dunst", "dunst"), ("dunstctl", "dunst"), ("xterm", "xterm")] {
      _ = try requiredTool(tool, package: package)
    }
    bus = try BusDaemon()
    session = try await XSession(windowManager: .i3, sessionBus: bus.address)
    folder = try TemporaryDirectory(prefix: "shieldbridge-i3-day")
    terminal = try XTaskTerminal(session: session, folder: folder)
    watcher = try Connection(.address(bus.address))
    tracker = try await NameOwnerTracker.track(BusName("org.freedesktop.Notifications"), on: watcher)
    let started = try BackgroundProcess(
      ["dunst", "-config", VirtualDesktop.dunstConfiguration], environment: session.environment)
    dunst = Mutex(started)
    guard await tracker.waitForOwner(timeout: HangBound.wait) != nil else {
      let output = await started.finish(timeout: .milliseconds(100))
      throw DesktopError("dunst did not take org.freedesktop.Notifications: \(output.error)")
    }
  }

  var serveEnvironment: [String: String] {
    ["DISPLAY": session.display, "I3SOCK": session.i3Socket ?? ""].merging(terminal.environment) { $1 }
  }

  var desktopSetting: String? { "i3" }

  var browserEnvironment: [String: String]? { ["DISPLAY": session.display] }

  func launchApp(_ appClass: String) async throws -> DayWindow {
    let client = try await session.launchXterm(windowClass: appClass)
    return DayWindow(id: String(client.window), appClass: appClass)
  }

  func browserWindow(_ appClass: String) async throws -> DayWindow {
    DayWindow(id: String(try await session.managedWindow(ofClass: appClass)), appClass: appClass)
  }

  /// A left click in the middle of the window: i3 focuses what is clicked.
  func bringToFront(_ window: DayWindow) async throws {
    try await click(try window.xWindow)
    try await session.waitUntilActive(try window.xWindow, "a click on \(window)")
  }

  private func click(_ window: UInt64) async throws {
    let geometry = try await session.xdotool(["getwindowgeometry", "--shell", String(window)])
    var size: [String: Int] = [:]
    for line in geometry.split(separator: "\n") {
      let parts = line.split(separator: "=", maxSplits: 1)
      if parts.count == 2, let value = Int(parts[1]) { size[String(parts[0])] = value }
    }
    let x = (size["WIDTH"] ?? 2) / 2
    let y = (size["HEIGHT"] ?? 2) / 2
    try await session.xdotool(["mousemove", "--window", String(window), String(x), String(y), "click", "1"])
  }

  func isHidden(_ window: DayWindow) async throws -> Bool {
    try await session.isInScratchpad(try window.xWindow)
  }

  /// What i3's default key bindings run: `scratchpad show` ($mod+minus), then `floating toggle`
  /// ($mod+Shift+space), so that the window is tiled again and clicks on the others reach them.
  func bringBack(_ window: DayWindow) async throws {
    let id = try window.xWindow
    if try await session.isInScratchpad(id) {
      try await session.i3msg(["[id=\(id)] scratchpad show"])
      try await session.i3msg(["[id=\(id)] floating disable"])
    } else {
      try await click(id)
    }
    try await session.waitUntilActive(id, "\(window) brought back")
  }

  /// dunst draws no buttons: a middle click on the body is its way to act.
  var shieldParts: [ShieldPart] { [.body] }

  /// A middle click on the bubble for `.body`; dunst shows the newest notification on top, and the
  /// script clicks only while one is on screen.
  func click(_ part: ShieldPart, summary: String) async throws {
    guard part == .body else { throw DesktopError("dunst draws no buttons") }
    _ = try await poll("dunst's bubble (\(summary)) on screen") { try await displayed() == 1 ? true : nil }
    let bubble = try await poll("dunst's window") {
      let found = try await session.run(["xdotool", "search", "--onlyvisible", "--class", "Dunst"])
      return found.output.split(separator: "\n").first.map(String.init)
    }
    try await session.xdotool(["mousemove", "--window", bubble, "20", "10", "click", "2"])
  }

  func notificationOnScreen() async throws -> Bool? { try await displayed() > 0 }

  /// `dunstctl count displayed`: how many bubbles dunst shows.
  private func displayed() async throws -> Int {
    let environment = ShieldBridgeTool.mergedEnvironment(session.environment)
    let count = try await onOwnThread {
      try Subprocess.run(["dunstctl", "count", "displayed"], environment: environment, timeout: .seconds(10))
    }
    return Int(count.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
  }

  func answerTask(_ answer: String) async throws {
    try await terminal.type(answer) { window in
      try await self.click(window)
      try await self.session.waitUntilActive(window, "a click on the task's xterm")
    }
  }

  func taskScreen() async throws -> String { terminal.screen }

  func finish() async {
    if let process = dunst.withLock({ state in
      defer { state = nil }
      return state
    }) {
      process.process.signal(SIGTERM)
      _ = await process.finish(timeout: .seconds(5))
    }
    await session.stopServer()
    watcher.close()
  }
}

/// The scripted day on i3 with dunst: the app, Chromium in a window, and then the same day with
/// Firefox ESR in a window.
@Suite("A day on i3 with dunst: counted as in front, warned, shielded, unlocked, used up, a new day", .serialized)
struct I3DayTests {
  @Test("With Chromium in a window")
  func chromium() async throws {
    try await ScriptedDay.run(on: try await I3Desk(), browser: .chromium)
  }

  @Test("With Firefox ESR in a window")
  func firefox() async throws {
    try await ScriptedDay.run(on: try await I3Desk(), browser: .firefox)
  }
}
