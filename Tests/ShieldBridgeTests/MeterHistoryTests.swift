import DBus
import Foundation
import JSON
import Model
import Notifications
import Spawn
import TestSupport
import Testing

@testable import Config
@testable import ShieldBridge

@Suite("The history through the real service: i3 across three local days, DST included, and report --json")
struct MeterHistoryTests {
  /// `Usage()` of the service on the bus, parsed.
  private func usage(_ watcher: ServiceWatcher) async throws -> JSONValue {
    let reply = try await watcher.call(ServiceInterface.usage.name)
    return try JSONValue(parsing: try reply.decode(String.self))
  }

  @Test("Each day's seconds are split by the app that was in front, and report --json says so day by day")
  func threeDays() async throws {
    let session = try await XSession(windowManager: .i3)
    _ = try await session.launchXterm(windowClass: "Instagram")
    _ = try await session.launchXterm(windowClass: "TikTok")
    let sandbox = try Sandbox()
    try sandbox.writeConfig(
      #"{"desktop":"i3","rules":[{"name":"social","apps":["Instagram","TikTok"],"dailyLimitMinutes":60,"#
        + #""warnMinutes":0}]}"#)
    let desk = try await EmbeddedNotifications(capabilities: NotificationServer.Configuration.defaultCapabilities)
    let watcher = try await ServiceWatcher(address: desk.bus.address)
    let arguments = ["--minute-length", "1000", "--save-interval", "1000"]
    // Berlin leaves summer time on 2026-10-25: that day has 25 hours.
    let days = ["2026-10-24", "2026-10-25", "2026-10-26"]
    // What is in front each day: seconds per app, in order.
    let plan: [[(app: String, seconds: Int64)]] = [
      [("Instagram", 3), ("TikTok", 2)], [("TikTok", 3)], [("Instagram", 2), ("TikTok", 2)],
    ]
    var counted: [[String: Int64]] = []
    for (index, day) in days.enumerated() {
      // Each day a service of its own: the wall clock at noon that day (libfaketime) and the
      // boot time moved on further in a time namespace, so that the boot time vouches for the new day.
      // ("@" starts the clock there and lets it run.)
      let faked = [
        "LD_PRELOAD": try libfaketime(), "FAKETIME": "@\(day) 12:00:00", "FAKETIME_DONT_FAKE_MONOTONIC": "1",
        "TZ": "Europe/Berlin",
        "DISPLAY": session.display, "I3SOCK": session.i3Socket ?? "",
      ]
      let namespace = ["/usr/bin/unshare", "--time", "--boottime", String(index * 3 * 86_400)]
      let serve = try await ServeProcess(
        sandbox: sandbox, address: desk.bus.address, watcher: watcher, environment: faked, arguments: arguments,
        launcher: namespace + throughShell)
      var total: Int64 = 0
      var split: [String: Int64] = [:]
      for step in plan[index] {
        try await session.i3msg(["[class=\"\(step.app)\"] focus"])
        total += step.seconds
        let reached = try await poll("\(step.app) in front until \(total) s on \(day)", timeout: .seconds(60)) {
          let report = try await usage(watcher)
          let used = report.usageRule("social")?["usedSeconds"]?.integerValue ?? 0
          return used >= total ? report : JSONValue?.none
        }
        #expect(reached["date"]?.stringValue == day, "\(reached)")
        split[step.app, default: 0] += step.seconds
      }
      _ = await serve.terminate()
      counted.append(split)
    }

    let result = try await sandbox.run(
      ["report", "--json", "--from", days[0], "--to", days[2]], address: desk.bus.address,
      changes: ["TZ": "Europe/Berlin"])
    #expect(result.status == 0, "\(result.error)")
    let report = try JSONValue(parsing: result.output)
    let reported = try #require(report["days"]?.arrayValue)
    #expect(reported.map { $0["date"]?.stringValue } == days)
    let ledger = try sandbox.store.load().value
    for (index, day) in reported.enumerated() {
      let rule = try #require(day["rules"]?.arrayValue?.first, "\(day)")
      #expect(rule["name"]?.stringValue == "social")
      let used = try #require(rule["usedSeconds"]?.integerValue)
      // The seconds are the ledger's; at least what was in front, a little more while the focus moved.
      #expect(used == Int64(ledger.usedSeconds(for: "social", on: LocalDay(days[index])!)))
      #expect(used >= counted[index].values.reduce(0, +), "\(day)")
      #expect(rule["limitSeconds"]?.integerValue == 60, "\(day)")
      let apps = try #require(rule["apps"]?.arrayValue)
      #expect(apps.map { $0["name"]?.stringValue } == ["Instagram", "TikTok"])
      let seconds = apps.map { $0["usedSeconds"]?.integerValue ?? -1 }
      #expect(seconds.reduce(0, +) == used, "the split sums to the rule: \(day)")
      for (app, value) in zip(["Instagram", "TikTok"], seconds) {
        let wanted = counted[index][app] ?? 0
        if wanted == 0 {
          #expect(value == 0, "\(app) was not in front on \(days[index]): \(day)")
        } else {
          #expect(value >= wanted - 1, "\(app) was in front \(wanted) s on \(days[index]): \(day)")
        }
      }
    }
    // The days still saved are in history-open.json, the others in history.json: neither names a window.
    let files = ["history.json", "history-open.json"].compactMap {
      try? String(contentsOfFile: sandbox.stateDirectory + "/" + $0, encoding: .utf8)
    }
    #expect(!files.isEmpty)
    for history in files { #expect(!history.contains("xterm"), "no window names: \(history)") }
  }

  @Test("Time in front across midnight is split between the two days, each day's split summing to its seconds")
  func acrossMidnight() async throws {
    let session = try await XSession(windowManager: .i3)
    _ = try await session.launchXterm(windowClass: "TikTok")
    try await session.i3msg(["[class=\"TikTok\"] focus"])
    let sandbox = try Sandbox()
    try sandbox.writeConfig(
      #"{"desktop":"i3","rules":[{"name":"social","apps":["Instagram","TikTok"],"dailyLimitMinutes":60,"#
        + #""warnMinutes":0}]}"#)
    let desk = try await EmbeddedNotifications(capabilities: NotificationServer.Configuration.defaultCapabilities)
    let watcher = try await ServiceWatcher(address: desk.bus.address)
    // Six seconds before midnight on the day before Berlin leaves summer time; the clock runs on.
    let faked = [
      "LD_PRELOAD": try libfaketime(), "FAKETIME": "@2026-10-24 23:59:54", "FAKETIME_DONT_FAKE_MONOTONIC": "1",
      "TZ": "Europe/Berlin", "DISPLAY": session.display, "I3SOCK": session.i3Socket ?? "",
    ]
    let serve = try await ServeProcess(
      sandbox: sandbox, address: desk.bus.address, watcher: watcher, environment: faked,
      arguments: ["--minute-length", "1000", "--save-interval", "1000"], launcher: throughShell)
    _ = try await poll("3 s counted on the new day", timeout: .seconds(60)) {
      let reply = try await watcher.call(ServiceInterface.usage.name)
      let report = try JSONValue(parsing: try reply.decode(String.self))
      let used = report.usageRule("social")?["usedSeconds"]?.integerValue ?? 0
      return report["date"]?.stringValue == "2026-10-25" && used >= 3 ? true : nil
    }
    _ = await serve.terminate()
    let result = try await sandbox.run(
      ["report", "--json", "--from", "2026-10-24", "--to", "2026-10-25"], address: desk.bus.address)
    #expect(result.status == 0, "\(result.error)")
    let days = try #require(try JSONValue(parsing: result.output)["days"]?.arrayValue)
    #expect(days.map { $0["date"]?.stringValue } == ["2026-10-24", "2026-10-25"])
    for (day, least) in zip(days, [4, 3] as [Int64]) {
      let rule = try #require(day["rules"]?.arrayValue?.first)
      let used = rule["usedSeconds"]?.integerValue ?? 0
      #expect(used >= least, "\(day)")
      let apps = rule["apps"]?.arrayValue ?? []
      #expect(apps.first { $0["name"]?.stringValue == "TikTok" }?["usedSeconds"]?.integerValue == used, "\(day)")
      #expect(apps.first { $0["name"]?.stringValue == "Instagram" }?["usedSeconds"]?.integerValue == 0, "\(day)")
    }
  }
}
