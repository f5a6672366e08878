import DBus
import Desktop
import Foundation
import JSON
import Model
import Spawn
import TestSupport
import Testing

@testable import ShieldBridge

@Suite("The meter on a headless GNOME Shell: focus counts, the limit minimizes, a solved puzzle lifts it")
struct MeterGnomeTests {
  static let rule = Rule(
    name: "social", apps: ["Instagram"], dailyLimitMinutes: 1, grantMinutes: 5, warnMinutes: 0, onLimit: .hide)

  @Test(
    "Limit → minimized; a new window, or Alt+Tab to it → minimized again; answer → Unlocked; disabled → status says so")
  func hideUnlockAndTheExtensionDisabled() async throws {
    try await Self.hideUnlockAndTheExtensionDisabled(chroot: nil)
  }

  @Test("The same on GNOME Shell 48 (Debian 13 in a chroot): the extension's 45+ variant ACTIVE")
  func onGnomeShell48() async throws {
    try await Self.hideUnlockAndTheExtensionDisabled(chroot: try await Trixie.shared())
  }

  /// A process of the session that is not the service, in gjs: `orders ADDRESS ID` calls Watch,
  /// ListWindows, Hide and Close (of window ID) on one connection; `watchers ADDRESS N` calls
  /// Watch from N connections and stays. Each call prints its member and `served`, or the error's name.
  static let foreignClient = #"""
    const {Gio, GLib} = imports.gi;
    const [mode, address, argument] = ARGV;
    function connect() {
        return Gio.DBusConnection.new_for_address_sync(address,
            Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION,
            null, null);
    }
    function call(connection, method, parameters) {
        try {
            connection.call_sync('org.gnome.Shell', '/org/shieldbridge/ShellExtension',
                'org.shieldbridge.ShellExtension1', method, parameters, null, Gio.DBusCallFlags.NONE, 20000, null);
            return 'served';
        } catch (error) {
            return Gio.DBusError.get_remote_error(error) || String(error);
        }
    }
    if (mode === 'orders') {
        const connection = connect();
        const ids = new GLib.Variant('(at)', [[Number(argument)]]);
        print('Watch ' + call(connection, 'Watch', null));
        print('ListWindows ' + call(connection, 'ListWindows', null));
        print('Hide ' + call(connection, 'Hide', ids));
        print('Close ' + call(connection, 'Close', ids));
    } else {
        const kept = [];
        for (let i = 0; i < Number(argument); i++) {
            const connection = connect();
            kept.push(connection);
            print('Watch ' + call(connection, 'Watch', null));
        }
        print('ready');
        new GLib.MainLoop(null, false).run();
    }
    """#

  @Test(
    "GNOME Shell 48: a foreign process is refused Watch, ListWindows, Hide and Close; 16 foreign watchers stop no count"
  )
  func foreignCallersOnGnomeShell48() async throws {
    let gjs = try requiredTool("gjs", package: "gjs")
    let session = try await GnomeShellSession(chroot: try await Trixie.shared())
    _ = try await session.launchFoot(appID: "Other")
    let folder = try TemporaryDirectory()
    let script = folder.file("foreign.js")
    try Self.foreignClient.write(toFile: script, atomically: true, encoding: .utf8)
    let refused = "org.freedesktop.DBus.Error.AccessDenied"

    // Sixteen connections of a foreign process call Watch and stay, before the service starts
    // (they once took every place, and the service's own Watch failed): each is refused.
    let watchers = try BackgroundProcess([gjs, script, "watchers", session.bus.address, "16"])
    _ = try await watchers.waitForLine(containing: "ready")
    let answers = watchers.outputLines.filter { $0.hasPrefix("Watch ") }
    #expect(answers == Array(repeating: "Watch \(refused)", count: 16), "\(answers)")

    // A backend of a process that does not own the service's name is refused, and says so; once
    // the process owns it (the service starts here), the backend asks again and watches.
    let early = try GnomeShellDesktop(address: session.bus.address)
    let earlyLog = EventLog<DesktopEvent>()
    let earlyTask = earlyLog.collect(early.events(idleAfter: .seconds(300)))
    _ = try await earlyLog.first("the refusal") {
      if case .notice(let text) = $0 { text.contains("refuses this process") } else { false }
    }
    #expect(!earlyLog.events.contains { if case .focus(_?) = $0 { true } else { false } })
    // The harness's service owns its name on the notifications' bus of its own; on the shell's bus
    // this process takes it, as the service does at its start.
    try await session.ownServiceName()
    do {
      _ = try await earlyLog.first("the focus, watched after the refusal") {
        if case .focus(let window?) = $0 { window.app.windowClass == "Other" } else { false }
      }
    } catch {
      Issue.record("\(error); the backend said: \(earlyLog.events)")
      throw error
    }
    early.stop()
    await earlyTask.value
    let rule = Rule(
      name: "social", apps: ["Instagram"], dailyLimitMinutes: 600, grantMinutes: 5, warnMinutes: 0, onLimit: .hide)
    let harness = try await MeterHarness(rules: [rule], desktop: nil, choice: .auto, environment: session.environment)

    // The service counts, with the sixteen foreign watchers still connected.
    _ = try await harness.logLine(containing: "watching the desktop through gnome")
    _ = try await session.launchFoot(appID: "Instagram")
    let counted = try await poll("Instagram counted") {
      let rule = try await harness.usage().usageRule("social")
      return rule?["counting"]?.boolValue == true ? rule : nil
    }
    _ = try await poll("the count to go on") {
      let used = try await harness.usage().usageRule("social")?["usedSeconds"]?.integerValue ?? 0
      return used > (counted["usedSeconds"]?.integerValue ?? 0) ? true : nil
    }
    #expect(watchers.process.exitStatus == nil, "the foreign watchers must still be there")

    // The foreign process's orders for another window: each refused, nothing hidden or closed.
    let victimProcess = try await session.launchFoot(appID: "Victim")
    let victim = try #require(try await session.windows(ofClass: "Victim").first)
    let orders = try await onOwnThread {
      try Subprocess.run([gjs, script, "orders", session.bus.address, String(victim.id)], timeout: HangBound.wait)
    }
    #expect(
      orders.output.split(separator: "\n").map(String.init)
        == ["Watch", "ListWindows", "Hide", "Close"].map { "\($0) \(refused)" }, "\(orders.output)\(orders.error)")
    try await Task.sleep(for: .seconds(1))
    let after = try await session.windows(ofClass: "Victim")
    #expect(after.map(\.id) == [victim.id] && after.allSatisfy { !$0.isMinimized }, "\(after)")
    #expect(victimProcess.process.exitStatus == nil, "the foreign Close must not have closed the window")
    watchers.process.signal(SIGTERM)
    _ = await watchers.finish()
    await harness.stop()
  }

  /// What GNOME Shell and Mutter introspect is what the backend (and the tests' keyboard) declare of them.
  ///
  /// The headless shell has no screen shield (no logind), so nothing owns `org.gnome.ScreenSaver`
  /// on its bus: that contract is held to the interface the shell ships and serves it from.
  static func expectTheDeclaredInterfaces(on session: GnomeShellSession, chroot: Trixie?) async throws {
    let checker = try Connection(.address(session.bus.address))
    defer { checker.close() }
    let called: [(InterfaceContract, BusName, ObjectPath)] = [
      (
        GnomeShellExtensionsInterface.contract, GnomeShellExtensionsInterface.busName,
        GnomeShellExtensionsInterface.path
      ),
      (MutterIdleMonitorInterface.contract, MutterIdleMonitorInterface.busName, MutterIdleMonitorInterface.path),
      (MutterRemoteDesktopInterface.contract, MutterRemoteDesktopInterface.busName, MutterRemoteDesktopInterface.path),
    ]
    for (contract, destination, path) in called {
      let differences = try await IntrospectedContract.differences(
        contract, destination: destination, path: path, on: checker)
      #expect(differences == [], "\(contract.name)")
    }
    // A remote-desktop session of the checker's own, never started: it ends with the connection.
    let remote = try await checker.call(
      MutterRemoteDesktopInterface.createSession, destination: MutterRemoteDesktopInterface.busName,
      path: MutterRemoteDesktopInterface.path, timeout: HangBound.answer)
    let differences = try await IntrospectedContract.differences(
      MutterRemoteDesktopSessionInterface.contract, destination: MutterRemoteDesktopInterface.busName, path: remote,
      on: checker)
    #expect(differences == [], "\(MutterRemoteDesktopSessionInterface.name)")

    let read = """
      const {Gio} = imports.gi;
      const resource = Gio.Resource.load('/usr/share/gnome-shell/gnome-shell-dbus-interfaces.gresource');
      const xml = resource.lookup_data(
          '/org/gnome/shell/dbus-interfaces/org.gnome.ScreenSaver.xml', Gio.ResourceLookupFlags.NONE);
      print(new TextDecoder().decode(xml.get_data()));
      """
    let shipped: String
    if let chroot {
      shipped = try await chroot.run(["gjs", "-c", read])
    } else {
      let gjs = try requiredTool("gjs", package: "gjs")
      let result = try await onOwnThread { try Subprocess.run([gjs, "-c", read], timeout: HangBound.wait) }
      #expect(result.status == 0, "\(result.error)")
      shipped = result.output
    }
    #expect(try IntrospectedContract.differences(GnomeScreenSaverInterface.contract, xml: shipped) == [])
  }

  static func hideUnlockAndTheExtensionDisabled(chroot: Trixie?) async throws {
    let session = try await GnomeShellSession(chroot: chroot)
    if chroot != nil {
      let version = try await session.shellVersion()
      #expect(version.hasPrefix("48."), "\(version)")
    }
    #expect(try await session.extensionState() == 1, "the extension is not ACTIVE")
    try await Self.expectTheDeclaredInterfaces(on: session, chroot: chroot)
    _ = try await session.launchFoot(appID: "Other")
    // The extension serves only the process that owns the service's name on its bus; the harness's
    // service owns it on the notifications' bus of its own, so this process takes it on the shell's.
    try await session.ownServiceName()
    let harness = try await MeterHarness(
      rules: [Self.rule], desktop: nil, choice: .auto, environment: session.environment)
    _ = try await harness.logLine(containing: "watching the desktop through gnome")

    // Instagram in front: counted, and at the limit shielded and minimized.
    _ = try await session.launchFoot(appID: "Instagram")
    _ = try await harness.signal(.limitReached(rule: "social", app: "Instagram"))
    let shield = try await harness.notification(summary: "Instagram is paused")
    _ = try await poll("Instagram minimized") {
      try await session.windows(ofClass: "Instagram").allSatisfy(\.isMinimized) ? true : nil
    }
    #expect(try harness.storedSeconds("social") >= 1)

    // Another Instagram window takes the focus while over the limit: minimized again.
    var mark = harness.log.count
    _ = try await session.launchFoot(appID: "Instagram", waitForFocus: false)
    _ = try await harness.logLine(after: mark, containing: "rule social: hid 1 window(s)")
    _ = try await poll("both Instagram windows minimized") {
      let windows = try await session.windows(ofClass: "Instagram")
      return windows.count == 2 && windows.allSatisfy(\.isMinimized) ? true : nil
    }

    // Activated again by the user's own switcher (Alt+Tab, which brings a minimized window
    // back): minimized again.
    _ = try await poll("the focus back on Other") { try await session.watch()?.wmClass == "Other" ? true : nil }
    mark = harness.log.count
    // On a busy machine the switcher can take the keyboard after the keys are gone, and nothing
    // comes back; a person then presses Escape (should a switcher be left open) and tries again.
    var hidAgain: String?
    for _ in 0..<3 where hidAgain == nil {
      try await session.altTab(times: 1)
      hidAgain = try? await harness.logLine(
        after: mark, containing: "rule social: hid 1 window(s)", timeout: .seconds(20))
      if hidAgain == nil { try await session.press(keysym: 0xff1b) }
    }
    let log = harness.log.events.joined(separator: "\n")
    try #require(hidAgain != nil, "three Alt+Tabs brought no Instagram window back to be hidden; the log:\n\(log)")
    _ = try await poll("the Instagram windows minimized once more") {
      try await session.windows(ofClass: "Instagram").allSatisfy(\.isMinimized) ? true : nil
    }

    // The shield's puzzle, answered inline: a grant, Unlocked, and no more minimizing.
    try await harness.solveInlinePuzzle(of: shield, rule: "social")
    mark = harness.log.count
    _ = try await session.launchFoot(appID: "Instagram")
    _ = try await poll("the rule to count again") {
      try await harness.usage().usageRule("social")?["counting"]?.boolValue == true ? true : nil
    }
    #expect(try await session.watch()?.wmClass == "Instagram")
    #expect(!harness.log.events.dropFirst(mark).contains { $0.contains("hid") })
    var usage = try await harness.usage()
    #expect(usage["source"]?["backend"]?.stringValue == "gnome")
    #expect(usage["source"]?["counting"]?.stringValue == "focus")
    #expect(usage["source"]?["attention"] == nil)
    #expect(usage.usageRule("social")?["grantsToday"]?.integerValue == 1)

    // The extension disabled: the log, Usage() and `status` say so and what to run; nothing counts.
    mark = harness.log.count
    try await session.gnomeExtensions(["disable", GnomeShellSession.uuid])
    _ = try await harness.logLine(after: mark, containing: "gnome-extensions enable \(GnomeShellSession.uuid)")
    _ = try await poll("the rule to stop counting") {
      try await harness.usage().usageRule("social")?["counting"]?.boolValue == false ? true : nil
    }
    usage = try await harness.usage()
    #expect(usage["source"]?["attention"]?.stringValue?.contains("not enabled") == true)
    var environment = harness.sandbox.environment
    environment["DBUS_SESSION_BUS_ADDRESS"] = harness.notifications.bus.address
    // `status` gives the service 5 s, as a person waits: on a busy machine it is asked again.
    let status = try await poll("status to hear the service", timeout: HangBound.wait, every: .seconds(1)) {
      let status = try await ShieldBridgeTool.run(["status"], environment: environment)
      return status.output.contains("the service did not answer") ? nil : status
    }
    #expect(status.output.contains("counted: focused windows (GNOME Shell)"), "\(status.output)")
    #expect(
      status.output.contains("to do: the GNOME Shell extension \(GnomeShellSession.uuid) is installed but not enabled"),
      "\(status.output)")
    await harness.stop()
  }
}
