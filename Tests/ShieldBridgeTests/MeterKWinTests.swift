import DBus
import Desktop
import Foundation
import JSON
import Model
import TestSupport
import Testing

@testable import ShieldBridge

@Suite(
  "The meter under kwin_x11 (its focus script): counted, minimized at the limit and on activation, a grant lifts it")
struct MeterKWinTests {
  static let rule = Rule(
    name: "social", apps: ["Instagram"], dailyLimitMinutes: 1, grantMinutes: 5, warnMinutes: 0, onLimit: .hide)

  @Test("Counted while in front; limit → shield and Iconic; activated → Iconic again; a grant → it stays Normal")
  func countHideAndUnlock() async throws {
    let bus = try BusDaemon()
    let session = try await XSession(windowManager: .kwin, sessionBus: bus.address)
    try await KWinReady.wait(on: bus)
    let instagram = try await session.launchXterm(windowClass: "Instagram")
    let other = try await session.launchXterm(windowClass: "Other")
    try await session.xdotool(["windowactivate", instagram.hexWindow])

    // `shieldbridge desktop --once` picks KWin by itself and names the app in front (its own
    // script, beside the service's below, and unloaded when it exits).
    let sandbox = try Sandbox()
    try sandbox.writeConfig(#"{"rules":[{"name":"social","apps":["Instagram"]}]}"#)
    let environment = sandbox.environment.merging(
      session.environment.filter { ["DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR"].contains($0.key) }
    ) { $1 }
    let once = try await ShieldBridgeTool.run(["desktop", "--once", "--json"], environment: environment)
    #expect(once.status == 0, "\(once.error)")
    let lines = try once.output.split(separator: "\n").map { try JSONValue(parsing: String($0)) }
    #expect(lines.first?["backend"] == "kwin")
    #expect(lines.first?["choice"] == "auto")
    #expect(lines.last?["class"]?.stringValue?.lowercased() == "instagram")
    #expect(lines.last?["pid"]?.integerValue == Int64(instagram.pid))
    #expect(lines.last?["rule"] == "social")
    #expect(!once.output.contains("sleep 600"))
    let text = try await ShieldBridgeTool.run(["desktop", "--once"], environment: environment)
    #expect(text.output.contains("desktop: KWin, chosen automatically"), "\(text.output) \(text.error)")

    try await session.xdotool(["windowactivate", other.hexWindow])
    // The service on a bus of its own; the KWin backend on KWin's, from the environment.
    let harness = try await MeterHarness(
      rules: [Self.rule], desktop: nil, choice: .kwin, environment: session.environment)
    _ = try await harness.logLine(containing: "watching the desktop through kwin")
    let usage = try await harness.usage()
    #expect(usage["source"]?["backend"]?.stringValue == "kwin")
    #expect(usage["source"]?["counting"]?.stringValue == "focus")
    #expect(usage.usageRule("social")?["counting"]?.boolValue == false)

    try await session.xdotool(["windowactivate", instagram.hexWindow])
    _ = try await poll("Instagram to count") {
      try await harness.usage().usageRule("social")?["counting"]?.boolValue == true ? true : nil
    }
    _ = try await harness.signal(.limitReached(rule: "social", app: "Instagram"), timeout: .seconds(20))
    let shield = try await harness.notification(summary: "Instagram is paused")
    _ = try await poll("the xterm minimized") {
      try await session.windowState(instagram.window) == "Iconic" ? true : nil
    }
    #expect(try await session.xprop(["-id", instagram.hexWindow, "_NET_WM_STATE"]).contains("_NET_WM_STATE_HIDDEN"))
    #expect(try await session.windowState(other.window) == "Normal")

    var mark = harness.log.count
    try await session.xdotool(["windowactivate", instagram.hexWindow])
    _ = try await harness.logLine(after: mark, containing: "rule social: hid 1 window(s)")
    _ = try await poll("the xterm minimized again") {
      try await session.windowState(instagram.window) == "Iconic" ? true : nil
    }

    try await harness.solveInlinePuzzle(of: shield, rule: "social")
    mark = harness.log.count
    try await session.xdotool(["windowactivate", instagram.hexWindow])
    _ = try await poll("the rule to count again") {
      try await harness.usage().usageRule("social")?["counting"]?.boolValue == true ? true : nil
    }
    #expect(try await session.windowState(instagram.window) == "Normal")
    #expect(!harness.log.events.dropFirst(mark).contains { $0.contains("hid") })

    // A third connection on KWin's bus claims the focus for Other: refused, the count goes on.
    let intruder = try Connection(.address(bus.address))
    defer { intruder.close() }
    let names = try await intruder.call(BusInterface.listNames, destination: .bus, path: .bus)
    var refused = 0
    for name in names where name.hasPrefix(":") && name != intruder.uniqueName.rawValue {
      do {
        _ = try await intruder.call(
          try BusName(name), try ObjectPath("/org/shieldbridge/KWin"),
          try InterfaceName("org.shieldbridge.KWinScript1"),
          try MemberName("Activated"), "other", "xterm", "", other.pid, "{00000000-0000-0000-0000-000000000001}",
          timeout: HangBound.answer)
      } catch let error where error.name == DBusError.Name.accessDenied.rawValue {
        refused += 1
      } catch {}
    }
    #expect(refused == 1)
    _ = try await harness.logLine(containing: "which does not own org.kde.KWin")
    #expect(try await harness.usage().usageRule("social")?["counting"]?.boolValue == true)
    #expect(try harness.storedSeconds("social") >= 1)
    await harness.stop()
  }
}
