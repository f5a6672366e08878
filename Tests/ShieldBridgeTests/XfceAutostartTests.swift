import DBus
import Foundation
import JSON
import ShieldBridge
import Spawn
import TestSupport
import Testing

/// The XDG autostart entry of `examples/autostart/`, installed as `make install`
/// installs it, run by a real Xfce session: `xfce4-session` on Xvfb, with its
/// settings daemon started by a private bus, a folder of its own as the only
/// `XDG_CONFIG_DIRS` (where `/etc/xdg/autostart` would be) and a home of its own.
///
/// Xfce never starts `graphical-session.target`, so the systemd unit would
/// never run there: the session itself must start the service, once.
@Suite(.serialized) struct XfceAutostartTests {
  @Test("Xfce's session starts the service from the autostart entry; a second start exits 0 with one line")
  func theSessionStartsTheServiceOnce() async throws {
    for (tool, package) in [("xfce4-session", "xfce4-session"), ("xfwm4", "xfwm4")] {
      _ = try requiredTool(tool, package: package)
    }
    let xfconf = "/usr/share/dbus-1/services/org.xfce.Xfconf.service"
    guard FileManager.default.fileExists(atPath: xfconf) else {
      throw PollTimedOut(what: "\(xfconf), Xfce's settings daemon (install the xfconf package)")
    }
    let manager = FileManager.default
    let root = try TemporaryDirectory(prefix: "shieldbridge-xfce")
    for folder in [
      "services", "xdg/autostart", "home", "config/xfce4/xfconf/xfce-perchannel-xml", "config/shieldbridge", "state",
      "run",
    ] {
      try manager.createDirectory(atPath: root.file(folder), withIntermediateDirectories: true)
    }
    try manager.setAttributes([.posixPermissions: 0o700], ofItemAtPath: root.file("run"))
    try #"{"rules": [{"name": "social", "apps": ["Instagram"], "dailyLimitMinutes": 10}]}"#.write(
      toFile: root.file("config/shieldbridge/config.json"), atomically: true, encoding: .utf8)
    // The bus starts xfconfd when the session asks for its settings, as a real session bus does.
    try manager.copyItem(atPath: xfconf, toPath: root.file("services/org.xfce.Xfconf.service"))
    // No ssh-agent or gpg-agent from the session: they would outlive the test.
    try """
    <?xml version="1.0" encoding="UTF-8"?>
    <channel name="xfce4-session" version="1.0">
      <property name="startup" type="empty">
        <property name="ssh-agent" type="empty"><property name="enabled" type="bool" value="false"/></property>
        <property name="gpg-agent" type="empty"><property name="enabled" type="bool" value="false"/></property>
      </property>
    </channel>

    """.write(
      toFile: root.file("config/xfce4/xfconf/xfce-perchannel-xml/xfce4-session.xml"), atomically: true,
      encoding: .utf8)

    // The entry as `make install` writes it: @BINDIR@ is the folder of the built binary.
    let binary = ShieldBridgeTool.path
    let bindir = URL(fileURLWithPath: binary).deletingLastPathComponent().path
    let template = try String(
      contentsOfFile: GnomeShellSession.repositoryPath + "/examples/autostart/shieldbridge.desktop", encoding: .utf8)
    let entry = root.file("xdg/autostart/shieldbridge.desktop")
    try template.replacingOccurrences(of: "@BINDIR@", with: bindir).write(
      toFile: entry, atomically: true, encoding: .utf8)
    let validate = try requiredTool("desktop-file-validate", package: "desktop-file-utils")
    let validated = try Subprocess.run([validate, entry], timeout: .seconds(10))
    #expect(validated.status == 0, "\(validated.output) \(validated.error)")
    let exec = try #require(
      try String(contentsOfFile: entry, encoding: .utf8).split(separator: "\n").first { $0.hasPrefix("Exec=") })
    let command = exec.dropFirst("Exec=".count).split(separator: " ").map(String.init)
    #expect(command == [binary, "serve"])

    let xvfb = try await XvfbServer()
    let bus = try BusDaemon(serviceDirectories: [root.file("services")])
    let watcher = try Connection(.address(bus.address))
    defer { watcher.close() }
    let environment = [
      "PATH": "/usr/bin:/bin", "HOME": root.file("home"), "XDG_CONFIG_HOME": root.file("config"),
      "XDG_CONFIG_DIRS": root.file("xdg"), "XDG_STATE_HOME": root.file("state"), "XDG_RUNTIME_DIR": root.file("run"),
      "DISPLAY": xvfb.display, "DBUS_SESSION_BUS_ADDRESS": bus.address, "LANG": "C.UTF-8",
    ]
    // What the bus starts (xfconfd) gets the session's folders, as a session's login sets them.
    try await watcher.call(
      BusInterface.updateActivationEnvironment, destination: .bus, path: .bus, environment, timeout: .seconds(5))
    let session = try BackgroundProcess(
      ["env", "-i"] + environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" } + ["xfce4-session"])
    var servePid: Int32?
    defer {
      session.process.signalGroup(SIGTERM)
      if let servePid { kill(servePid, SIGTERM) }
    }

    // The session starts the service: its name appears on the session's bus.
    let owner = try await poll("the service's name on the Xfce session's bus", timeout: .seconds(60)) {
      guard session.process.exitStatus == nil else {
        throw PollTimedOut(what: "xfce4-session, which exited: \(session.standardError.suffix(2000))")
      }
      return try? await watcher.nameOwner(ServiceNames.busName, timeout: .seconds(2))
    }
    let pid = try await watcher.call(
      BusInterface.getConnectionUnixProcessID, destination: .bus, path: .bus, owner.rawValue, timeout: .seconds(5))
    servePid = Int32(pid)
    let arguments = try String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)
      .split(separator: "\0").map(String.init)
    #expect(arguments == [binary, "serve"])
    // It has the session's display: it meters xfwm4's windows through X11, not the processes.
    let usage = try JSONValue(
      parsing: try await watcher.call(
        ServiceInterface.usage, destination: owner, path: ServiceNames.path, timeout: .seconds(5)))
    #expect(usage["source"]?["backend"]?.stringValue == "x11", "\(usage)")

    // A second start, as a unit or the bus would make one: exit 0, one line, the first one still serves.
    let second = try Subprocess.run(
      command, environment: ShieldBridgeTool.mergedEnvironment(environment), timeout: .seconds(30))
    #expect(second.status == 0, "\(second.error)")
    #expect(
      second.error
        == "shieldbridge serve: notice: another ShieldBridge service already serves org.shieldbridge.ShieldBridge as \(owner); exiting\n"
    )
    #expect(try await watcher.nameOwner(ServiceNames.busName, timeout: .seconds(5)) == owner)
    // Never twice: one `shieldbridge serve` on this bus.
    #expect(Self.services(on: bus.address, binary: binary) == [Int32(pid)])

    await xvfb.shutDown()
  }

  /// The pids of `binary serve` processes whose session bus is `address`.
  static func services(on address: String, binary: String) -> [Int32] {
    let pids = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { Int32($0) }
    return pids.filter { pid in
      guard let cmdline = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"),
        String(decoding: cmdline, as: UTF8.self).split(separator: "\0") == [binary[...], "serve"],
        let environ = FileManager.default.contents(atPath: "/proc/\(pid)/environ")
      else { return false }
      return String(decoding: environ, as: UTF8.self).split(separator: "\0").contains {
        $0 == "DBUS_SESSION_BUS_ADDRESS=\(address)"
      }
    }.sorted()
  }
}
