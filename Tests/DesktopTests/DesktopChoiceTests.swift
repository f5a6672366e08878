import DBus
import Desktop
import TestSupport
import Testing

@Suite struct DesktopChoiceTests {
  @Test func everyBackendIsAChoiceOfItsName() {
    #expect(DesktopChoice.allCases.compactMap(\.kind) == DesktopKind.allCases)
    #expect(DesktopChoice.auto.kind == nil && DesktopChoice.off.kind == nil)
  }

  @Test func everyDocumentedValueParses() throws {
    for text in ["auto", "off", "x11", "i3", "sway", "processes", "gnome"] {
      #expect(try DesktopChoice(parsing: text).rawValue == text)
    }
  }

  @Test func anotherValueIsAnErrorThatListsTheValues() {
    do {
      // "gnome" was the example until issue 15 made it a value.
      _ = try DesktopChoice(parsing: "unity")
      Issue.record("unity parsed")
    } catch {
      #expect(
        error.message
          == #""desktop" is "unity", which is none of "auto", "off", "x11", "i3", "sway", "kwin", "processes", "gnome""#
      )
    }
  }

  @Test func offOpensNothingAndAutoWithoutADesktopFallsBackToProcesses() throws {
    #expect(try DesktopChoice.off.open(environment: [:], covers: { _ in true }) == nil)
    let backend = try DesktopChoice.auto.open(environment: [:], covers: { _ in true })
    #expect(backend?.kind == .processes)
    let dead = try DesktopChoice.auto.open(
      environment: ["SWAYSOCK": "/nonexistent/sway.sock", "I3SOCK": "/nonexistent/i3.sock"], covers: { _ in true })
    #expect(dead?.kind == .processes)
  }

  @Test func autoUnderOpenboxIsX11WithIdentitiesCompletedFromProc() async throws {
    let session = try await XSession(windowManager: .openbox)
    let instagram = try await session.launchXterm(windowClass: "Instagram")
    let desktop = try #require(try DesktopChoice.auto.open(environment: session.environment, covers: { _ in true }))
    #expect(desktop.kind == .x11)
    let log = EventLog<DesktopEvent>()
    let task = log.collect(desktop.events(idleAfter: .seconds(600)))
    try await session.xdotool(["windowactivate", String(instagram.window)])
    let focused = try await log.first("the Instagram xterm's focus") {
      if case .focus(let window?) = $0 { window.app.windowClass == "Instagram" } else { false }
    }
    guard case .focus(let window?) = focused else { return }
    #expect(window.app.pid == instagram.pid)
    #expect(window.app.executable == "xterm")
    #expect(window.app.commandLineName == "xterm")
    // hide's predicate sees the /proc names too.
    #expect(try await desktop.hide { $0.executable == "xterm" && $0.windowClass == "Instagram" } == 1)
    desktop.stop()
    await task.value
  }

  @Test func aForcedI3UnderOpenboxIsAnError() async throws {
    let session = try await XSession(windowManager: .openbox)
    var environment = session.environment
    environment["I3SOCK"] = ""
    #expect(throws: Desktop.DesktopError.self) {
      try DesktopChoice.i3.open(environment: environment, covers: { _ in true })
    }
    #expect(try DesktopChoice.x11.open(environment: environment, covers: { _ in true })?.kind == .x11)
  }

  @Test func aForcedBackendWithoutItsSocketIsAnError() {
    #expect(throws: Desktop.DesktopError.self) { try DesktopChoice.sway.open(environment: [:], covers: { _ in true }) }
    #expect(throws: Desktop.DesktopError.self) { try DesktopChoice.i3.open(environment: [:], covers: { _ in true }) }
    #expect(throws: Desktop.DesktopError.self) {
      try DesktopChoice.i3.open(environment: ["I3SOCK": "/nonexistent/i3.sock"], covers: { _ in true })
    }
    #expect(throws: Desktop.DesktopError.self) { try DesktopChoice.x11.open(environment: [:], covers: { _ in true }) }
  }
}

/// `"auto"` on a bus where `org.gnome.Shell` has an owner, beside an X display with an EWMH manager.
@Suite struct DesktopChoiceGnomeTests {
  @Test func autoPicksGnomeShellBeforeX11WhenItOwnsItsName() async throws {
    let session = try await XSession(windowManager: .openbox)
    let bus = try BusDaemon()
    var environment = session.environment
    environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
    environment["SWAYSOCK"] = ""
    environment["I3SOCK"] = ""
    #expect(try DesktopChoice.auto.open(environment: environment, covers: { _ in true })?.kind == .x11)

    let shell = try Connection(.address(bus.address))
    #expect(try await shell.requestName(BusName("org.gnome.Shell")) == .primaryOwner)
    let desktop = try #require(try DesktopChoice.auto.open(environment: environment, covers: { _ in true }))
    #expect(desktop.kind == .gnome)
    // This owner exports no extension: the backend says it waits, and sees no focus.
    let log = EventLog<DesktopEvent>()
    let task = log.collect(desktop.events(idleAfter: .seconds(300)))
    _ = try await log.first("no focus") { $0 == .focus(nil) }
    #expect(desktop.attention?.contains("GNOME Shell is starting") == true)
    desktop.stop()
    await task.value
  }
}
