import DBus
import Foundation
import TestSupport
import Testing

/// Under D-Bus activation, a service that cannot start still leads the user to the cause.
@Suite struct ActivationFailureTests {
  @Test func aBrokenConfigUnderActivationIsShownByTheClient() async throws {
    let sandbox = try Sandbox()
    try sandbox.writeConfig(#"{"rules": [ {"name": "#)
    // The bus starts the real `serve`, with the sandbox's home as a session would give it.
    let services = sandbox.root.file("services")
    try FileManager.default.createDirectory(atPath: services, withIntermediateDirectories: true)
    let starter = sandbox.root.file("serve.sh")
    try writeExecutable(
      starter,
      """
      #!/bin/sh
      export HOME='\(sandbox.root.path)' XDG_CONFIG_HOME='\(sandbox.root.file("config"))'
      export XDG_STATE_HOME='\(sandbox.root.file("state"))'
      exec '\(ShieldBridgeTool.path)' serve

      """)
    try "[D-BUS Service]\nName=org.shieldbridge.ShieldBridge\nExec=\(starter)\n".write(
      toFile: services + "/org.shieldbridge.ShieldBridge.service", atomically: true, encoding: .utf8)
    let bus = try BusDaemon(serviceDirectories: [services])

    let result = try await sandbox.run(["shield", "--app", "Instagram", "--address", bus.address])
    #expect(result.status == 78)
    #expect(
      result.error.hasPrefix("shieldbridge: the ShieldBridge service could not start because of its configuration: "),
      "\(result.error)")
    #expect(result.error.contains(sandbox.configPath), "\(result.error)")
    #expect(!result.error.contains("exited with status"), "\(result.error)")
    withExtendedLifetime(bus) {}
  }
}
