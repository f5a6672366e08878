import DBus
import Foundation
import Synchronization
import TestSupport
import Testing

/// GNOME Shell 48 (Debian 13, in the chroot) as its users have it, driven as a
/// person drives it: its own notifications (the shell's notification daemon),
/// foot windows for the apps, Xwayland for X11 clients (the browser, and the
/// xterm the tasks open in), keys and clicks through Mutter's remote-desktop
/// virtual keyboard and pointer.
///
/// - In front: Alt+Tab, Tab pressed as often as the app switcher needs (its
///   order is the most recently used first, which the stacking order the
///   extension lists follows), until the extension's `Watch` names the window.
/// - Hidden: minimized, as the extension lists it.
/// - The shield: the shell's notification daemon gives the `default` action no
///   button; a click on the notification's body sends it. Its banner leaves
///   after 4 s while the person is active, so the person opens the
///   notification list (Super+V) and clicks the newest one at the top.
/// - The task: xterm on Xwayland (`TERMINAL`), whose screen xterm itself
///   writes to a file (its `logging` resource, through `XENVIRONMENT`).
final class GnomeDesk: DayDesk {
  let session: GnomeShellSession
  let folder: TemporaryDirectory
  let signals: BackgroundProcess
  /// What the task terminals showed, in order (xterm appends each one's output).
  let terminalLog: String
  let resources: String
  private let clients = Mutex<[BackgroundProcess]>([])

  var name: String { "GNOME Shell 48 (its own notifications), Debian 13 in a chroot" }
  var bus: BusDaemon { session.bus }
  var desktopSetting: String? { nil }

  init() async throws {
    _ = try requiredTool("xterm", package: "xterm")
    _ = try requiredTool("dbus-monitor", package: "dbus-bin")
    session = try await GnomeShellSession(chroot: try await Trixie.shared(), xwayland: true)
    folder = try TemporaryDirectory(prefix: "shieldbridge-gnomeday")
    terminalLog = folder.file("task-terminal.log")
    resources = folder.file("xterm-resources")
    try "XTerm*logging: true\nXTerm*logFile: \(terminalLog)\n".write(
      toFile: resources, atomically: true, encoding: .utf8)
    signals = try BackgroundProcess([
      "dbus-monitor", "--address", session.bus.address,
      "type='signal',interface='org.freedesktop.Notifications'",
    ])
    _ = try await signals.waitForLine(containing: "member=NameLost")
    // Running as root without a display manager, the shell greets with two notifications of its
    // own ("Logged in as a privileged user", "Screen Lock disabled") whose banners wait for the
    // person; opening the notification list once marks them seen, as a person does. The shell
    // starts in the overview, which Escape leaves first, once its startup animation has ended.
    try await session.waitUntilStarted()
    try await session.press(keysym: 0xff1b)
    try await session.press(chord: [0xffeb, 0x76])
    try await session.press(keysym: 0xff1b)
  }

  /// The environment of the service: the session, `TERMINAL` xterm with its log.
  var serveEnvironment: [String: String] {
    session.environment.merging(["TERMINAL": "xterm", "XENVIRONMENT": resources]) { $1 }
  }

  /// Xwayland's display, for a browser on X11.
  var browserEnvironment: [String: String]? {
    let environment = session.environment
    return environment["DISPLAY"].map { ["DISPLAY": $0, "XAUTHORITY": environment["XAUTHORITY"] ?? ""] }
  }

  /// Starts `foot -a APPCLASS` and returns its window once the shell lists it, in front.
  func launchApp(_ appClass: String) async throws -> DayWindow {
    let before = Set(try await session.windows(ofClass: appClass).map(\.id))
    var environment = session.environment
    environment["DISPLAY"] = ""
    let foot = try BackgroundProcess(["foot", "-a", appClass, "-e", "sleep", "600"], environment: environment)
    clients.withLock { $0.append(foot) }
    let window = try await poll("foot's window \(appClass)", timeout: .seconds(30), every: .milliseconds(50)) {
      try await self.session.windows(ofClass: appClass).first { !before.contains($0.id) }
    }
    let found = DayWindow(id: String(window.id), appClass: appClass)
    try await bringToFront(found)
    return found
  }

  /// The browser's window (class `appClass`, matched without case) once the shell lists it.
  func browserWindow(_ appClass: String) async throws -> DayWindow {
    let window = try await poll("the browser's window \(appClass)", timeout: .seconds(60)) {
      try await self.session.windows().first { $0.wmClass?.lowercased() == appClass.lowercased() }
    }
    return DayWindow(id: String(window.id), appClass: window.wmClass ?? appClass)
  }

  /// Alt+Tab with as many Tabs as the target's place in the switcher; checked with `Watch`, and
  /// walked again from where it landed when another window came in front.
  func bringToFront(_ window: DayWindow) async throws {
    guard let id = UInt64(window.id) else { throw DesktopError("no GNOME window id: \(window)") }
    var tried: [String] = []
    for _ in 0..<4 {
      let focused = try await session.watch()
      if focused?.id == id { return }
      // The stacking order, top first: the app switcher's most recently used order.
      let order = try await session.windows().reversed().map(\.id)
      guard let place = order.firstIndex(of: id) else { throw DesktopError("GNOME lists no window \(window)") }
      let times = max(place, 1)
      try await session.altTab(times: times)
      let landed = try? await poll("\(window) in front", timeout: .seconds(3), every: .milliseconds(20)) {
        let now = try await self.session.watch()
        return now?.id != focused?.id ? now : nil
      }
      if landed?.id == id { return }
      // Nothing moved: the overview or a menu has the keyboard; Escape leaves it, as a person does.
      if landed == nil { try await session.press(keysym: 0xff1b) }
      tried.append("\(times) Tab(s) from \(focused?.wmClass ?? "none") to \(landed?.wmClass ?? "nothing")")
    }
    throw DesktopError("Alt+Tab did not bring \(window) to the front: \(tried)")
  }

  /// Whether the shell keeps `window` minimized.
  func isHidden(_ window: DayWindow) async throws -> Bool {
    try await session.windows().first { String($0.id) == window.id }?.isMinimized ?? false
  }

  /// Alt+Tab to it: the app switcher brings a minimized window back.
  func bringBack(_ window: DayWindow) async throws {
    try await bringToFront(window)
  }

  /// Only the body: the shell draws no button for the default action.
  var shieldParts: [ShieldPart] { [.body] }

  /// Opens the notification list (Super+V) and clicks the newest notification, at its top;
  /// returns once the shell sent `ActionInvoked` or `NotificationClosed` for it, and closes the list.
  func click(_ part: ShieldPart, summary: String) async throws {
    guard part == .body else { throw DesktopError("GNOME Shell draws no button for the shield's task") }
    let mark = signals.outputLines.count
    try await session.press(chord: [0xffeb, 0x76])
    // The list's first message: 146,49 413×96 on a 1024×768 monitor (GNOME Shell 48.7, the default theme).
    try await session.click(x: 300, y: 110)
    do {
      _ = try await poll("the shell's answer to the click on \(summary)", timeout: .seconds(10)) {
        self.signals.outputLines.dropFirst(mark).first {
          $0.contains("member=ActionInvoked") || $0.contains("member=NotificationClosed")
        }
      }
    } catch {
      throw PollTimedOut(what: "\(error); the shell said:\n\(session.shellOutput.suffix(3000))")
    }
    try await session.press(keysym: 0xff1b)
  }

  /// Brings the task's xterm to the front, types `answer` and Return.
  func answerTask(_ answer: String) async throws {
    let window = try await poll("the task's xterm", timeout: .seconds(30)) {
      try await self.session.windows().last { $0.wmClass == "XTerm" }
    }
    try await bringToFront(DayWindow(id: String(window.id), appClass: "XTerm"))
    // Xwayland may hand the keyboard to the xterm a moment after the shell names it in front, and
    // keys pressed before that are lost: the answer is typed until the terminal echoes it whole,
    // a line typed in part erased first with Ctrl+U (the terminal's line kill), then Return.
    for _ in 0..<5 {
      let mark = try await taskScreen().count
      for key in answer.unicodeScalars { try await session.press(keysym: UInt32(key.value)) }
      let echoed = try? await poll("the answer echoed by the task's xterm", timeout: .seconds(5)) {
        String(try await self.taskScreen().dropFirst(mark)).hasSuffix(answer) ? true : nil
      }
      if echoed != nil {
        try await session.press(keysym: 0xff0d)
        return
      }
      try await session.press(chord: [0xffe3, 0x75])
    }
    throw DesktopError("the task's xterm never echoed the answer \(answer): \(try await taskScreen().suffix(300))")
  }

  /// What the task terminals showed so far.
  func taskScreen() async throws -> String {
    (try? String(contentsOfFile: terminalLog, encoding: .utf8)) ?? ""
  }

  func finish() async {
    for client in clients.withLock({ $0 }) { client.process.killTree() }
    signals.process.signal(SIGTERM)
    _ = await signals.finish()
    await session.stopShell()
  }
}

/// The scripted day on GNOME Shell 48 with its own notifications: the app in foot, Chromium in a
/// window on the shell's Xwayland.
@Suite("A day on GNOME Shell 48: counted as in front, warned, shielded, unlocked, used up, a new day")
struct GnomeDayTests {
  @Test("With Chromium in a window on Xwayland")
  func chromium() async throws {
    try await ScriptedDay.run(on: try await GnomeDesk(), browser: .chromium)
  }
}
