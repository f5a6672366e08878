import DBus
import Foundation
import Notifications
import TestSupport
import Testing

/// The service started with the session leaves `org.freedesktop.Notifications` to the desktop's own server.
///
/// A private bus on which both dunst and xfce4-notifyd are activatable (their
/// Debian service files, as on a machine with both installed), `serve` started
/// first, and xfce4-notifyd started a few seconds later, as Xfce's autostart
/// starts it after the service's entry. Before, the service's first call
/// activated a server (dunst or xfce4-notifyd, whichever service file the bus
/// took) and the desktop's own then found the name taken and exited.
@Suite struct NotificationServerStartTests {
  static let configuration =
    #"{"rules":[{"name":"social","apps":[{"name":"Instagram","class":"Instagram"}],"dailyLimitMinutes":5}]}"#

  @Test("serve activates no server at start; xfce4-notifyd started later keeps the name and shows the shield")
  func theDesktopsServerKeepsTheName() async throws {
    _ = try requiredTool("dunst", package: "dunst")
    let xvfb = try await XvfbServer()
    let sandbox = try Sandbox()
    try sandbox.writeConfig(Self.configuration)
    let services = sandbox.root.file("services")
    try FileManager.default.createDirectory(atPath: services, withIntermediateDirectories: true)
    for (file, exec) in [
      ("org.knopwob.dunst.service", "/usr/bin/dunst"),
      ("org.xfce.xfce4-notifyd.Notifications.service", XfceNotifyd.executable),
    ] {
      try "[D-BUS Service]\nName=org.freedesktop.Notifications\nExec=\(exec)\n".write(
        toFile: services + "/" + file, atomically: true, encoding: .utf8)
    }
    let bus = try BusDaemon(serviceDirectories: [services])
    let desktop = [
      "DISPLAY": xvfb.display, "HOME": sandbox.root.path, "XDG_RUNTIME_DIR": sandbox.root.path,
      "NO_AT_BRIDGE": "1", "GSETTINGS_BACKEND": "memory",
    ]
    let watcherConnection = try Connection(.address(bus.address))
    defer { watcherConnection.close() }
    // What the bus would start gets the session's display, as a log-in gives it.
    _ = try await watcherConnection.call(
      .bus, .bus, .bus, MemberName("UpdateActivationEnvironment"), desktop, timeout: .seconds(5))
    let notifications = try await NameOwnerTracker.track(
      BusName("org.freedesktop.Notifications"), on: watcherConnection)

    let watcher = try await ServiceWatcher(address: bus.address)
    let serve = try await ServeProcess(
      sandbox: sandbox, address: bus.address, watcher: watcher, environment: ["DISPLAY": xvfb.display])
    // The session's autostart starts the desktop's server a few seconds after the service.
    try await Task.sleep(for: .seconds(3))
    #expect(
      notifications.owner == nil,
      "the bus started a notification server for the service; serve said:\n\(serve.logLines.joined(separator: "\n"))")
    let notifyd = try await XfceNotifyd(bus: bus, environment: desktop)
    let owner = try #require(notifyd.owner)

    let shield = try await sandbox.run(["shield", "--app", "Instagram", "--address", bus.address])
    #expect(shield.status == 0, "\(shield.error)")
    let bubble = try await notifyd.waitForBubble()
    #expect(bubble.width > 0)
    #expect(notifications.owner == owner, "xfce4-notifyd lost the name: \(notifyd.standardError)")
    try await notifyd.stop()
    _ = await serve.terminate()
    withExtendedLifetime((xvfb, bus, watcher)) {}
  }

  @Test("Where no server comes within the wait, the first shield after it has the bus start one")
  func activationWhenNoneComes() async throws {
    _ = try requiredTool("dunst", package: "dunst")
    let xvfb = try await XvfbServer()
    let sandbox = try Sandbox()
    try sandbox.writeConfig(Self.configuration)
    let services = sandbox.root.file("services")
    try FileManager.default.createDirectory(atPath: services, withIntermediateDirectories: true)
    try "[D-BUS Service]\nName=org.freedesktop.Notifications\nExec=/usr/bin/dunst\n".write(
      toFile: services + "/org.knopwob.dunst.service", atomically: true, encoding: .utf8)
    let bus = try BusDaemon(serviceDirectories: [services])
    let connection = try Connection(.address(bus.address))
    defer { connection.close() }
    _ = try await connection.call(
      .bus, .bus, .bus, MemberName("UpdateActivationEnvironment"),
      ["DISPLAY": xvfb.display, "HOME": sandbox.root.path, "XDG_RUNTIME_DIR": sandbox.root.path],
      timeout: .seconds(5))
    let notifications = try await NameOwnerTracker.track(BusName("org.freedesktop.Notifications"), on: connection)

    let watcher = try await ServiceWatcher(address: bus.address)
    let started = ContinuousClock.now
    let serve = try await ServeProcess(
      sandbox: sandbox, address: bus.address, watcher: watcher, environment: ["DISPLAY": xvfb.display])
    // The wait is a bound of time: the test lets it pass, as a session without a server would.
    try await Task.sleep(until: started + ServerActivation.desktopBound + .seconds(1))
    #expect(notifications.owner == nil, "a server was started during the wait")
    let shield = try await sandbox.run(["shield", "--app", "Instagram", "--address", bus.address])
    #expect(shield.status == 0, "\(shield.error)")
    let owner = try #require(notifications.owner, "no server was started for the shield")
    let pid = try await connection.processID(of: owner)
    defer { kill(Int32(pid), SIGTERM) }
    let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")
    #expect(executable.hasSuffix("/dunst"), "\(executable)")
    _ = await serve.terminate()
    withExtendedLifetime((xvfb, bus, watcher)) {}
  }
}
