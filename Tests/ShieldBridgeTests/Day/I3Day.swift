import DBus
import Foundation
import TestSupport
import Testing

/// i3 on Xvfb with dunst, as an i3 user has it: focus moves with a click on
/// the window (i3 focuses on click), a hidden window comes back from the
/// scratchpad with the keys i3's default configuration binds (`scratchpad
/// show`, then `floating toggle` to tile it again), and dunst's bubble acts
/// on a middle click on its body (its default `mouse_middle_click = do_action,
/// close_current`; a left click only closes it, see
/// docs/reference/notification-servers.md). The tasks open in xterm.
final class I3Desk: XSessionDesk {
  let bus: BusDaemon
  let session: XSession
  let terminal: XTaskTerminal
  private let folder: TemporaryDirectory
  private let dunst: DayDunst

  var name: String { "i3 + dunst 1.9" }

  init() async throws {
    _ = try requiredTool("xterm", package: "xterm")
    bus = try BusDaemon()
    session = try await XSession(windowManager: .i3, sessionBus: bus.address)
    folder = try TemporaryDirectory(prefix: "shieldbridge-i3-day")
    terminal = try XTaskTerminal(session: session, folder: folder)
    dunst = try await DayDunst(on: session, bus: bus, environment: session.environment)
  }

  var serveEnvironment: [String: String] {
    ["DISPLAY": session.display, "I3SOCK": session.i3Socket ?? ""].merging(terminal.environment) { $1 }
  }

  var desktopSetting: String? { "i3" }

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

  var shieldParts: [ShieldPart] { DayDunst.shieldParts }

  func click(_ part: ShieldPart, summary: String) async throws {
    try await dunst.click(part, summary: summary)
  }

  func notificationOnScreen() async throws -> Bool? { try await dunst.displayed() > 0 }

  func answerTask(_ answer: String) async throws {
    try await terminal.type(answer) { window in
      try await self.click(window)
      try await self.session.waitUntilActive(window, "a click on the task's xterm")
    }
  }

  func taskScreen() async throws -> String { terminal.screen }

  func finish() async {
    await dunst.stop()
    await session.stopServer()
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
