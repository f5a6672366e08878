import DBus
import Desktop
import Foundation
import JSON
import Model
import Posix
import TestSupport
import Testing

@testable import ShieldBridge

@Suite("One budget on Xvfb with openbox: a covered app's window and a browser showing a covered site")
struct MeterSiteX11Tests {
  /// `social`: the Instagram app and instagram.com; `browsers`: the browser window itself;
  /// `video`: youtube.com alone, with a limit of a one-second minute.
  static let rules = [
    Rule(
      name: "social",
      apps: [AppPattern(name: "Instagram", classes: ["Instagram"], sites: [Site("instagram.com")].compactMap { $0 })],
      dailyLimitMinutes: 600, warnMinutes: 0),
    Rule(name: "browsers", apps: [AppPattern(name: "Browser", classes: ["Browser"])], dailyLimitMinutes: 600),
    Rule(
      name: "video", apps: [AppPattern(name: "YouTube", sites: [Site("youtube.com")].compactMap { $0 })],
      dailyLimitMinutes: 1, warnMinutes: 0, onLimit: .hide),
  ]

  /// The rules whose time counts now, from `Usage()`.
  private func counting(_ harness: MeterHarness) async throws -> Set<String> {
    let rules = try await harness.usage()["rules"]?.arrayValue ?? []
    return Set(rules.filter { $0["counting"]?.boolValue == true }.compactMap { $0["name"]?.stringValue })
  }

  private func waitForCounting(_ harness: MeterHarness, _ wanted: Set<String>) async throws {
    _ = try await poll("exactly \(wanted.sorted()) counting") {
      try await counting(harness) == wanted ? true : nil
    }
  }

  /// `SiteFocus(site, pid, false)` from a connection of the test's own, as a host would call it.
  ///
  /// The browser says its window is not focused: with a focus backend the desktop decides all the same.
  private func siteFocus(_ connection: Connection, _ site: String, pid: Int32) async throws -> JSONValue {
    let reply = try await connection.call(
      ServiceNames.busName, ServiceNames.path, ServiceInterface.name, ServiceInterface.siteFocus.name, site,
      UInt32(pid), false, timeout: .seconds(10))
    return try JSONValue(parsing: try reply.decode(String.self))
  }

  /// The real native host reports `site`, as a browser's focus message asks it to; the state it answers.
  private func report(_ host: NativeHostProcess, _ site: String) async throws -> JSONValue {
    let after = host.received.count
    try host.focus(site)
    return try await host.state(site, after: after)
  }

  @Test("Focus moves between the app and the browser: one rule counts at a time, the browser is never hidden")
  func oneBudget() async throws {
    let session = try await XSession(windowManager: .openbox)
    let app = try await session.launchXterm(windowClass: "Instagram")
    let harness = try await MeterHarness(
      rules: Self.rules, desktop: nil, choice: .x11, environment: session.environment)
    try harness.sandbox.writeConfig(SiteHarness.configuration())
    // The browser: a stand-in that starts the real host as its child, then becomes an xterm of class Browser.
    let host = try NativeHostProcess(
      environment: harness.sandbox.environment.merging(session.environment) { $1 }.merging([
        "DBUS_SESSION_BUS_ADDRESS": harness.notifications.bus.address
      ]) { $1 },
      browser: "exec xterm -class Browser -e sleep 600 >/dev/null 2>&1")
    let browser = try await session.waitForWindow(pid: host.process.pid, windowClass: "Browser")
    let browserWindow = "0x" + String(browser, radix: 16)
    try host.send(json(["type": "hello", "version": 1, "language": "en-US"]))

    try await session.xdotool(["windowactivate", "--sync", app.hexWindow])
    try await waitForCounting(harness, ["social"])

    // The browser reports instagram.com while the app is in front: still the app alone.
    let state = try await report(host, "instagram.com")
    #expect(state["covered"] == true)
    #expect(state["rule"] == "social")
    try await waitForCounting(harness, ["social"])

    // A forger on the bus naming the app's process is refused: the app is no browser of its.
    let forger = try Connection(.address(harness.notifications.bus.address))
    defer { forger.close() }
    await #expect {
      _ = try await siteFocus(forger, "example.org", pid: app.process.process.pid)
    } throws: { error in
      (error as? DBusError)?.name == DBusError.Name.accessDenied.rawValue
    }
    try await waitForCounting(harness, ["social"])

    // The browser in front with the same rule's site: social still, and not the browser's own rule as well.
    try await session.xdotool(["windowactivate", "--sync", browserWindow])
    try await waitForCounting(harness, ["social"])

    // An uncovered site: the browser window counts as itself.
    _ = try await report(host, "example.org")
    try await waitForCounting(harness, ["browsers"])

    // Another rule's site: that rule alone, until its limit; the shield is posted, the browser stays Normal.
    let signals = harness.signals.count
    _ = try await report(host, "www.youtube.com")
    _ = try await harness.signal(after: signals, .limitReached(rule: "video", app: "YouTube"))
    _ = try await harness.notification(summary: "YouTube is paused")
    _ = try await harness.logLine(containing: "rule video: hid 0 window(s)")
    #expect(try await session.windowState(browser) == "Normal")
    let shielded = try await report(host, "youtube.com")
    #expect(shielded["shielded"] == true)
    #expect(try await counting(harness).isDisjoint(with: ["social", "browsers"]))

    // Back to the app: social again, and the site no longer counts.
    try await session.xdotool(["windowactivate", "--sync", app.hexWindow])
    try await waitForCounting(harness, ["social"])
    #expect(try await session.windowState(browser) == "Normal")

    // The host leaves the bus: its site is forgotten, the browser in front counts as itself.
    _ = try await report(host, "instagram.com")
    try await session.xdotool(["windowactivate", "--sync", browserWindow])
    try await waitForCounting(harness, ["social"])
    try host.closeInput()
    _ = try await harness.logLine(containing: "sites: a host left the bus")
    try await waitForCounting(harness, ["browsers"])
    await harness.stop()
  }

  @Test("SiteFocus refuses a site that is no host name, too long, or from too many callers")
  func refusals() async throws {
    let harness = try await MeterHarness(rules: Self.rules, desktop: nil, choice: .off)
    let host = try Connection(.address(harness.notifications.bus.address))
    defer { host.close() }
    // The test process as a host: it descends from its own parent, the "browser" it names.
    let browser = CurrentProcess.parentID
    for site in [
      "https://instagram.com/", "instagram.com:443", String(repeating: "a", count: 254), "bad site", "-a.com",
    ] {
      await #expect {
        _ = try await siteFocus(host, site, pid: browser)
      } throws: { error in
        (error as? DBusError)?.name == DBusError.Name.invalidArgs.rawValue
      }
    }
    let state = try await siteFocus(host, "instagram.com", pid: browser)
    #expect(state["covered"] == true)
    #expect(
      try await siteFocus(host, "", pid: browser)
        == JSONValue.object([
          ("site", .null), ("covered", false), ("shielded", false),
        ]))
    // One connection per host, at most 64: the 65th is refused until one leaves.
    var others: [Connection] = []
    for _ in 1..<ShieldService.siteCallersKept {
      let other = try Connection(.address(harness.notifications.bus.address))
      _ = try await siteFocus(other, "example.org", pid: browser)
      others.append(other)
    }
    let extra = try Connection(.address(harness.notifications.bus.address))
    defer { extra.close() }
    await #expect {
      _ = try await siteFocus(extra, "example.org", pid: browser)
    } throws: { error in
      (error as? DBusError)?.name == DBusError.Name.limitsExceeded.rawValue
    }
    others.removeLast().close()
    _ = try await poll("a place for another host") {
      (try? await siteFocus(extra, "example.org", pid: browser)) != nil ? true : nil
    }
    for other in others { other.close() }
    await harness.stop()
  }
}
