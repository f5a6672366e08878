import DBus
import Foundation
import Synchronization
import TestSupport
import Testing

/// Xfce as its users have it: xfwm4 with its default settings (served by
/// xfconfd) and xfce4-notifyd on Xvfb, metered by the service's X11 backend.
///
/// Focus moves with Alt+Tab, xfwm4's window cycling: pressed with the number
/// of Tabs that reaches the window (the cycle runs through the windows in
/// the order they were last in front, minimized ones left out). Hidden is
/// minimized (`WM_STATE` Iconic); a minimized window comes back as a click on
/// the panel's task list brings it (a `_NET_ACTIVE_WINDOW` request).
/// xfce4-notifyd 0.7.3 acts only on a button: a click on the body dismisses
/// (docs/reference/notification-servers.md), so the shield's part is its button.
final class XfceDesk: XSessionDesk {
  let bus: BusDaemon
  let session: XSession
  let notifyd: XfceNotifyd
  let terminal: XTaskTerminal
  private let folder: TemporaryDirectory
  /// The bubbles clicked so far: a new click is on a bubble not among them.
  private let clicked = Mutex<Set<String>>([])

  var name: String { "Xfce 4.18 (xfwm4 + xfce4-notifyd 0.7.3)" }

  init() async throws {
    bus = try BusDaemon()
    session = try await XSession(windowManager: .xfwm4, sessionBus: bus.address)
    folder = try TemporaryDirectory(prefix: "shieldbridge-xfce-day")
    terminal = try XTaskTerminal(session: session, folder: folder)
    notifyd = try await XfceNotifyd(bus: bus, environment: session.environment)
    // A person's pointer has moved at least once: xfwm4 starts no Alt+Tab cycle while Xvfb's
    // pointer still sits where the server put it (every cycle was missed, 30 of 30).
    try await session.xdotool(["mousemove", "512", "700"])
  }

  var serveEnvironment: [String: String] { ["DISPLAY": session.display].merging(terminal.environment) { $1 } }

  var desktopSetting: String? { "x11" }

  func bringToFront(_ window: DayWindow) async throws {
    try await altTab(to: try window.xWindow, what: "\(window)")
  }

  /// Holds Alt, presses Tab as often as the cycle needs to reach `target`, releases Alt; returns
  /// once `target` is in front.
  ///
  /// Alt is released only once xfwm4 shows its cycle window, that is once it has grabbed the
  /// keyboard: a release before that would go to the window in front and leave the cycle open.
  private func altTab(to target: UInt64, what: String) async throws {
    let order = try await cycleOrder()
    guard let tabs = order.firstIndex(of: target) else {
      throw DesktopError("\(what) is not among the windows Alt+Tab reaches: \(order)")
    }
    if tabs == 0 { return }
    // xfwm4 keeps a window of its own on screen all the time: the cycle's are new ones.
    let before = try await managerWindows()
    try await session.xdotool(["keydown", "alt", "sleep", "0.05", "key", "Tab"])
    do {
      _ = try await poll("xfwm4's cycle window", every: .milliseconds(20)) {
        try await self.managerWindows().subtracting(before).isEmpty ? nil : true
      }
    } catch {
      _ = try? await session.xdotool(["keyup", "alt"])
      throw error
    }
    var keys: [String] = []
    for _ in 1..<tabs { keys += ["key", "Tab", "sleep", "0.05"] }
    try await session.xdotool(keys + ["keyup", "alt"])
    do {
      try await session.waitUntilActive(target, "Alt+Tab to \(what)")
    } catch {
      let stacking = (try? await session.xprop(["-root", "_NET_CLIENT_LIST_STACKING"])) ?? ""
      let shown = (try? await managerWindows()) ?? []
      throw DesktopError(
        "\(error); \(tabs) Tab(s) from \(order); \(stacking); xfwm4's windows \(before) then \(shown); "
          + "xfwm4 said: \(session.managerOutput.suffix(2000))")
    }
  }

  /// xfwm4's own windows on screen (the cycle shows its list in some).
  private func managerWindows() async throws -> Set<Substring> {
    let found = try await session.run(["xdotool", "search", "--onlyvisible", "--class", "^xfwm4$"])
    return Set(found.output.split(separator: "\n"))
  }

  /// The windows Alt+Tab cycles through, the one in front first: xfwm4's stacking order from the
  /// top, minimized windows left out.
  private func cycleOrder() async throws -> [UInt64] {
    let stacking = try await session.xprop(["-root", "_NET_CLIENT_LIST_STACKING"])
    let windows = stacking.split(separator: "#").last?.split(separator: ",").compactMap {
      UInt64($0.trimmingCharacters(in: .whitespaces).dropFirst(2), radix: 16)
    }
    var order: [UInt64] = []
    for window in (windows ?? []).reversed() where try await session.windowState(window) != "Iconic" {
      order.append(window)
    }
    // The window in front leads even where it is not on top.
    if let active = try await session.activeWindow(), let index = order.firstIndex(of: active) {
      order.remove(at: index)
      order.insert(active, at: 0)
    }
    return order
  }

  func isHidden(_ window: DayWindow) async throws -> Bool {
    try await session.windowState(try window.xWindow) == "Iconic"
  }

  /// What a click on the window's button in the panel's task list sends: `_NET_ACTIVE_WINDOW`.
  func bringBack(_ window: DayWindow) async throws {
    let id = try window.xWindow
    try await session.xdotool(["windowactivate", String(id)])
    try await session.waitUntilActive(id, "\(window) brought back")
  }

  var shieldParts: [ShieldPart] { [.button] }

  /// Clicks "Solve a task" (the second button, after the way out) or the text of the newest bubble not clicked before.
  func click(_ part: ShieldPart, summary: String) async throws {
    let known = clicked.withLock { $0 }
    let bubble = try await notifyd.waitForBubble(excluding: known, timeout: HangBound.wait)
    clicked.withLock { _ = $0.insert(bubble.window) }
    switch part {
    case .button: try await notifyd.clickAction(1, of: 2, on: bubble)
    case .body: try await notifyd.clickBody(of: bubble)
    }
    try await notifyd.waitUntilGone(bubble)
  }

  /// Whether an xfce4-notifyd bubble is on screen.
  func notificationOnScreen() async throws -> Bool? {
    try await !notifyd.visibleBubbleWindows().isEmpty
  }

  func answerTask(_ answer: String) async throws {
    try await terminal.type(answer) { window in
      try await self.altTab(to: window, what: "the task's xterm")
    }
  }

  func taskScreen() async throws -> String { terminal.screen }

  func finish() async {
    try? await notifyd.stop()
    await session.stopServer()
  }
}

/// The scripted day on Xfce with Chromium in a window.
@Suite("A day on Xfce: counted as in front, warned, shielded, unlocked, used up, a new day", .serialized)
struct XfceDayTests {
  @Test("With Chromium in a window")
  func chromium() async throws {
    try await ScriptedDay.run(on: try await XfceDesk(), browser: .chromium)
  }
}
