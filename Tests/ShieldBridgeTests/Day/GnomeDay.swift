import DBus
import Foundation
import JSON
import Synchronization
import TestSupport
import Testing

@testable import ShieldBridge

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
final class GnomeDesk: Sendable {
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
    // starts in the overview, which Escape leaves first.
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
    let keys = answer.unicodeScalars.map { UInt32($0.value) } + [0xff0d]
    for key in keys { try await session.press(keysym: key) }
  }

  /// What the task terminals showed so far.
  func taskScreen() async throws -> String {
    (try? String(contentsOfFile: terminalLog, encoding: .utf8)) ?? ""
  }

  func finish() async {
    for client in clients.withLock({ $0 }) { client.process.signalGroup(SIGTERM) }
    signals.process.signal(SIGTERM)
    _ = await signals.finish()
  }
}

/// A window of a desk: the desk's id for it and its class.
struct DayWindow: Sendable, Hashable, CustomStringConvertible {
  var id: String
  var appClass: String

  var description: String { "\(appClass) (\(id))" }
}

/// A part of a shield's bubble a person can click.
enum ShieldPart: String, Sendable {
  case button
  case body
}

@Suite("GNOME Shell 48's day, its pieces: Alt+Tab, minimized at the limit, the shield clicked, the task answered")
struct GnomeDayTests {
  static let configuration =
    #"{"rules":[{"name":"social","apps":[{"name":"Instagram","class":"Instagram","sites":["instagram.com"]}],"#
    + #""dailyLimitMinutes":4,"warnMinutes":1,"grantMinutes":5,"maxGrantsPerDay":1,"onLimit":"hide"}]}"#

  @Test("The service on GNOME Shell 48's bus: its own server shows the shield; a click on it, the task, a grant")
  func pieces() async throws {
    let started = ContinuousClock.now
    let desk = try await GnomeDesk()
    let sandbox = try Sandbox()
    try sandbox.writeConfig(Self.configuration)
    let monitor = try await BusMonitor(address: desk.bus.address)
    let watcher = try await ServiceWatcher(address: desk.bus.address)
    let serve = try await ServeProcess(
      sandbox: sandbox, address: desk.bus.address, watcher: watcher, environment: desk.serveEnvironment,
      arguments: ["--minute-length", "1000", "--save-interval", "1000", "--log-level", "debug"])
    func usage() async throws -> JSONValue {
      let reply = try await watcher.call(ServiceInterface.usage.name)
      return try JSONValue(parsing: try reply.decode(String.self)).usageRule("social") ?? .null
    }
    do {
      let other = try await desk.launchApp("Other")
      let app = try await desk.launchApp("Instagram")
      // Xwayland runs: an X11 client's window is listed and reached with Alt+Tab.
      let xterm = try BackgroundProcess(
        ["xterm", "-class", "Browserish", "-e", "sleep", "600"],
        environment: desk.browserEnvironment ?? [:])
      defer { xterm.process.signalGroup(SIGTERM) }
      let x11 = try await desk.browserWindow("Browserish")
      try await desk.bringToFront(x11)
      try await desk.bringToFront(other)
      // Alt+Tab to the app and away, four times: counted about as long as it was in front.
      let before = try #require(try await usage()["usedSeconds"]?.integerValue)
      var inFront = Duration.zero
      for round in 0..<4 {
        try await desk.bringToFront(round.isMultiple(of: 2) ? app : x11)
        let since = ContinuousClock.now
        try await Task.sleep(for: .milliseconds(800))
        try await desk.bringToFront(other)
        if round.isMultiple(of: 2) { inFront += ContinuousClock.now - since }
      }
      _ = try await poll("the count to stop") { try await usage()["counting"]?.boolValue == false ? true : nil }
      let counted = try #require(try await usage()["usedSeconds"]?.integerValue) - before
      let seconds = Double(inFront.components.seconds) + Double(inFront.components.attoseconds) / 1e18
      #expect(abs(Double(counted) - seconds) <= 2, "counted \(counted) s, in front \(seconds) s")

      // In front until the limit: the warning and the shield on the shell's own server, the app minimized.
      try await desk.bringToFront(app)
      _ = try await monitor.waitForNotifyCalls(2, timeout: .seconds(60))
      let shield = try await poll("the shield posted", timeout: .seconds(60)) {
        monitor.notifyCalls.first { $0.summary == "Instagram is paused" }
      }
      #expect(shield.sender == serve.uniqueName.description)
      #expect(monitor.notifyCalls.contains { $0.summary.hasPrefix("Instagram: ") })
      _ = try await poll("the app minimized") { try await desk.isHidden(app) ? true : nil }

      // The shield clicked in the notification list: the task in xterm, answered there.
      let dispatches = watcher.dispatched.count
      try await desk.click(.body, summary: "Instagram is paused")
      let record = try await watcher.record(after: dispatches, "the click's dispatch")
      #expect(record.outcome == "terminal", "\(record.serialized)")
      let task = try await poll("the task in the terminal", timeout: .seconds(30)) {
        BrowserSite.answer(to: try await desk.taskScreen())
      }
      try await desk.answerTask(String(task))
      _ = try await poll("the task's answer taken", timeout: .seconds(30)) {
        try await desk.taskScreen().contains("unlocked for today") ? true : nil
      }
      _ = try await poll("the grant") {
        let rule = try await usage()
        return rule["grantsToday"]?.integerValue == 1 && rule["overLimit"]?.boolValue == false ? true : nil
      }
      try await desk.bringBack(app)
      _ = try await poll("the app counted again") { try await usage()["counting"]?.boolValue == true ? true : nil }
      #expect(try await desk.isHidden(app) == false)
      print("GNOME day pieces: counted \(counted) s, in front \(seconds) s, \(ContinuousClock.now - started) in all")
    } catch {
      let log = serve.logLines.suffix(80).joined(separator: "\n")
      let posts = monitor.notifyCalls.map { "\($0.summary) | \($0.body)" }.joined(separator: "\n")
      Issue.record(
        "\(error)\nserve said:\n\(log)\nposts:\n\(posts)\nsignals:\n\(desk.signals.standardOutput.suffix(2000))")
    }
    _ = await serve.terminate()
    await desk.finish()
  }
}
