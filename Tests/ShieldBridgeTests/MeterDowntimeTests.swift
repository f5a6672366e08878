import Foundation
import JSON
import Model
import Notifications
import Spawn
import TestSupport
import Testing

@testable import Config
@testable import ShieldBridge

/// Issue 25, point 5: a downtime's start through the real service (i3 on Xvfb, libfaketime).
@Suite("Downtime through the real service: i3, the clock just before its start")
struct MeterDowntimeTests {
  @Test("At the start the app in front is shielded and hidden with its time far from the limit; the task is refused")
  func start() async throws {
    let session = try await XSession(windowManager: .i3)
    let xterm = try await session.launchXterm(windowClass: "Instagram")
    try await session.i3msg(["[class=\"Instagram\"] focus"])
    let sandbox = try Sandbox()
    try sandbox.writeConfig(
      #"{"desktop":"i3","rules":[{"name":"social","apps":["Instagram"],"dailyLimitMinutes":600,"warnMinutes":0,"#
        + #""downtime":[{"from":"22:00","to":"07:00","days":"tue"}]}]}"#)
    let desk = try await EmbeddedNotifications(capabilities: NotificationServer.Configuration.defaultCapabilities)
    let watcher = try await ServiceWatcher(address: desk.bus.address)
    // Three seconds before 22:00 on Tuesday 2026-12-01; the clock runs on.
    let clock = ["LD_PRELOAD": try libfaketime(), "FAKETIME_DONT_FAKE_MONOTONIC": "1", "TZ": "Europe/Berlin"]
    let mark = desk.activity.count
    let serve = try await ServeProcess(
      sandbox: sandbox, address: desk.bus.address, watcher: watcher,
      environment: clock.merging([
        "FAKETIME": "@2026-12-01 21:59:57", "DISPLAY": session.display, "I3SOCK": session.i3Socket ?? "",
      ]) { $1 }, launcher: throughShell)
    let shield = try await desk.notification(after: mark, "the shield at 22:00") { $0.summary == "Instagram is paused" }
    _ = try await poll("the xterm in the scratchpad") { try await session.isInScratchpad(xterm.window) ? true : nil }
    let reply = try await watcher.call(ServiceInterface.usage.name)
    let usage = try #require(try JSONValue(parsing: try reply.decode(String.self)).usageRule("social"))
    // Far from the 600 minutes: the downtime shielded it, with its limit zero until 07:00.
    #expect((usage["usedSeconds"]?.integerValue ?? 999) < 60, "\(usage)")
    #expect(usage["limitSeconds"]?.integerValue == 0, "\(usage)")
    #expect(usage["overLimit"]?.boolValue == true, "\(usage)")
    // The shield offers no task: it says until when, and the way out stays.
    #expect(shield.body == "Instagram is paused until 07:00: no task unlocks it before then.", "\(shield.body)")
    #expect(shield.actions.map(\.key) == ["way-out"], "\(shield.actions)")
    // The way out still works: counted on the day, the shield closed.
    _ = try desk.server.click(shield.id, action: "way-out")
    _ = try await poll("the way out counted") {
      (try? sandbox.store.load().value.backedOut(for: "social", on: LocalDay("2026-12-01")!)) == 1 ? true : nil
    }

    // A task asked in downtime: refused, with the time it ends.
    // Through the shell, as serve: libfaketime moves `environ` in a process that starts with it.
    let environment = ShieldBridgeTool.mergedEnvironment(
      sandbox.serviceEnvironment(address: desk.bus.address).merging(clock) { $1 }
        .merging(["FAKETIME": "@2026-12-01 22:00:30"]) { $1 })
    let puzzle = try await onOwnThread {
      try Subprocess.run(
        throughShell + [ShieldBridgeTool.path, "puzzle", "--app", "Instagram", "--seed", "1"],
        input: Array("1\n".utf8), environment: environment, timeout: .seconds(30))
    }
    #expect(puzzle.status == 75, "\(puzzle.error) \(puzzle.output)")
    #expect(puzzle.output == "Instagram is paused until 07:00: no task unlocks it before then.\n")
    #expect(try sandbox.store.load().value.grants(for: "social", on: LocalDay("2026-12-01")!) == 0)
    _ = await serve.terminate()
  }
}
