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
    // The first event is the current focus: the xterm started last.
    let first = try await log.first("the first focus")
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
