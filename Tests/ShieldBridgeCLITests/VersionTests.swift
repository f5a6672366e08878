import DBus
import Foundation
import JSON
import Notifications
import ShieldBridge
import Testing
import Version

@testable import ShieldBridgeCLI

/// One version: `VERSION` is its source, and every place that tells it says the same
/// (the package takes it from `VERSION` in the Makefile; PackageTests checks the built one).
@Suite("One version, from VERSION")
struct VersionTests {
  /// The top of the tree.
  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path

  static func text(_ path: String) throws -> String {
    try String(contentsOfFile: repository + "/" + path, encoding: .utf8)
  }

  static var version: String {
    get throws { try text("VERSION").trimmingCharacters(in: .whitespacesAndNewlines) }
  }

  @Test func versionIsThreeNumbers() throws {
    let parts = try Self.version.split(separator: ".", omittingEmptySubsequences: false)
    #expect(parts.count == 3 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) })
  }

  @Test func theBinaryTellsIt() async throws {
    #expect(try Self.version == shieldBridgeVersion)
    let ending = await Command.root.run(["--version"])
    #expect(ending == Command.Ending(status: .success, output: "shieldbridge \(try Self.version)"))
    #expect(NotificationServer.Configuration().information.version == (try Self.version))
  }

  @Test func theDBusIntrospectionTellsIt() throws {
    let annotation = "<annotation name=\"org.shieldbridge.Version\" value=\"\(try Self.version)\"/>"
    #expect(ServiceInterface.contract.introspectionXML.contains(annotation))
  }

  @Test func theBrowserExtensionTellsIt() throws {
    let manifest = try JSONValue(parsing: Self.text("integrations/webextension/manifest.json"))
    #expect(manifest["version"]?.stringValue == (try Self.version))
  }

  @Test(arguments: ["legacy", "module"])
  func theGnomeShellExtensionTellsIt(variant: String) throws {
    let metadata = try JSONValue(parsing: Self.text("integrations/gnome-shell/\(variant)/metadata.json"))
    #expect(metadata["version-name"]?.stringValue == (try Self.version))
  }

  @Test func theMakefileTakesItFromVERSION() throws {
    #expect(try Self.text("Makefile").contains("VERSION := $(shell cat VERSION)"))
  }
}
