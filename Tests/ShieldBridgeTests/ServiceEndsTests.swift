import DBus
import Foundation
import JSON
import ShieldBridge
import Spawn
import TestSupport
import Testing

/// Issue 22, point 5: a service that ends comes back while the session lasts,
/// and until it does, `status` and the browser say plainly that nothing counts.
@Suite("When the service ends: the unit restarts it, and status and the native host say no service counts")
struct ServiceEndsTests {
  static let plainLine = "no ShieldBridge service is running: nothing is counted"

  /// The unit as `make install` writes it, with the built binary as `@BINDIR@`'s.
  static func installedUnit(in folder: TemporaryDirectory) throws -> String {
    let binary = ShieldBridgeTool.path
    let bindir = URL(fileURLWithPath: binary).deletingLastPathComponent().path
    let template = try String(
      contentsOfFile: GnomeShellSession.repositoryPath + "/examples/systemd/shieldbridge.service", encoding: .utf8)
    let path = folder.file("shieldbridge.service")
    try template.replacingOccurrences(of: "@BINDIR@", with: bindir).write(
      toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  @Test("The systemd unit restarts the service whenever it ends, except after a stop or a wrong configuration")
  func unitRestartsAlways() throws {
    let folder = try TemporaryDirectory(prefix: "shieldbridge-unit")
    let unit = try Self.installedUnit(in: folder)
    // systemd's own parser: an unknown key or a bad value is a line on stderr.
    let analyze = try requiredTool("systemd-analyze", package: "systemd")
    let runtime = folder.file("run")
    try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
    try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: runtime)
    let verified = try Subprocess.run(
      [analyze, "verify", "--user", unit], environment: ["PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": runtime],
      timeout: .seconds(60))
    #expect(verified.status == 0, "\(verified.output) \(verified.error)")
    #expect(verified.error.isEmpty, "\(verified.error)")

    var service: [String: String] = [:]
    var unitSection: [String: String] = [:]
    var section = ""
    for line in try String(contentsOfFile: unit, encoding: .utf8).split(separator: "\n") {
      if line.hasPrefix("[") {
        section = String(line)
        continue
      }
      guard !line.hasPrefix("#"), let equals = line.firstIndex(of: "=") else { continue }
      let key = String(line[..<equals])
      let value = String(line[line.index(after: equals)...])
      if section == "[Service]" { service[key] = value }
      if section == "[Unit]" { unitSection[key] = value }
    }
    #expect(service["Restart"] == "always")
    let delay = try #require(service["RestartSec"].flatMap { Int($0) })
    #expect((1...10).contains(delay))
    // A configuration that cannot be used fails the same way again: not restarted.
    #expect(service["RestartPreventExitStatus"]?.split(separator: " ") == ["78"])
    // A crash loop (or a second service that finds the name owned) ends as failed, not forever.
    let burst = try #require(unitSection["StartLimitBurst"].flatMap { Int($0) })
    let interval = try #require(unitSection["StartLimitIntervalSec"].flatMap { Int($0) })
    #expect(burst * delay < interval)
  }

  @Test("status, with no service on a private bus, says first and plainly that nothing is counted")
  func statusSaysNoServiceCounts() async throws {
    let sandbox = try Sandbox()
    try sandbox.writeConfig(StatusUsageTests.config)
    _ = try sandbox.store.recordUsage(["social": 190], on: sandbox.store.today)
    let bus = try BusDaemon()
    let text = try await sandbox.run(["status", "--address", bus.address])
    #expect(text.status == 0, "\(text.error)")
    #expect(text.output.hasPrefix(Self.plainLine + "\nToday: "), "\(text.output)")
    let json = try await sandbox.run(["status", "--json", "--address", bus.address])
    #expect(json.status == 0)
    #expect(json.error == "shieldbridge status: \(Self.plainLine)\n")
    let parsed = try JSONValue(parsing: json.output)
    #expect(parsed["source"]?["service"] == false)
  }

  @Test("status with a running service does not say it")
  func statusWithAService() async throws {
    let harness = try await SiteHarness()
    let host = try harness.host()
    try host.focus("instagram.com")
    _ = try await host.state("instagram.com")
    let text = try await harness.sandbox.run(["status", "--address", harness.bus.address])
    #expect(text.status == 0, "\(text.error)")
    #expect(!text.output.contains(Self.plainLine), "\(text.output)")
    try host.closeInput()
    #expect(await host.exitStatus() == 0)
  }

  @Test("The native host answers noService when no service runs and the bus can start none")
  func nativeHostWithoutAService() async throws {
    let sandbox = try Sandbox()
    try sandbox.writeConfig(SiteHarness.configuration())
    let bus = try BusDaemon()
    let host = try NativeHostProcess(
      arguments: [NativeHostProcess.origin], environment: sandbox.serviceEnvironment(address: bus.address))
    try host.send(json(["type": "hello", "version": 1, "language": "de-DE"]))
    try host.focus("instagram.com")
    let reply = try await host.message("the answer without a service") { $0["type"] != nil }
    #expect(reply["type"] == "noService", "\(reply)")
    #expect(reply["text"] == "Kein ShieldBridge-Dienst läuft: Es wird nichts gezählt.")
    #expect(reply["message"]?.stringValue?.contains("not running") == true)
    // The host keeps serving: a later focus is asked again, and answered the same.
    let mark = host.received.count
    try host.focus("youtube.com")
    let again = try await host.message("the second answer", after: mark) { $0["type"] != nil }
    #expect(again["type"] == "noService")
    try host.closeInput()
    #expect(await host.exitStatus() == 0)
  }

  @Test("A service that is killed is reported to the browser at once as noService")
  func nativeHostToldWhenTheServiceEnds() async throws {
    let harness = try await SiteHarness()
    let host = try harness.host()
    try host.focus("instagram.com")
    _ = try await host.state("instagram.com")
    let watcher = try Connection(.address(harness.bus.address))
    defer { watcher.close() }
    let owner = try #require(try await watcher.nameOwner(ServiceNames.busName))
    let pid = try await watcher.call(
      BusInterface.getConnectionUnixProcessID, destination: .bus, path: .bus, owner.rawValue, timeout: .seconds(10))
    let mark = host.received.count
    kill(pid_t(pid), SIGTERM)
    let told = try await host.message("noService after the service ended", after: mark) {
      $0["type"] == "noService"
    }
    #expect(told["text"] == "No ShieldBridge service is running: nothing is counted.")
    try host.closeInput()
    #expect(await host.exitStatus() == 0)
  }
}
