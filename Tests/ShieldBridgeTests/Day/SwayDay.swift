import DBus
import Foundation
import Spawn
import TestSupport
import Testing

/// sway and mako as a sway user has them, driven as that person drives them.
///
/// A headless sway run by the user the tests create (sway refuses root),
/// with Xwayland for the browser and the task's terminal (xterm, which writes
/// what it shows to a file: its `logging` resource, given through
/// `XENVIRONMENT`), and mako, sway's usual notification server, on a private
/// session bus. Focus moves with the user's key bindings
/// (``SwaySession/keyBindings``) pressed on a virtual keyboard (`wtype`);
/// mako's bubble is clicked with a virtual pointer (``WaylandPointer``): mako
/// acts on a left click on its body (its default binding
/// `on-button-left=invoke-default-action`) and draws no buttons.
final class SwayDesk: DayDesk {
  let session: SwaySession
  let bus: BusDaemon
  let mako: BackgroundProcess
  /// mako's and makoctl's environment: the bus, sway's Wayland socket, a home of its own.
  let makoEnvironment: [String: String]
  let pointer: WaylandPointer
  /// Xwayland's display.
  let xDisplay: String
  /// Where the task terminals' output goes, and the xterm resources that say so.
  let terminalLog: String
  let resources: String
  private let folder: TemporaryDirectory

  /// mako's bubbles: their width and margin from the output's top right corner (its configuration below).
  static let bubbleWidth: UInt32 = 300
  static let bubbleMargin: UInt32 = 10

  init() async throws {
    for (tool, package) in [("mako", "mako-notifier"), ("makoctl", "mako-notifier"), ("wtype", "wtype")] {
      _ = try requiredTool(tool, package: package)
    }
    session = try await SwaySession(xwayland: true)
    guard let xDisplay = session.xDisplay else { throw DesktopError("sway started without Xwayland") }
    self.xDisplay = xDisplay
    bus = try BusDaemon()
    folder = try TemporaryDirectory(prefix: "shieldbridge-sway-day")
    terminalLog = folder.file("task-terminal.log")
    resources = folder.file("xterm-resources")
    try "XTerm*logging: true\nXTerm*logFile: \(terminalLog)\n".write(
      toFile: resources, atomically: true, encoding: .utf8)
    let makoHome = folder.file("mako")
    try FileManager.default.createDirectory(atPath: makoHome + "/mako", withIntermediateDirectories: true)
    try "anchor=top-right\nwidth=\(Self.bubbleWidth)\nmargin=\(Self.bubbleMargin)\nsort=-time\n".write(
      toFile: makoHome + "/mako/config", atomically: true, encoding: .utf8)
    makoEnvironment = [
      "DBUS_SESSION_BUS_ADDRESS": bus.address, "WAYLAND_DISPLAY": session.runtime.file(session.waylandDisplay),
      "XDG_RUNTIME_DIR": makoHome, "XDG_CONFIG_HOME": makoHome, "HOME": makoHome, "DISPLAY": "",
    ]
    let watcher = try await ServiceWatcher(address: bus.address)
    let serverOwner = try await NameOwnerTracker.track(
      BusName("org.freedesktop.Notifications"), on: watcher.connection)
    mako = try BackgroundProcess(["mako"], environment: makoEnvironment)
    guard await serverOwner.waitForOwner(timeout: HangBound.wait) != nil else {
      mako.process.signalGroup(SIGTERM)
      throw PollTimedOut(what: "mako to own org.freedesktop.Notifications: \(mako.standardError)")
    }
    pointer = try session.pointer()
  }

  deinit {
    mako.process.signalGroup(SIGTERM)
  }

  var name: String { "sway 1.7 + mako 1.7.1 (Chromium on Xwayland)" }

  var desktopSetting: String? { "sway" }

  /// What `serve` needs here: sway's IPC socket, its Wayland socket, Xwayland, and xterm as the task's terminal.
  var serveEnvironment: [String: String] {
    [
      "SWAYSOCK": session.socket, "I3SOCK": "", "WAYLAND_DISPLAY": session.runtime.file(session.waylandDisplay),
      "DISPLAY": xDisplay, "TERMINAL": "xterm", "XENVIRONMENT": resources,
    ]
  }

  /// Where a browser's window goes: Xwayland.
  var browserEnvironment: [String: String]? { ["DISPLAY": xDisplay, "WAYLAND_DISPLAY": ""] }

  /// A foot of app id `appID`, run by the session's user, once sway shows it.
  func launchApp(_ appID: String) async throws -> DayWindow {
    _ = try await session.launchFoot(appID: appID)
    let window = try await poll("foot \(appID) in sway's tree") {
      try await self.session.windows().last { $0.appID == appID }
    }
    return DayWindow(id: String(window.id), appClass: appID)
  }

  /// The Xwayland window of class `windowClass` (matched without case: a browser's), once sway shows it.
  func browserWindow(_ windowClass: String) async throws -> DayWindow {
    let window = try await poll("the \(windowClass) window on Xwayland \(xDisplay)", timeout: .seconds(60)) {
      try await self.session.windows().first {
        $0.windowClass?.lowercased() == windowClass.lowercased() && !$0.isHidden
      }
    }
    return DayWindow(id: String(window.id), appClass: windowClass)
  }

  /// sway's view of a desk window, now.
  private func current(_ window: DayWindow) async throws -> SwaySession.Window {
    guard let id = Int(window.id), let found = try await session.windows().first(where: { $0.id == id }) else {
      throw DesktopError("\(window) is not in sway's tree: \(try await session.windows())")
    }
    return found
  }

  /// Brings `window` to the front with the user's Alt+Tab (`focus next`) or
  /// Alt+Shift+Tab (`focus prev`), whichever reaches it in fewer presses; returns once sway says it is in front.
  func bringToFront(_ window: DayWindow) async throws {
    let window = try await current(window)
    for _ in 0..<8 {
      let windows = try await session.windows().filter { !$0.isHidden && $0.floating == window.floating }
      guard let target = windows.firstIndex(where: { $0.id == window.id }) else {
        throw DesktopError("window \(window.id) is not on a workspace: \(windows)")
      }
      guard let focused = windows.firstIndex(where: \.focused) else {
        throw DesktopError("no window in front to Alt+Tab from: \(windows)")
      }
      if focused == target { return }
      let forward = (target - focused + windows.count) % windows.count
      let keys =
        forward <= windows.count - forward
        ? ["-M", "alt", "-k", "Tab", "-m", "alt"]
        : ["-M", "alt", "-M", "shift", "-k", "Tab", "-m", "shift", "-m", "alt"]
      let before = windows[focused].id
      try await session.press(keys)
      _ = try await poll("sway to move focus from window \(before)") {
        try await self.session.focusedWindow()?.id != before ? true : nil
      }
    }
    throw DesktopError("Alt+Tab did not reach window \(window.id): \(try await session.windows())")
  }

  /// Whether `window` is on sway's scratchpad, where the service hides an app.
  func isHidden(_ window: DayWindow) async throws -> Bool {
    try await current(window).isHidden
  }

  /// Brings a hidden window back as a sway user does: `scratchpad show`
  /// (Mod4+minus), then `floating toggle` (Mod4+Shift+space) to put it back in the layout.
  func bringBack(_ window: DayWindow) async throws {
    let window = try await current(window)
    guard window.isHidden else { return try await bringToFront(DayWindow(id: String(window.id), appClass: "")) }
    try await session.press(["-M", "logo", "-k", "minus", "-m", "logo"])
    _ = try await poll("window \(window.id) shown from the scratchpad and in front") {
      let shown = try await self.session.windows().first { $0.id == window.id }
      return shown.map { !$0.isHidden && $0.focused } == true ? true : nil
    }
    try await session.press(["-M", "logo", "-M", "shift", "-k", "space", "-m", "shift", "-m", "logo"])
    _ = try await poll("window \(window.id) tiled again and in front") {
      let shown = try await self.session.windows().first { $0.id == window.id }
      return shown.map { !$0.floating && $0.focused } == true ? true : nil
    }
  }

  /// `makoctl ARGUMENTS` against this mako; what it printed.
  func makoctl(_ arguments: [String]) async throws -> String {
    let environment = ShieldBridgeTool.mergedEnvironment(makoEnvironment)
    let result = try await onOwnThread {
      try Subprocess.run(["makoctl"] + arguments, environment: environment, timeout: .seconds(10))
    }
    guard result.status == 0 else {
      let ended = await mako.finish(timeout: .milliseconds(100))
      throw CommandFailed(
        description:
          "makoctl \(arguments): \(result.output) \(result.error); mako: \(String(describing: ended.termination)) \(ended.output) \(ended.error)"
      )
    }
    return result.output
  }

  /// The summaries mako shows, newest (the top bubble) first.
  func bubbles() async throws -> [String] {
    let listed = try JSONSerialization.jsonObject(with: Data(try await makoctl(["list"]).utf8))
    let notifications = ((listed as? [String: Any])?["data"] as? [[Any]])?.first ?? []
    return notifications.compactMap {
      (($0 as? [String: Any])?["summary"] as? [String: Any])?["data"] as? String
    }
  }

  /// mako draws no buttons (its actions are reached through `makoctl menu`); a left click on
  /// the body invokes the default action.
  var shieldParts: [ShieldPart] { [.body] }

  /// A left click on the body of mako's top bubble, once it is the one with `summary`.
  func click(_ part: ShieldPart, summary: String) async throws {
    guard part == .body else { throw DesktopError("mako draws no buttons") }
    _ = try await poll("mako's top bubble to be \"\(summary)\"") {
      try await self.bubbles().first == summary ? true : nil
    }
    // The bubble's top left part: its summary line, inside any bubble's height.
    let width = SwaySession.outputSize.width
    try pointer.click(x: width - Self.bubbleMargin - Self.bubbleWidth / 2, y: Self.bubbleMargin + 12)
  }

  /// Types `answer` and Return into the task's terminal (an xterm on Xwayland), once it is in front.
  ///
  /// Each `wtype` is a new keyboard with a keymap of its own, which Xwayland
  /// takes on its first key: keys sent at once after it are lost. `wtype -s`
  /// waits 300 ms before the first key; the echo of the answer on the
  /// terminal's screen is awaited before Return, so a lost key fails here.
  func answerTask(_ answer: String) async throws {
    _ = try await poll("the task's xterm in front", timeout: HangBound.wait) {
      try await self.session.focusedWindow()?.windowClass == "XTerm" ? true : nil
    }
    let before = try await taskScreen().count
    try await session.press(["-s", "300", answer])
    _ = try await poll("the answer \(answer) echoed by the task's xterm") {
      try await String(self.taskScreen().dropFirst(before)).contains(answer) ? true : nil
    }
    try await session.press(["-s", "300", "-k", "Return"])
  }

  /// What the task terminals showed so far.
  func taskScreen() async throws -> String {
    (try? String(contentsOfFile: terminalLog, encoding: .utf8)) ?? ""
  }

  func finish() async {
    mako.process.signalGroup(SIGTERM)
    _ = await mako.finish(timeout: .seconds(5))
  }
}

/// The scripted day on sway with mako: a foot as the covered app, Chromium on Xwayland.
@Suite("A day on sway with mako: counted as in front, warned, shielded, unlocked, used up, a new day", .serialized)
struct SwayDayTests {
  @Test("With Chromium in a window on Xwayland")
  func chromium() async throws {
    try await ScriptedDay.run(on: try await SwayDesk(), browser: .chromium)
  }
}
