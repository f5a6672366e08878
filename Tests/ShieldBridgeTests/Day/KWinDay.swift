import DBus
import Foundation
import TestSupport
import Testing

/// KWin 6 on Wayland (Debian 13's, in the chroot: `kwin_wayland --virtual` with
/// Xwayland) with dunst as its notification server on Xwayland, as a Plasma
/// user without Plasma's own server has it. The apps, the browser and the
/// task's terminal are X clients on Xwayland.
///
/// - In front: KWin's Alt+Tab action ("Walk Through Windows", and its reverse
///   for Alt+Shift+Tab), invoked through KWin's global shortcuts
///   (`org.kde.kglobalaccel`, `/component/kwin`, `invokeShortcut`). The keys
///   themselves cannot be pressed here: `xdotool key alt+Tab` and
///   `xdotool click` go through Xwayland's XTest, whose events Xwayland hands
///   to its X clients and never to KWin (tried: neither the TabBox nor a click
///   moves KWin's focus), and this container has no input device for KWin to
///   read. Invoked without a held Alt, the action is a quick Alt+Tab: one
///   step through KWin's focus chain, to the window used last (forward) or
///   the one used longest ago (reverse), which Xwayland's stacking order
///   (`_NET_CLIENT_LIST_STACKING`, KWin raises what it activates) tells
///   apart. A window in between, reached by pressing Tab several times while
///   Alt is held, is activated as Plasma's task manager does
///   (`_NET_ACTIVE_WINDOW` from a pager, `xdotool windowactivate`).
/// - Hidden: minimized (`WM_STATE` Iconic); a person brings it back with a
///   click on its entry in the task manager (the same activation request).
/// - The shield: dunst draws no buttons; its bubble acts on a middle click on
///   the body (Tests/Fixtures/dunstrc, docs/reference/notification-servers.md), a real
///   click through Xwayland's XTest, which reaches dunst as an X client.
/// - The task: xterm on Xwayland (``XTaskTerminal``).
final class KWinDesk: DayDesk {
  let bus: BusDaemon
  let session: KWinWaylandSession
  let terminal: XTaskTerminal
  private let folder: TemporaryDirectory
  private let dunst: DayDunst
  private let watcher: Connection
  private let version: String

  var name: String { "\(version) on Wayland (Debian 13 in a chroot) + dunst 1.9 on Xwayland" }

  init() async throws {
    _ = try requiredTool("xterm", package: "xterm")
    let trixie = try await Trixie.shared()
    version = try await trixie.run(["kwin_wayland", "--version"]).replacingOccurrences(of: "kwin ", with: "KWin ")
    bus = try BusDaemon()
    session = try await KWinWaylandSession(sessionBus: bus.address, chroot: trixie)
    try await KWinReady.wait(on: bus)
    folder = try TemporaryDirectory(prefix: "shieldbridge-kwin-day")
    terminal = try XTaskTerminal(session: session, folder: folder)
    let connection = try Connection(.address(bus.address))
    watcher = connection
    // KWin registers its shortcuts a moment after it answers on /Scripting.
    _ = try await poll("KWin's shortcut \(Self.walk) in org.kde.kglobalaccel") {
      let reply = try? await connection.call(
        BusName("org.kde.kglobalaccel"), ObjectPath("/component/kwin"),
        InterfaceName("org.kde.kglobalaccel.Component"), MemberName("shortcutNames"), timeout: HangBound.answer)
      return try reply?.decode([String].self).contains(Self.walk) == true ? true : nil
    }
    // dunst on Xwayland: without WAYLAND_DISPLAY it draws as an X client, whose clicks xdotool makes.
    dunst = try await DayDunst(
      on: session, bus: bus, environment: session.environment.merging(["WAYLAND_DISPLAY": ""]) { $1 })
  }

  /// Xwayland's display and the Wayland session, for the service (KWin's script on the bus sees the
  /// windows; nothing else of the session is its business), and the task's terminal.
  var serveEnvironment: [String: String] {
    [
      "DISPLAY": session.display, "WAYLAND_DISPLAY": session.waylandDisplay, "XDG_SESSION_TYPE": "wayland",
      "I3SOCK": "", "SWAYSOCK": "",
    ].merging(terminal.environment) { $1 }
  }

  var desktopSetting: String? { "kwin" }

  /// Xwayland's display: the browser is an X client there.
  var browserEnvironment: [String: String]? { ["DISPLAY": session.display, "WAYLAND_DISPLAY": ""] }

  func launchApp(_ appClass: String) async throws -> DayWindow {
    let client = try await session.launchXterm(windowClass: appClass)
    let window = DayWindow(id: String(client.window), appClass: appClass)
    try await waitUntilActive(client.window, "\(window) opened")
    return window
  }

  /// The browser's visible window of class `appClass` once KWin manages it (`WM_STATE` Normal).
  func browserWindow(_ appClass: String) async throws -> DayWindow {
    let window = try await poll("a window of class \(appClass) on \(session.display)", timeout: .seconds(60)) {
      let found = try await self.session.run(
        ["xdotool", "search", "--onlyvisible", "--class", "^\(appClass)$"], timeout: HangBound.wait)
      for line in found.output.split(separator: "\n") {
        guard let window = UInt64(line) else { continue }
        if try await self.session.windowState(window) == "Normal" { return window }
      }
      return nil
    }
    return DayWindow(id: String(window), appClass: appClass)
  }

  /// KWin's Alt+Tab one step, forward or back, to `window` where it is the next or the last in
  /// KWin's focus chain; as the task manager does where it is in between.
  func bringToFront(_ window: DayWindow) async throws {
    let id = try window.xWindow
    var tried: [String] = []
    for _ in 0..<3 {
      let active = try await session.activeWindow()
      if active == id { return }
      // Bottom first; without the active window, KWin's focus chain from the least recently used.
      let others = try await stackingOrder().filter { $0 != active }
      let how: String
      if others.last == id {
        how = Self.walk
        try await shortcut(how)
      } else if others.first == id, others.count > 1 {
        how = Self.walkBack
        try await shortcut(how)
      } else {
        how = "the task manager"
        try await session.xdotool(["windowactivate", hex(id)])
      }
      let landed = try? await poll("\(window) in front", every: .milliseconds(20)) {
        let now = try await self.session.activeWindow()
        return now != active ? now : nil
      }
      if landed == id { return }
      tried.append("\(how) from \(active.map { hex($0) } ?? "nothing") to \(landed.map { hex($0) } ?? "nothing")")
    }
    throw DesktopError("KWin did not bring \(window) to the front: \(tried)")
  }

  /// Minimized: KWin's hide, which the window's `WM_STATE` says.
  func isHidden(_ window: DayWindow) async throws -> Bool {
    try await session.windowState(try window.xWindow) == "Iconic"
  }

  /// A click on the window's entry in the task manager: an activation request from a pager, which
  /// KWin answers by restoring the window and bringing it to the front.
  func bringBack(_ window: DayWindow) async throws {
    let id = try window.xWindow
    try await session.xdotool(["windowactivate", hex(id)])
    try await waitUntilActive(id, "\(window) brought back")
  }

  var shieldParts: [ShieldPart] { DayDunst.shieldParts }

  func click(_ part: ShieldPart, summary: String) async throws {
    try await dunst.click(part, summary: summary)
  }

  func notificationOnScreen() async throws -> Bool? { try await dunst.displayed() > 0 }

  /// Brings the task's xterm to the front the way any window comes there, then types.
  func answerTask(_ answer: String) async throws {
    try await terminal.type(answer) { window in
      try await self.bringToFront(DayWindow(id: String(window), appClass: "XTerm"))
    }
  }

  func taskScreen() async throws -> String { terminal.screen }

  func finish() async {
    await dunst.stop()
    watcher.close()
  }

  // MARK: KWin

  /// KWin's names of the actions Alt+Tab and Alt+Shift+Tab are bound to.
  static let walk = "Walk Through Windows"
  static let walkBack = "Walk Through Windows (Reverse)"

  /// Runs KWin's global shortcut `name`, as its keys do.
  private func shortcut(_ name: String) async throws {
    _ = try await watcher.call(
      BusName("org.kde.kglobalaccel"), ObjectPath("/component/kwin"), InterfaceName("org.kde.kglobalaccel.Component"),
      MemberName("invokeShortcut"), name, timeout: HangBound.answer)
  }

  /// Xwayland's `_NET_CLIENT_LIST_STACKING`, bottom first.
  private func stackingOrder() async throws -> [UInt64] {
    let output = try await session.checked(["xprop", "-root", "_NET_CLIENT_LIST_STACKING"])
    guard let list = output.split(separator: "#", maxSplits: 1).last else { return [] }
    return list.split(separator: ",").compactMap { item in
      let hex = item.trimmingCharacters(in: .whitespaces)
      return hex.hasPrefix("0x") ? UInt64(hex.dropFirst(2), radix: 16) : nil
    }
  }

  /// `window` as xdotool and xprop take it.
  private func hex(_ window: UInt64) -> String { "0x" + String(window, radix: 16) }

  /// Waits until KWin names `window` active on Xwayland.
  private func waitUntilActive(_ window: UInt64, _ what: String) async throws {
    do {
      _ = try await poll("\(what): window \(hex(window)) in front", every: .milliseconds(20)) {
        try await self.session.activeWindow() == window ? true : nil
      }
    } catch {
      let active = try? await session.activeWindow()
      throw DesktopError("\(error); in front: \(active.map { hex($0) } ?? "nothing")")
    }
  }
}

/// The scripted day on KWin 6 with dunst, Chromium in a window on Xwayland.
@Suite("A day on KWin 6 with dunst: counted as in front, warned, shielded, unlocked, used up, a new day")
struct KWinDayTests {
  @Test("With Chromium in a window on Xwayland")
  func chromium() async throws {
    try await ScriptedDay.run(on: try await KWinDesk(), browser: .chromium)
  }
}
