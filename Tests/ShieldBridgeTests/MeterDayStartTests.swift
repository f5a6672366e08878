import Foundation
import JSON
import Model
import Notifications
import TestSupport
import Testing

@testable import Config
@testable import ShieldBridge

/// Issue 25, point 5: `"dayStartsAt": "04:00"` through the real service (i3 on Xvfb, libfaketime).
@Suite("A day that starts at 04:00 through the real service: midnight goes by, 04:00 begins the day")
struct MeterDayStartTests {
  private func usage(_ watcher: ServiceWatcher) async throws -> JSONValue {
    let reply = try await watcher.call(ServiceInterface.usage.name)
    return try JSONValue(parsing: try reply.decode(String.self))
  }

  @Test("From 23:59:57 the time after midnight stays on the day; from 03:59:57 the next day begins at 04:00")
  func acrossTheNight() async throws {
    let session = try await XSession(windowManager: .i3)
    _ = try await session.launchXterm(windowClass: "Instagram")
    try await session.i3msg(["[class=\"Instagram\"] focus"])
    let sandbox = try Sandbox()
    try sandbox.writeConfig(
      #"{"desktop":"i3","dayStartsAt":"04:00","rules":[{"name":"social","apps":["Instagram"],"#
        + #""dailyLimitMinutes":600,"warnMinutes":0}]}"#)
    let desk = try await EmbeddedNotifications(capabilities: NotificationServer.Configuration.defaultCapabilities)
    let watcher = try await ServiceWatcher(address: desk.bus.address)
    let arguments = ["--save-interval", "1000"]
    var environment = [
      "LD_PRELOAD": try libfaketime(), "FAKETIME_DONT_FAKE_MONOTONIC": "1", "TZ": "Europe/Berlin",
      "DISPLAY": session.display, "I3SOCK": session.i3Socket ?? "", "FAKETIME": "@2026-12-01 23:59:57",
    ]
    let evening = try await ServeProcess(
      sandbox: sandbox, address: desk.bus.address, watcher: watcher, environment: environment, arguments: arguments,
      launcher: throughShell)
    // Past midnight by the faked clock (3 s to it, 3 more): still 2026-12-01.
    let afterMidnight = try await poll("6 s counted", timeout: .seconds(60)) {
      let report = try await usage(watcher)
      return (report.usageRule("social")?["usedSeconds"]?.integerValue ?? 0) >= 6 ? report : JSONValue?.none
    }
    #expect(afterMidnight["date"]?.stringValue == "2026-12-01", "\(afterMidnight)")
    _ = await evening.terminate()

    // Four hours later by the boot time too (a time namespace), three seconds before 04:00.
    environment["FAKETIME"] = "@2026-12-02 03:59:57"
    let morning = try await ServeProcess(
      sandbox: sandbox, address: desk.bus.address, watcher: watcher, environment: environment, arguments: arguments,
      launcher: ["/usr/bin/unshare", "--time", "--boottime", String(4 * 3_600)] + throughShell)
    let before = try await usage(watcher)
    #expect(before["date"]?.stringValue == "2026-12-01", "\(before)")
    let next = try await poll("the day 2026-12-02 at 04:00", timeout: .seconds(60)) {
      let report = try await usage(watcher)
      return report["date"]?.stringValue == "2026-12-02" ? report : JSONValue?.none
    }
    #expect((next.usageRule("social")?["usedSeconds"]?.integerValue ?? 999) < 30, "\(next)")
    _ = await morning.terminate()
    let ledger = try sandbox.store.load().value
    #expect(ledger.usedSeconds(for: "social", on: LocalDay("2026-12-01")!) >= 6)
    #expect(ledger.dayAnchor?.day == LocalDay("2026-12-02"))
  }
}
