import Desktop
import Foundation
import TestSupport
import Testing

/// The i3 IPC backend against a real headless sway (as an unprivileged user) with real foot windows.
@Suite struct SwayDesktopTests {
  static func isFocus(ofAppID appID: String) -> @Sendable (DesktopEvent) -> Bool {
    { event in
      if case .focus(let window?) = event { window.app.appID == appID } else { false }
    }
  }

  @Test func focusHideAndCloseAFootWindowUnderSway() async throws {
    let session = try await SwaySession()
    let instagram = try await session.launchFoot(appID: "Instagram")
    _ = try await session.launchFoot(appID: "Other")
    let environment = ["SWAYSOCK": session.socket, "I3SOCK": "", "DISPLAY": ""]
    let desktop = try #require(try DesktopChoice.auto.open(environment: environment, covers: { _ in true }))
    #expect(desktop.kind == .sway)
    #expect(desktop.limitations.joined().contains("idle"))
    let log = EventLog<DesktopEvent>()
    let task = log.collect(desktop.events(idleAfter: .seconds(300)))
    let first = try await log.first("the first focus")
    #expect(Self.isFocus(ofAppID: "Other")(first), "\(first)")

    let mark = log.count
    try await session.swaymsg([#"[app_id="Instagram"] focus"#])
    let focused = try await log.first(
      "the Instagram foot's focus", after: mark, where: Self.isFocus(ofAppID: "Instagram"))
    guard case .focus(let window?) = focused else { return }
    // sway tells the pid; the front adds what /proc knows of it.
    let pid = try #require(window.app.pid)
    #expect(window.app.executable == "foot")
    #expect(window.app.command == "foot")
    #expect(window.app.instance == nil)

    #expect(try await desktop.hide { $0.appID == "Instagram" } == 1)
    #expect(try await session.workspaces(ofAppID: "Instagram") == ["__i3_scratch"])
    #expect(try await desktop.hide { $0.appID == "Instagram" } == 0)

    // The predicate sees the completed identity: the executable matches too.
    let pids = try await desktop.close { $0.appID == "Instagram" && $0.executable == "foot" }
    #expect(pids == [pid])
    let finished = await instagram.finish(timeout: .seconds(10))
    #expect(finished.termination != nil, "foot did not exit after sway's kill")
    _ = try await poll("the Instagram window's end") {
      try await session.workspaces(ofAppID: "Instagram").isEmpty ? true : nil
    }
    desktop.stop()
    await task.value
  }
}
