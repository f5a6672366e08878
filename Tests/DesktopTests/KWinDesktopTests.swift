import DBus
import Foundation
import Model
import TestSupport
import Testing

@testable import Desktop

/// The KWin backend with a real `kwin_x11` on Xvfb, on a private session bus, with real xterms.
///
/// Each test starts one KWin (it is heavy) and runs its cases on it in turn.
@Suite(
  "KWin (kwin_x11 on Xvfb, a private bus): its script reports focus, hides and closes windows, and is loaded again after a restart"
)
struct KWinDesktopTests {
  /// Xvfb with kwin_x11 on a bus of the test's own, once KWin owns `org.kde.KWin` there.
  static func start() async throws -> (BusDaemon, XSession) {
    let bus = try BusDaemon()
    let session = try await XSession(windowManager: .kwin, sessionBus: bus.address)
    try await KWinReady.wait(on: bus)
    return (bus, session)
  }

  /// What KWin's `/Scripting` introspects is what ``KWinScriptingInterface`` declares.
  static func expectTheDeclaredScriptingInterface(on bus: BusDaemon) async throws {
    let checker = try Connection(.address(bus.address))
    defer { checker.close() }
    let differences = try await IntrospectedContract.differences(
      KWinScriptingInterface.contract, destination: KWinScriptingInterface.busName, path: KWinScriptingInterface.path,
      on: checker)
    #expect(differences == [])
  }

  static func isFocus(of windowClass: String, pid: Int32) -> @Sendable (DesktopEvent) -> Bool {
    { event in
      guard case .focus(let focused?) = event else { return false }
      return focused.app.windowClass?.lowercased() == windowClass.lowercased() && focused.app.pid == pid
    }
  }

  static func isClass(_ name: String) -> @Sendable (AppIdentity) -> Bool {
    { $0.windowClass?.lowercased() == name.lowercased() }
  }

  @Test("Focus of each xterm, a fake Activated refused, hide → Iconic, close → gone, vanished windows")
  func focusHideClose() async throws {
    let (bus, session) = try await Self.start()
    try await Self.expectTheDeclaredScriptingInterface(on: bus)
    let alpha = try await session.launchXterm(windowClass: "Alpha")
    let beta = try await session.launchXterm(windowClass: "Beta")
    let desktop = try KWinDesktop(busAddress: bus.address, runtimeFolder: session.home.path)
    #expect(desktop.kind == .kwin)
    #expect(desktop.countingSource == .focus)
    let log = EventLog<DesktopEvent>()
    let task = log.collect(desktop.events(idleAfter: .seconds(600)))
    defer { task.cancel() }

    try await session.xdotool(["windowactivate", alpha.hexWindow])
    let first = try await log.first(
      "focus on Alpha", timeout: .seconds(20), where: Self.isFocus(of: "Alpha", pid: alpha.pid))
    if case .focus(let focused?) = first {
      #expect(focused.app.instance == "xterm")
      #expect(focused.app.appID == nil || focused.app.appID?.isEmpty == false)
    }
    try await session.xdotool(["windowactivate", beta.hexWindow])
    _ = try await log.first("focus on Beta", where: Self.isFocus(of: "Beta", pid: beta.pid))

    // A third connection claims that Alpha has the focus: refused, and nothing changes.
    let mark = log.count
    let intruder = try Connection(.address(bus.address))
    defer { intruder.close() }
    for _ in 0..<2 {
      let error = await #expect(throws: DBusError.self) {
        _ = try await intruder.call(
          try BusName(desktop.callbackName), try ObjectPath("/org/shieldbridge/KWin"),
          try InterfaceName("org.shieldbridge.KWinScript1"), try MemberName("Activated"), "alpha", "xterm", "",
          alpha.pid, "{00000000-0000-0000-0000-000000000000}", timeout: HangBound.answer)
      }
      #expect(error?.name == DBusError.Name.accessDenied.rawValue)
    }
    // Windows and Done from it are refused too, and a malformed call is answered, not crashed on.
    let windows = await #expect(throws: DBusError.self) {
      _ = try await intruder.call(
        try BusName(desktop.callbackName), try ObjectPath("/org/shieldbridge/KWin"),
        try InterfaceName("org.shieldbridge.KWinScript1"), try MemberName("Windows"), "1", "[",
        timeout: HangBound.answer)
    }
    #expect(windows?.name == DBusError.Name.accessDenied.rawValue)
    let malformed = await #expect(throws: DBusError.self) {
      _ = try await intruder.call(
        try BusName(desktop.callbackName), try ObjectPath("/org/shieldbridge/KWin"),
        try InterfaceName("org.shieldbridge.KWinScript1"), try MemberName("Activated"), Int32(7),
        timeout: HangBound.answer)
    }
    #expect(malformed != nil)
    let notice = try await log.first("a notice of the refused call", after: mark) {
      if case .notice(let text) = $0 { text.contains(intruder.uniqueName.rawValue) } else { false }
    }
    _ = notice
    let notices = log.events.dropFirst(mark).filter { if case .notice = $0 { true } else { false } }
    #expect(notices.count == 1)
    #expect(!log.events.dropFirst(mark).contains(where: Self.isFocus(of: "Alpha", pid: alpha.pid)))

    // hide: Alpha's window is minimized (WM_STATE Iconic, _NET_WM_STATE_HIDDEN); Beta's is left alone.
    #expect(try await desktop.hide(where: Self.isClass("Alpha")) == 1)
    _ = try await poll("Alpha iconified") { try await session.windowState(alpha.window) == "Iconic" ? true : nil }
    #expect(try await session.xprop(["-id", alpha.hexWindow, "_NET_WM_STATE"]).contains("_NET_WM_STATE_HIDDEN"))
    #expect(try await session.windowState(beta.window) == "Normal")
    // Already hidden: nothing more to hide. Nothing matches: nothing happens.
    #expect(try await desktop.hide(where: Self.isClass("Alpha")) == 0)
    #expect(try await desktop.hide(where: Self.isClass("Nobody")) == 0)

    // Activated again: KWin reports it, and it can be hidden again.
    let again = log.count
    try await session.xdotool(["windowactivate", alpha.hexWindow])
    _ = try await log.first("focus on Alpha again", after: again, where: Self.isFocus(of: "Alpha", pid: alpha.pid))
    #expect(try await desktop.hide(where: Self.isClass("Alpha")) == 1)
    _ = try await poll("Alpha iconified again") { try await session.windowState(alpha.window) == "Iconic" ? true : nil }

    // Someone unloads the focus script: the next hide finds it gone and loads it again.
    let plugins = try await intruder.call(
      KWinScriptingInterface.unloadScript, destination: KWinScriptingInterface.busName,
      path: KWinScriptingInterface.path, KWinDesktop.pluginPrefix(for: desktop.callbackName) + "-focus-1",
      timeout: HangBound.answer)
    #expect(plugins)
    let unloaded = log.count
    #expect(try await desktop.hide(where: Self.isClass("Nobody")) == 0)
    _ = try await log.first("the notice that the script was loaded again", after: unloaded) {
      if case .notice(let text) = $0 { text.contains("had been unloaded; it was loaded again") } else { false }
    }
    // Alpha (minimized) activated: the reloaded script reports it.
    try await session.xdotool(["windowactivate", alpha.hexWindow])
    _ = try await log.first(
      "focus on Alpha after the reload", after: unloaded, where: Self.isFocus(of: "Alpha", pid: alpha.pid))

    // close: Beta is asked to close (xterm exits on WM_DELETE_WINDOW) and its pid is returned.
    let pids = try await desktop.close(where: Self.isClass("Beta"))
    #expect(pids == [beta.pid])
    #expect(await beta.process.finish(timeout: .seconds(10)).termination != nil)

    // A window whose process is gone: nothing to hide, no crash; the backend keeps working.
    alpha.process.process.signalGroup(SIGKILL)
    _ = await alpha.process.finish(timeout: .seconds(10))
    #expect(try await desktop.hide(where: Self.isClass("Alpha")) == 0)
    let gamma = try await session.launchXterm(windowClass: "Gamma")
    try await session.xdotool(["windowactivate", gamma.hexWindow])
    _ = try await log.first("focus on Gamma", where: Self.isFocus(of: "Gamma", pid: gamma.pid))

    // "auto" picks KWin here (before the generic X11 backend), and forcing it works too.
    for choice in [DesktopChoice.auto, .kwin] {
      let opened = try #require(try choice.open(environment: session.environment) { _ in true })
      #expect(opened.kind == .kwin)
      #expect(opened.limitations.contains { $0.contains("X display") })
      opened.stop()
    }
    // The script's file lives in a private folder of the backend's, removed when it stops.
    let folders = try FileManager.default.contentsOfDirectory(atPath: session.home.path).filter {
      $0.hasPrefix("shieldbridge-kwin-")
    }
    #expect(folders.count == 1)
    if let folder = folders.first {
      let attributes = try FileManager.default.attributesOfItem(atPath: session.home.file(folder))
      #expect((attributes[.posixPermissions] as? Int) == 0o700)
      let script = session.home.file(folder) + "/focus.js"
      let file = try FileManager.default.attributesOfItem(atPath: script)
      #expect((file[.posixPermissions] as? Int) == 0o600)
      #expect(!(try String(contentsOfFile: script, encoding: .utf8)).contains(".caption"))
    }
    desktop.stop()
    #expect(!FileManager.default.fileExists(atPath: session.home.file(folders.first ?? "none")))
  }

  @Test("KWin killed and started again: the script is loaded again and focus is seen; KWin gone for good: lost")
  func restart() async throws {
    let (bus, session) = try await Self.start()
    let alpha = try await session.launchXterm(windowClass: "Alpha")
    let beta = try await session.launchXterm(windowClass: "Beta")
    let desktop = try KWinDesktop(busAddress: bus.address, runtimeFolder: session.home.path)
    let log = EventLog<DesktopEvent>()
    let task = log.collect(desktop.events(idleAfter: .seconds(600)))
    defer { task.cancel() }
    try await session.xdotool(["windowactivate", alpha.hexWindow])
    _ = try await log.first("focus on Alpha", timeout: .seconds(20), where: Self.isFocus(of: "Alpha", pid: alpha.pid))

    await session.killWindowManager()
    _ = try await log.first("no focus while KWin is away") { if case .focus(nil) = $0 { true } else { false } }
    _ = try await log.first("the notice that KWin left") {
      if case .notice(let text) = $0 { text.contains("waiting up to") } else { false }
    }
    #expect(desktop.attention?.contains("KWin left the session bus") == true)
    let mark = log.count
    try session.startKWin()
    _ = try await log.first("the notice that the script was loaded again", after: mark, timeout: .seconds(30)) {
      if case .notice(let text) = $0 { text.contains("loaded again") } else { false }
    }
    try await KWinReady.wait(on: bus)
    #expect(desktop.attention == nil)
    try await session.waitUntilManaged(beta.window, timeout: .seconds(30))
    try await session.xdotool(["windowactivate", beta.hexWindow])
    _ = try await log.first(
      "focus on Beta under the new KWin", after: mark, timeout: .seconds(20),
      where: Self.isFocus(of: "Beta", pid: beta.pid))
    #expect(try await desktop.hide(where: Self.isClass("Beta")) == 1)
    _ = try await poll("Beta iconified") { try await session.windowState(beta.window) == "Iconic" ? true : nil }
    #expect(!log.events.contains { if case .lost = $0 { true } else { false } })

    await session.killWindowManager()
    let lost = try await log.first("lost once KWin stays away", timeout: .seconds(30)) {
      if case .lost = $0 { true } else { false }
    }
    if case .lost(let reason) = lost { #expect(reason.contains("did not come back")) }
  }

  @Test("Forced but absent: a clear error; auto without KWin on the bus does not pick it")
  func forcedWithoutKWin() async throws {
    let bus = try BusDaemon()
    let environment = ["DBUS_SESSION_BUS_ADDRESS": bus.address, "DISPLAY": "", "WAYLAND_DISPLAY": ""]
    let error = #expect(throws: (any Error).self) {
      _ = try DesktopChoice.kwin.open(environment: environment) { _ in true }
    }
    #expect("\(error.map { "\($0)" } ?? "")".contains("org.kde.KWin has no owner on the session bus"))
    let none = #expect(throws: (any Error).self) {
      _ = try DesktopChoice.kwin.open(environment: ["DBUS_SESSION_BUS_ADDRESS": "", "XDG_RUNTIME_DIR": ""]) { _ in true
      }
    }
    #expect("\(none.map { "\($0)" } ?? "")".contains("names no session bus"))
    let auto = try DesktopChoice.auto.open(environment: environment) { _ in true }
    #expect(auto?.kind == .processes)
    auto?.stop()
    #expect(try DesktopChoice(parsing: "kwin") == .kwin)
  }
}
