import Desktop
import Foundation
import TestSupport
import Testing

/// The i3 backend against a real i3 on Xvfb with real xterm windows.
@Suite struct I3DesktopTests {
  /// The containers of `class` in i3's tree and the workspace each is on.
  static func workspaces(ofClass windowClass: String, in session: XSession) async throws -> [String] {
    let text = try await session.i3msg(["-t", "get_tree"])
    let tree = try JSONSerialization.jsonObject(with: Data(text.utf8))
    var found: [String] = []
    func walk(_ node: Any, workspace: String?) {
      guard let node = node as? [String: Any] else { return }
      var workspace = workspace
      if node["type"] as? String == "workspace" { workspace = node["name"] as? String }
      if let properties = node["window_properties"] as? [String: Any], properties["class"] as? String == windowClass {
        found.append(workspace ?? "?")
      }
      for key in ["nodes", "floating_nodes"] {
        for child in node[key] as? [Any] ?? [] { walk(child, workspace: workspace) }
      }
    }
    walk(tree, workspace: nil)
    return found
  }

  static func isFocus(ofClass windowClass: String) -> @Sendable (DesktopEvent) -> Bool {
    { event in
      if case .focus(let window?) = event { window.app.windowClass == windowClass } else { false }
    }
  }

  @Test func focusHideAndCloseAnXtermUnderI3() async throws {
    let session = try await XSession(windowManager: .i3)
    let instagram = try await session.launchXterm(windowClass: "Instagram")
    _ = try await session.launchXterm(windowClass: "Other")
    let desktop = try #require(try DesktopChoice.auto.open(environment: session.environment, covers: { _ in true }))
    #expect(desktop.kind == .i3)
    #expect(desktop.countingSource == .focus)
    let log = EventLog<DesktopEvent>()
    let task = log.collect(desktop.events(idleAfter: .seconds(300)))
    // The first focus is the current one: the xterm started last (the X11 backend adds the screen's state).
    let first = try await log.first("the first focus") { if case .focus = $0 { true } else { false } }
    #expect(first != .focus(nil))
    #expect(Self.isFocus(ofClass: "Other")(first), "\(first)")

    let mark = log.count
    try await session.i3msg([#"[class="Instagram"] focus"#])
    let focused = try await log.first(
      "the Instagram xterm's focus", after: mark, where: Self.isFocus(ofClass: "Instagram"))
    guard case .focus(let window?) = focused else { return }
    #expect(window.app.instance == "xterm")
    #expect(window.app.windowClass == "Instagram")

    // An empty workspace has no window in front.
    let beforeEmpty = log.count
    try await session.i3msg(["workspace", "7"])
    _ = try await log.first("no focus on an empty workspace", after: beforeEmpty) { $0 == .focus(nil) }
    try await session.i3msg(["workspace", "1"])

    #expect(try await desktop.hide { $0.windowClass == "Instagram" } == 1)
    #expect(try await Self.workspaces(ofClass: "Instagram", in: session) == ["__i3_scratch"])
    #expect(try await Self.workspaces(ofClass: "Other", in: session) == ["1"])
    // Already in the scratchpad: nothing more to hide.
    #expect(try await desktop.hide { $0.windowClass == "Instagram" } == 0)

    _ = try await desktop.close { $0.windowClass == "Instagram" }
    let finished = await instagram.process.finish(timeout: .seconds(10))
    #expect(finished.termination != nil, "the xterm did not exit after i3's kill")
    #expect(try await Self.workspaces(ofClass: "Instagram", in: session).isEmpty)

    desktop.stop()
    await task.value
    #expect(!log.events.contains { if case .lost = $0 { true } else { false } })
  }

  @Test func autoFindsI3ThroughTheRootWindowAndTakesPidsAndIdleFromX11() async throws {
    let session = try await XSession(windowManager: .i3)
    let instagram = try await session.launchXterm(windowClass: "Instagram")
    var environment = session.environment
    environment["I3SOCK"] = ""
    let desktop = try #require(try DesktopChoice.auto.open(environment: environment, covers: { _ in true }))
    #expect(desktop.kind == .i3)
    let log = EventLog<DesktopEvent>()
    let task = log.collect(desktop.events(idleAfter: .seconds(1)))
    let focused = try await log.first("the Instagram xterm's focus", where: Self.isFocus(ofClass: "Instagram"))
    guard case .focus(let window?) = focused else { return }
    // i3's tree names the X11 window; the X11 backend finds its pid, /proc its names.
    #expect(window.app.pid == instagram.pid)
    #expect(window.app.executable == "xterm")
    #expect(window.app.command == "xterm")
    // Idle comes from the X server, not from i3.
    _ = try await log.first("idle", timeout: .seconds(15)) { $0 == .idle(true) }
    let before = log.count
    try await session.xdotool(["mousemove", "100", "100"])
    try await session.xdotool(["mousemove", "200", "150"])
    _ = try await log.first("active again", after: before) { $0 == .idle(false) }
    // Only i3 reports the focus: the X11 backend's own focus events are not passed on twice.
    let focusEvents = log.events.filter { if case .focus = $0 { true } else { false } }
    #expect(focusEvents.count == 1, "\(focusEvents)")

    #expect(try await desktop.close { $0.executable == "xterm" && $0.windowClass == "Instagram" } == [instagram.pid])
    let finished = await instagram.process.finish(timeout: .seconds(10))
    #expect(finished.termination != nil, "the xterm did not exit after i3's kill")
    desktop.stop()
    await task.value
  }

  @Test func aRestartOfI3KeepsTheDesktop() async throws {
    let session = try await XSession(windowManager: .i3)
    _ = try await session.launchXterm(windowClass: "Instagram")
    _ = try await session.launchXterm(windowClass: "Other")
    let desktop = try I3Desktop(socketPath: try #require(session.i3Socket))
    let log = EventLog<DesktopEvent>()
    let task = log.collect(desktop.events(idleAfter: .seconds(300)))
    _ = try await log.first("the first focus", where: Self.isFocus(ofClass: "Other"))
    // i3-msg restart returns before i3 has gone; it may also see the socket close under it.
    _ = try? await session.i3msg(["restart"])
    let mark = log.count
    _ = try await poll("i3 back after the restart", timeout: .seconds(15), every: .milliseconds(50)) {
      (try? await session.i3msg([#"[class="Instagram"] focus"#])) != nil ? true : nil
    }
    do {
      _ = try await log.first("the focus after the restart", after: mark, where: Self.isFocus(ofClass: "Instagram"))
    } catch {
      Issue.record("\(error): \(log.events)")
    }
    #expect(!log.events.contains { if case .lost = $0 { true } else { false } })
    desktop.stop()
    await task.value
  }

  @Test func i3KilledLosesTheDesktop() async throws {
    let session = try await XSession(windowManager: .i3)
    _ = try await session.launchXterm(windowClass: "Instagram")
    let socket = try #require(session.i3Socket)
    let desktop = try I3Desktop(socketPath: socket)
    let log = EventLog<DesktopEvent>()
    let task = log.collect(desktop.events(idleAfter: .seconds(300)))
    _ = try await log.first("the first focus")
    await session.killWindowManager()
    let lost = try await log.first("the desktop lost") { if case .lost = $0 { true } else { false } }
    #expect("\(lost)".contains(socket))
    await task.value
    await #expect(throws: Desktop.DesktopError.self) { _ = try await desktop.hide { _ in true } }
  }
}
