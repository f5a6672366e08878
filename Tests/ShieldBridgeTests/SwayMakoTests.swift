import DBus
import Foundation
import JSON
import ShieldBridge
import Spawn
import TestSupport
import Testing

/// sway as its users have it, in front of the real `shieldbridge serve`: a
/// headless sway run by the user the tests create (sway refuses root), a foot
/// of app id `Instagram` as the covered app, and mako, sway's usual
/// notification server, on the session's bus and sway's Wayland display.
///
/// mako is acted on as sway users bind it to keys: `makoctl invoke`, which
/// calls mako's own `InvokeAction` (a pointer click cannot be made here: a
/// headless sway without input devices gives its clients no pointer).
@Suite(.serialized) struct SwayMakoTests {
  static let configuration =
    #"{"rules":[{"name":"social","apps":["Instagram"],"dailyLimitMinutes":2,"grantMinutes":5,"#
    + #""maxGrantsPerDay":3,"warnMinutes":0,"onLimit":"hide"}]}"#

  @Test("Over its limit the foot is moved to the scratchpad, the shield is on mako, invoking it opens the task")
  func hiddenShieldedAndInvoked() async throws {
    for (tool, package) in [("mako", "mako-notifier"), ("makoctl", "mako-notifier"), ("busctl", "systemd")] {
      _ = try requiredTool(tool, package: package)
    }
    let session = try await SwaySession()
    let bus = try BusDaemon()
    let sandbox = try Sandbox()
    try sandbox.writeConfig(Self.configuration)
    // Root may use the user's compositor: the Wayland socket by its absolute path.
    let wayland = session.runtime.file(session.waylandDisplay)
    let makoHome = try TemporaryDirectory(prefix: "shieldbridge-mako")
    let makoEnvironment = [
      "DBUS_SESSION_BUS_ADDRESS": bus.address, "WAYLAND_DISPLAY": wayland, "XDG_RUNTIME_DIR": makoHome.path,
      "XDG_CONFIG_HOME": makoHome.path, "HOME": makoHome.path, "DISPLAY": "",
    ]
    let watcher = try await ServiceWatcher(address: bus.address)
    let serverOwner = try await NameOwnerTracker.track(
      BusName("org.freedesktop.Notifications"), on: watcher.connection)
    let mako = try BackgroundProcess(["mako"], environment: makoEnvironment)
    defer { mako.process.signalGroup(SIGTERM) }
    guard await serverOwner.waitForOwner(timeout: .seconds(20)) != nil else {
      throw PollTimedOut(what: "mako to own org.freedesktop.Notifications: \(mako.standardError)")
    }
    let monitor = try await BusMonitor(address: bus.address)

    // The app is in front before the service starts; it counts from the first focus.
    _ = try await session.launchFoot(appID: "Other")
    _ = try await session.launchFoot(appID: "Instagram")
    let serve = try await ServeProcess(
      sandbox: sandbox, address: bus.address, watcher: watcher,
      environment: ["SWAYSOCK": session.socket, "I3SOCK": "", "WAYLAND_DISPLAY": wayland, "TERMINAL": "foot"],
      arguments: ["--minute-length", "1000", "--save-interval", "1000"])
    defer { serve.process.process.signalGroup(SIGTERM) }
    let usage = try JSONValue(
      parsing: try await watcher.connection.call(
        ServiceInterface.usage, destination: serve.uniqueName, path: ServiceNames.path, timeout: .seconds(5)))
    #expect(usage["source"]?["backend"]?.stringValue == "sway", "\(usage)")

    // At the limit (2 s of use): moved to sway's scratchpad, and the shield posted on mako.
    _ = try await poll("the Instagram foot on sway's scratchpad", timeout: .seconds(30)) {
      try await session.workspaces(ofAppID: "Instagram") == ["__i3_scratch"] ? true : nil
    }
    let shield = try await poll("the shield's Notify on the bus", timeout: .seconds(30)) {
      monitor.notifyCalls.first { $0.summary == "Instagram is paused" }
    }
    #expect(shield.sender == serve.uniqueName.rawValue)
    let shown = try await poll("the shield in mako's list") {
      let listed = try? Self.makoctl(["list"], environment: makoEnvironment)
      return listed.flatMap { $0.contains("Instagram is paused") ? $0 : nil }
    }
    #expect(shown.contains("Solve a task"), "\(shown)")

    // Invoked as a key binding does: ActionInvoked("default") → the task in a terminal, a foot on sway.
    let dispatches = watcher.dispatched.count
    let before = try await session.workspaces(ofAppID: "foot").count
    _ = try Self.makoctl(["invoke"], environment: makoEnvironment)
    let record = try await watcher.record(after: dispatches, "the invoked shield's dispatch")
    #expect(record.outcome == "terminal", "\(record.serialized)")
    _ = try await poll("the task's terminal on sway", timeout: .seconds(30)) {
      try await session.workspaces(ofAppID: "foot").count > before ? true : nil
    }
    #expect(try await session.workspaces(ofAppID: "Instagram") == ["__i3_scratch"])
    _ = await serve.terminate()
  }

  /// `makoctl ARGUMENTS` against the mako on this test's bus; what it printed.
  static func makoctl(_ arguments: [String], environment: [String: String]) throws -> String {
    let result = try Subprocess.run(
      ["makoctl"] + arguments, environment: ShieldBridgeTool.mergedEnvironment(environment), timeout: .seconds(10))
    guard result.status == 0 else {
      throw CommandFailed(description: "makoctl \(arguments): \(result.output) \(result.error)")
    }
    return result.output
  }
}
