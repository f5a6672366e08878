import Foundation
import JSON
import Model
import Notifications
import Store
import TestSupport
import Testing

@testable import Config
@testable import ShieldBridge

/// Issue 25, point 5: limits by weekday through the real service (i3 on Xvfb, libfaketime).
@Suite("Limits by weekday through the real service: Friday's limit, then Saturday's at midnight")
struct MeterWeekdayTests {
  @Test("Friday's 0 minutes shield at once; from Saturday 00:00 the weekend's 30 minutes apply")
  func fridayToSaturday() async throws {
    let session = try await XSession(windowManager: .i3)
    _ = try await session.launchXterm(windowClass: "Instagram")
    try await session.i3msg(["[class=\"Instagram\"] focus"])
    let sandbox = try Sandbox()
    try sandbox.writeConfig(
      #"{"desktop":"i3","rules":[{"name":"social","apps":["Instagram"],"#
        + #""dailyLimitMinutes":{"mon-fri":0,"sat,sun":30},"warnMinutes":0}]}"#)
    let desk = try await EmbeddedNotifications(capabilities: NotificationServer.Configuration.defaultCapabilities)
    let watcher = try await ServiceWatcher(address: desk.bus.address)
    let mark = desk.activity.count
    // Friday 2026-12-04, twenty seconds before midnight in Berlin (room for a slow start); the clock runs on.
    let serve = try await ServeProcess(
      sandbox: sandbox, address: desk.bus.address, watcher: watcher,
      environment: [
        "LD_PRELOAD": try libfaketime(), "FAKETIME_DONT_FAKE_MONOTONIC": "1", "TZ": "Europe/Berlin",
        "FAKETIME": "@2026-12-04 23:59:40", "DISPLAY": session.display, "I3SOCK": session.i3Socket ?? "",
      ], launcher: throughShell)
    _ = try await desk.notification(after: mark, "Friday's shield") { $0.summary == "Instagram is paused" }
    func social() async throws -> (date: String?, rule: JSONValue?) {
      let reply = try await watcher.call(ServiceInterface.usage.name)
      let report = try JSONValue(parsing: try reply.decode(String.self))
      return (report["date"]?.stringValue, report.usageRule("social"))
    }
    let friday = try await social()
    #expect(friday.date == "2026-12-04")
    #expect(friday.rule?["limitSeconds"]?.integerValue == 0, "\(String(describing: friday.rule))")
    #expect(friday.rule?["overLimit"]?.boolValue == true, "\(String(describing: friday.rule))")
    let saturday = try await poll("Saturday's limit", timeout: .seconds(60)) {
      let now = try await social()
      return now.date == "2026-12-05" ? now.rule : nil
    }
    #expect(saturday["limitSeconds"]?.integerValue == 1_800, "\(saturday)")
    #expect(saturday["overLimit"]?.boolValue == false, "\(saturday)")
    _ = await serve.terminate()
    // The history keeps each day's own limit.
    let history = try HistoryStore(beside: sandbox.store).load().value
    #expect(history.days[LocalDay("2026-12-04")!]?["social"]?.limitSeconds == 0)
  }
}
