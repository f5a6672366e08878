import Desktop
import Foundation
import Model
import TestSupport
import Testing

/// The X11 backend on real X servers (Xvfb) under real window managers (openbox, i3), with real xterms.
@Suite struct X11DesktopTests {
  /// A backend watching a session, with everything it reported collected.
  struct Watched {
    let desktop: X11Desktop
    let log: EventLog<DesktopEvent>
    let task: Task<Void, Never>
  }

  func watch(_ session: XSession, idleAfter: Duration = .seconds(600)) throws -> Watched {
    let desktop = try X11Desktop.connect(display: session.display)
    let log = EventLog<DesktopEvent>()
    let task = log.collect(desktop.events(idleAfter: idleAfter))
    return Watched(desktop: desktop, log: log, task: task)
  }

  static func focus(on window: UInt64) -> @Sendable (DesktopEvent) -> Bool {
    { event in
      if case .focus(let focused?) = event { focused.window.rawValue == window } else { false }
    }
  }

  static func focused(_ event: DesktopEvent) -> FocusedWindow? {
    if case .focus(let focused?) = event { focused } else { nil }
  }

  @Test func refusesADisplayWithoutAWindowManager() async throws {
    let session = try await XSession(windowManager: .none)
    let error = #expect(throws: (any Error).self) { try X11Desktop.connect(display: session.display) }
    #expect("\(error.map { "\($0)" } ?? "")".contains("no EWMH window manager"))
    let unset = #expect(throws: (any Error).self) { try X11Desktop.connect(display: nil) }
    #expect("\(unset.map { "\($0)" } ?? "")".contains("DISPLAY is not set"))
  }

  @Test func refusesADisplayWithoutAServer() async throws {
    // A number no server has: a server's freed number could be taken at once by one
    // that another test (or the demo, in its own process) starts with -displayfd,
    // which takes the lowest free number; no run has 500 servers at once.
    let number = try #require(
      (500..<600).first { !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\($0)") })
    let display = ":\(number)"
    let error = #expect(throws: (any Error).self) { try X11Desktop.connect(display: display) }
    #expect("\(error.map { "\($0)" } ?? "")".contains("could not connect to the X display \(display)"))
  }

  @Test func reportsTheFocusedXtermUnderOpenbox() async throws {
    let session = try await XSession(windowManager: .openbox)
    let instagram = try await session.launchXterm(windowClass: "Instagram")
    let other = try await session.launchXterm(windowClass: "Other")
    let watched = try watch(session)
    #expect(watched.desktop.kind == .x11)
    #expect(watched.desktop.countingSource == .focus)
    #expect(watched.desktop.i3SocketPath() == nil)
    try await session.xdotool(["windowactivate", String(other.window)])
    _ = try await watched.log.first("focus on the other xterm", where: Self.focus(on: other.window))
    try await session.xdotool(["windowactivate", String(instagram.window)])
    let event = try await watched.log.first("focus on Instagram", where: Self.focus(on: instagram.window))
    let focused = try #require(Self.focused(event))
    #expect(focused.app.windowClass == "Instagram")
    #expect(focused.app.instance == "xterm")
    #expect(focused.app.pid == instagram.pid)
    #expect(watched.desktop.identity(of: WindowID(other.window))?.windowClass == "Other")
    watched.desktop.stop()
    await watched.task.value
  }

  @Test func reportsTheFocusedXtermUnderI3() async throws {
    let session = try await XSession(windowManager: .i3)
    let instagram = try await session.launchXterm(windowClass: "Instagram")
    let other = try await session.launchXterm(windowClass: "Other")
    let watched = try watch(session)
    #expect(watched.desktop.i3SocketPath() == session.i3Socket)
    // i3 focuses the newest window: the first event is the current state, the other xterm.
    _ = try await watched.log.first("focus on the other xterm", where: Self.focus(on: other.window))
    try await session.i3msg(["[class=\"Instagram\"] focus"])
    let event = try await watched.log.first("focus on Instagram", where: Self.focus(on: instagram.window))
    let focused = try #require(Self.focused(event))
    #expect(focused.app == AppIdentity(instance: "xterm", windowClass: "Instagram", pid: instagram.pid))
    // An empty workspace: i3 sets _NET_ACTIVE_WINDOW to None.
    let before = watched.log.count
    try await session.i3msg(["workspace 7"])
    _ = try await watched.log.first("no focus", after: before) { $0 == .focus(nil) }
    watched.desktop.stop()
    await watched.task.value
  }

  @Test func reportsWindowsWithoutOrWithHostileClassesWithWhatIsKnown() async throws {
    let session = try await XSession(windowManager: .openbox)
    let raw = try RawXClient(display: session.display)
    let bare = raw.createWindow(wmClass: nil)
    var hostile = Array(repeating: UInt8(ascii: "A"), count: 100_000)
    hostile.replaceSubrange(10..<15, with: Array("\u{1b}[31m".utf8))
    hostile[20] = 0x0a
    hostile[30] = 0xff
    let noisy = raw.createWindow(wmClass: hostile)
    try await session.waitUntilManaged(bare)
    try await session.waitUntilManaged(noisy)
    let watched = try watch(session)
    let ownPid = ProcessInfo.processInfo.processIdentifier

    try await session.xdotool(["windowactivate", String(bare)])
    let bareEvent = try await watched.log.first("focus on the bare window", where: Self.focus(on: bare))
    let bareApp = try #require(Self.focused(bareEvent)).app
    #expect(bareApp == AppIdentity(pid: ownPid))

    try await session.xdotool(["windowactivate", String(noisy)])
    let noisyEvent = try await watched.log.first("focus on the noisy window", where: Self.focus(on: noisy))
    let noisyApp = try #require(Self.focused(noisyEvent)).app
    let instance = try #require(noisyApp.instance)
    #expect(noisyApp.windowClass == nil)
    #expect(noisyApp.pid == ownPid)
    #expect(instance.utf8.count <= 2048)
    #expect(instance.count < 1024)
    #expect(!instance.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7f })
    #expect(instance.hasPrefix("AAAAAAAAAA[31mAAAAA"))
    withExtendedLifetime(raw) {}
    watched.desktop.stop()
    await watched.task.value
  }

  /// Issue 22, point 7: an instance of 1,024 bytes or more pushed the class out of the one
  /// 1 KiB read; the class has its own bound now.
  @Test func readsTheClassBehindAnInstanceOverItsBound() async throws {
    let session = try await XSession(windowManager: .openbox)
    let raw = try RawXClient(display: session.display)
    let long = Array(repeating: UInt8(ascii: "a"), count: 5000)
    let window = raw.createWindow(wmClass: long + [0] + Array("Instagram".utf8) + [0])
    let bare = raw.createWindow(wmClass: Array(repeating: UInt8(ascii: "b"), count: 1024) + [0] + Array("Exact".utf8))
    try await session.waitUntilManaged(window)
    try await session.waitUntilManaged(bare)
    let watched = try watch(session)
    try await session.xdotool(["windowactivate", String(window)])
    let event = try await watched.log.first("focus on the long-instance window", where: Self.focus(on: window))
    let app = try #require(Self.focused(event)).app
    #expect(app.windowClass == "Instagram")
    #expect(app.instance == String(repeating: "a", count: 1024))
    try await session.xdotool(["windowactivate", String(bare)])
    let exact = try await watched.log.first("focus on the window at the bound", where: Self.focus(on: bare))
    #expect(try #require(Self.focused(exact)).app.windowClass == "Exact")
    #expect(watched.desktop.identity(of: WindowID(window))?.windowClass == "Instagram")
    withExtendedLifetime(raw) {}
    watched.desktop.stop()
    await watched.task.value
  }

  /// Issue 22, point 7: a class changed on the focused window (`xdotool set_window --class`)
  /// is reported at once, not at the next focus change.
  @Test func followsAClassChangeOnTheFocusedWindow() async throws {
    let session = try await XSession(windowManager: .openbox)
    let instagram = try await session.launchXterm(windowClass: "Instagram")
    let other = try await session.launchXterm(windowClass: "Other")
    let watched = try watch(session)
    try await session.xdotool(["windowactivate", String(instagram.window)])
    _ = try await watched.log.first("focus on Instagram", where: Self.focus(on: instagram.window))

    let mark = watched.log.count
    try await session.xdotool(["set_window", "--class", "Disguised", String(instagram.window)])
    let renamed = try await watched.log.first("the new class of the focused window", after: mark) { event in
      Self.focused(event).map { $0.window.rawValue == instagram.window && $0.app.windowClass == "Disguised" } ?? false
    }
    #expect(try #require(Self.focused(renamed)).app.instance == "xterm")

    // The focus moves on: the new window is followed, and a change there is seen too.
    try await session.xdotool(["windowactivate", String(other.window)])
    _ = try await watched.log.first("focus on the other xterm", where: Self.focus(on: other.window))
    let again = watched.log.count
    try await session.xdotool(["set_window", "--class", "Instagram", String(other.window)])
    _ = try await watched.log.first("the other xterm's new class", after: again) { event in
      Self.focused(event).map { $0.window.rawValue == other.window && $0.app.windowClass == "Instagram" } ?? false
    }
    watched.desktop.stop()
    await watched.task.value
  }

  @Test func survivesAWindowDestroyedRightAfterItWasActivated() async throws {
    let session = try await XSession(windowManager: .openbox)
    let xterm = try await session.launchXterm(windowClass: "Instagram")
    let raw = try RawXClient(display: session.display)
    let watched = try watch(session)
    for round in 0..<5 {
      let window = raw.createWindow(wmClass: Array("doomed\u{0}Doomed\u{0}".utf8))
      try await session.waitUntilManaged(window)
      // The activation and the destruction race the backend's reading of the window.
      try await session.xdotool(["windowactivate", String(window)])
      raw.destroy(window)
      try await session.xdotool(["windowactivate", String(xterm.window)])
      _ = try await watched.log.first("focus back on the xterm (round \(round))", where: Self.focus(on: xterm.window))
    }
    let lost = watched.log.events.contains { if case .lost = $0 { true } else { false } }
    #expect(!lost)
    withExtendedLifetime(raw) {}
    watched.desktop.stop()
    await watched.task.value
  }

  @Test func hidesTheMatchingWindowsUnderOpenbox() async throws {
    let session = try await XSession(windowManager: .openbox)
    let instagram = try await session.launchXterm(windowClass: "Instagram")
    let other = try await session.launchXterm(windowClass: "Other")
    let desktop = try X11Desktop.connect(display: session.display)
    let hidden = try await desktop.hide { $0.windowClass == "Instagram" }
    #expect(hidden == 1)
    _ = try await poll("Instagram iconified") {
      try await session.windowState(instagram.window) == "Iconic" ? true : nil
    }
    #expect(try await session.windowState(other.window) == "Normal")
  }

  @Test func closesTheMatchingXterm() async throws {
    let session = try await XSession(windowManager: .openbox)
    let instagram = try await session.launchXterm(windowClass: "Instagram")
    let other = try await session.launchXterm(windowClass: "Other")
    let desktop = try X11Desktop.connect(display: session.display)
    let pids = try await desktop.close { $0.windowClass == "Instagram" }
    #expect(pids == [instagram.pid])
    // xterm takes WM_DELETE_WINDOW and exits.
    let finished = await instagram.process.finish(timeout: .seconds(10))
    #expect(finished.termination != nil)
    #expect(other.process.process.exitStatus == nil)
  }

  @Test func asksTheManagerToCloseAWindowWithoutWMDeleteWindow() async throws {
    let session = try await XSession(windowManager: .openbox)
    let raw = try RawXClient(display: session.display)
    let window = raw.createWindow(wmClass: Array("raw\u{0}Raw\u{0}".utf8))
    try await session.waitUntilManaged(window)
    let desktop = try X11Desktop.connect(display: session.display)
    let pids = try await desktop.close { $0.windowClass == "Raw" }
    #expect(pids == [ProcessInfo.processInfo.processIdentifier])
    // openbox answers _NET_CLOSE_WINDOW for a client without WM_DELETE_WINDOW by disconnecting it.
    _ = try await poll("the raw client to be disconnected") { raw.isDisconnected ? true : nil }
  }

  @Test func reportsIdleAfterTheIdleTimeAndInputEndingIt() async throws {
    let session = try await XSession(windowManager: .openbox)
    let watched = try watch(session, idleAfter: .seconds(1))
    _ = try await watched.log.first("idle", timeout: .seconds(15)) { $0 == .idle(true) }
    let before = watched.log.count
    try await session.xdotool(["mousemove", "100", "100"])
    try await session.xdotool(["mousemove", "200", "150"])
    _ = try await watched.log.first("active again", after: before) { $0 == .idle(false) }
    // And idle again once the input stops.
    _ = try await watched.log.first("idle again", after: before, timeout: .seconds(15)) { $0 == .idle(true) }
    watched.desktop.stop()
    await watched.task.value
  }

  @Test func reportsTheScreenSaver() async throws {
    let session = try await XSession(windowManager: .openbox)
    let watched = try watch(session)
    _ = try await watched.log.first("the screen on") { $0 == .screen(.on) }
    try await session.xset(["s", "activate"])
    _ = try await watched.log.first("the saver") { $0 == .screen(.saver) }
    let before = watched.log.count
    try await session.xset(["s", "reset"])
    _ = try await watched.log.first("the screen on again", after: before) { $0 == .screen(.on) }
    watched.desktop.stop()
    await watched.task.value
  }

  @Test func reportsTheServerGoingAwayAndEnds() async throws {
    let session = try await XSession(windowManager: .openbox)
    let watched = try watch(session)
    _ = try await watched.log.first("the first state") { if case .focus = $0 { true } else { false } }
    await session.stopServer()
    let lost = try await watched.log.first("lost") { if case .lost = $0 { true } else { false } }
    #expect("\(lost)".contains("went away"))
    // The stream ends after it: the collecting task finishes.
    _ = try await poll("the stream to end") { watched.log.events.last == lost ? true : nil }
    await watched.task.value
    await #expect(throws: (any Error).self) { _ = try await watched.desktop.hide { _ in true } }
  }

  @Test func reportsTheWindowManagerGoingAway() async throws {
    let session = try await XSession(windowManager: .openbox)
    let watched = try watch(session)
    _ = try await watched.log.first("the first state") { if case .focus = $0 { true } else { false } }
    await session.killWindowManager()
    let lost = try await watched.log.first("lost", timeout: .seconds(20)) {
      if case .lost = $0 { true } else { false }
    }
    #expect("\(lost)".contains("window manager"))
    await watched.task.value
  }

  @Test func followsI3RestartingInPlace() async throws {
    let session = try await XSession(windowManager: .i3)
    let instagram = try await session.launchXterm(windowClass: "Instagram")
    let other = try await session.launchXterm(windowClass: "Other")
    let watched = try watch(session)
    _ = try await watched.log.first("focus on the other xterm", where: Self.focus(on: other.window))
    // i3 execs itself: its check window goes, and the new one comes within the grace period.
    _ = try await session.run(["i3-msg", "-s", session.i3Socket ?? "", "restart"])
    _ = try await poll("i3 to answer again", every: .milliseconds(50)) {
      try await session.run(["i3-msg", "-s", session.i3Socket ?? "", "-t", "get_version"]).status == 0 ? true : nil
    }
    let before = watched.log.count
    try await session.i3msg(["[class=\"Instagram\"] focus"])
    _ = try await watched.log.first("focus on Instagram", after: before, where: Self.focus(on: instagram.window))
    try await session.i3msg(["[class=\"Other\"] focus"])
    _ = try await watched.log.first("focus on the other xterm", after: before, where: Self.focus(on: other.window))
    watched.desktop.stop()
    await watched.task.value
    #expect(!watched.log.events.contains { if case .lost = $0 { true } else { false } })
  }

  @Test func stopEndsTheStream() async throws {
    let session = try await XSession(windowManager: .i3)
    let watched = try watch(session)
    _ = try await watched.log.first("the first state") { if case .focus = $0 { true } else { false } }
    watched.desktop.stop()
    await watched.task.value
    watched.desktop.stop()
  }
}
