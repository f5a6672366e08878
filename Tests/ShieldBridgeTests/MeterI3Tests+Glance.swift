import Foundation
import JSON
import Notifications
import TestSupport
import Testing

@testable import ShieldBridge

/// Issue 36: what a panel reads from the service, through the real service on i3.
extension MeterI3Tests {
  /// i3 on Xvfb, a sandbox whose one rule covers Instagram for `minutes` a day, and a bus with a notification server.
  private struct GlanceDesk {
    let session: XSession
    let sandbox: Sandbox
    let desk: EmbeddedNotifications
    let watcher: ServiceWatcher

    init(minutes: Int) async throws {
      session = try await XSession(windowManager: .i3)
      sandbox = try Sandbox()
      try sandbox.writeConfig(
        #"{"desktop":"i3","rules":[{"name":"social","apps":["Instagram"],"dailyLimitMinutes":"#
          + "\(minutes)" + #","warnMinutes":0}]}"#)
      desk = try await EmbeddedNotifications(capabilities: NotificationServer.Configuration.defaultCapabilities)
      watcher = try await ServiceWatcher(address: desk.bus.address)
    }

    /// The service on it, a minute lasting 1 s.
    func serve() async throws -> ServeProcess {
      try await ServeProcess(
        sandbox: sandbox, address: desk.bus.address, watcher: watcher,
        environment: ["DISPLAY": session.display, "I3SOCK": session.i3Socket ?? ""],
        arguments: ["--minute-length", "1000"])
    }
  }

  @Test("Glance(): the rule in front, a minute less each minute, nothing once away, used up at the limit")
  func glance() async throws {
    // A minute lasts 1 s here: 4 minutes left are 4 s of Instagram in front.
    let setUp = try await GlanceDesk(minutes: 4)
    let (session, watcher) = (setUp.session, setUp.watcher)
    let serve = try await setUp.serve()
    func glance() async throws -> JSONValue {
      try JSONValue(parsing: try await watcher.call(ServiceInterface.glance.name).decode(String.self))
    }
    // Nothing covered in front yet: nothing to show.
    #expect(try await glance() == .object([]))
    _ = try await session.launchXterm(windowClass: "XTerm")
    _ = try await session.launchXterm(windowClass: "Instagram")
    try await session.i3msg(["[class=\"Instagram\"] focus"])
    let first = try await watcher.glances.first("a glance of Instagram") { $0["app"]?.stringValue == "Instagram" }
    #expect(first["rule"]?.stringValue == "social" && first["state"]?.stringValue == "left", "\(first)")
    let minutes = try #require(first["minutesLeft"]?.integerValue)
    #expect((1...4).contains(minutes), "\(first)")
    // One minute less, told by a signal of its own.
    let less = try await watcher.glances.first("one minute less") {
      ($0["minutesLeft"]?.integerValue ?? 99) < minutes
    }
    #expect(less["rule"]?.stringValue == "social", "\(less)")
    // Away: nothing to show, and Glance() agrees.
    let away = watcher.glances.count
    try await session.i3msg(["[class=\"XTerm\"] focus"])
    _ = try await watcher.glances.first("nothing in front", after: away) { $0 == .object([]) }
    #expect(try await glance() == .object([]))
    // Back until the limit: used up.
    try await session.i3msg(["[class=\"Instagram\"] focus"])
    let limit = watcher.glances.count
    _ = try await watcher.glances.first("used up", after: limit) { $0["state"]?.stringValue == "usedUp" }
    // Hidden at the limit (the scratchpad): the other window is in front, nothing to show.
    _ = try await poll("nothing in front once Instagram is hidden") {
      try await glance() == .object([]) ? true : nil
    }
    _ = await serve.terminate()
  }

  @Test("status --follow --format waybar: a line for the app in front, one per minute less, an empty text once away")
  func followWaybar() async throws {
    let setUp = try await GlanceDesk(minutes: 30)
    let session = setUp.session
    // Started before the service, as a panel at log-in may be: it shows nothing until the service comes.
    let follow = try BackgroundProcess(
      [ShieldBridgeTool.path, "status", "--follow", "--format", "waybar", "--address", setUp.desk.bus.address],
      environment: setUp.sandbox.environment)
    let empty = try await follow.waitForFirstLine()
    #expect(try JSONValue(parsing: empty)["text"]?.stringValue == "", "\(empty)")
    let serve = try await setUp.serve()
    _ = try await session.launchXterm(windowClass: "XTerm")
    _ = try await session.launchXterm(windowClass: "Instagram")
    try await session.i3msg(["[class=\"Instagram\"] focus"])
    let shown = try await follow.waitForLine(containing: "min left today")
    let line = try JSONValue(parsing: shown)
    #expect(line["class"]?.stringValue == "left", "\(shown)")
    #expect(line["tooltip"]?.stringValue?.hasPrefix("social: Instagram: ") == true, "\(shown)")
    let minutes = try #require(
      line["text"]?.stringValue?.split(separator: " ").dropFirst().first.flatMap { Int($0) }, "\(shown)")
    _ = try await follow.waitForLine(containing: "Instagram: \(minutes - 1) min left today")
    let count = follow.outputLines.count
    try await session.i3msg(["[class=\"XTerm\"] focus"])
    _ = try await poll("an empty text once Instagram is away") {
      follow.outputLines.dropFirst(count).contains { $0.contains(#""text":"""#) } ? true : nil
    }
    _ = await serve.terminate()
    // A panel's command ends when the panel ends it.
    follow.process.signal(SIGTERM)
    _ = await follow.finish()
  }
}
