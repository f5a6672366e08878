import Foundation
import JSON
import Spawn
import TestSupport
import Testing

@Suite("make install's native-messaging launcher and host manifests")
struct NativeHostInstallTests {
  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// Runs scripts/install-native-host PREFIX DESTDIR WHERE with `home` as HOME.
  private static func install(prefix: String, destination: String, where place: String, home: String) throws
    -> Subprocess.Result
  {
    try Subprocess.run(
      [Self.repository.appendingPathComponent("scripts/install-native-host").path, prefix, destination, place],
      environment: ShieldBridgeTool.mergedEnvironment(["HOME": home]), timeout: .seconds(30))
  }

  @Test("Per user: the manifests name the launcher by its absolute path, and it starts the host for the browser")
  func perUser() async throws {
    let root = try TemporaryDirectory()
    let prefix = root.file("prefix")
    try FileManager.default.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: prefix + "/bin/shieldbridge", withDestinationPath: ShieldBridgeTool.path)
    let home = root.file("home")
    let result = try await onOwnThread { try Self.install(prefix: prefix, destination: "", where: "user", home: home) }
    #expect(result.status == 0, "\(result.error)")
    for (path, key, value) in [
      (".mozilla/native-messaging-hosts", "allowed_extensions", "shieldbridge@shieldbridge.org"),
      (
        ".config/chromium/NativeMessagingHosts", "allowed_origins",
        "chrome-extension://hahnefmefkidoenjmmneibdofpfdenhi/"
      ),
    ] {
      let text = try String(
        contentsOfFile: root.file("home/\(path)/org.shieldbridge.shieldbridge.json"), encoding: .utf8)
      let manifest = try JSONValue(parsing: text)
      #expect(manifest["name"] == "org.shieldbridge.shieldbridge")
      #expect(manifest["type"] == "stdio")
      #expect(manifest["path"]?.stringValue == prefix + "/lib/shieldbridge/native-host")
      #expect(manifest[key]?.arrayValue == [.string(value)])
    }
    // The launcher runs the host: without a browser's arguments it refuses, with them it serves until stdin ends.
    let launcher = prefix + "/lib/shieldbridge/native-host"
    let refused = try await onOwnThread { try Subprocess.run([launcher], timeout: .seconds(30)) }
    #expect(refused.status == 64)
    let harness = try await SiteHarness()
    let environment = ShieldBridgeTool.mergedEnvironment(
      harness.sandbox.serviceEnvironment(address: harness.bus.address))
    let served = try await onOwnThread {
      try Subprocess.run(
        [launcher, NativeHostProcess.origin],
        input: NativeHostProcess.frame(Array(#"{"type":"focus","site":"instagram.com"}"#.utf8)),
        environment: environment, timeout: .seconds(30))
    }
    #expect(served.status == 0, "\(served.error)")
    #expect(served.output.contains(#""covered":true"#), "\(served.output)")
  }

  @Test("System-wide into a staging DESTDIR: Firefox's and Chromium's system folders, the path without DESTDIR")
  func systemWide() throws {
    let root = try TemporaryDirectory()
    let result = try Self.install(
      prefix: "/usr/local", destination: root.path, where: "system", home: root.file("home"))
    #expect(result.status == 0, "\(result.error)")
    for folder in ["usr/lib/mozilla/native-messaging-hosts", "etc/chromium/native-messaging-hosts"] {
      let text = try String(contentsOfFile: root.file("\(folder)/org.shieldbridge.shieldbridge.json"), encoding: .utf8)
      #expect(try JSONValue(parsing: text)["path"] == "/usr/local/lib/shieldbridge/native-host")
    }
    let launcher = try String(contentsOfFile: root.file("usr/local/lib/shieldbridge/native-host"), encoding: .utf8)
    #expect(launcher.contains(#"exec /usr/local/bin/shieldbridge native-host "$@""#))
    #expect(!FileManager.default.fileExists(atPath: root.file("home/.mozilla")))
    #expect(try Self.install(prefix: "relative", destination: root.path, where: "system", home: root.path).status == 64)
  }
}
