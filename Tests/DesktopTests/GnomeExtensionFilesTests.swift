import Foundation
import TestSupport
import Testing

/// The GNOME Shell extension's two variants as `scripts/install-gnome-extension`
/// installs them. GNOME Shell 43 (this machine's) loads the legacy one in
/// GnomeShellDesktopTests; the ES-module one for GNOME 45 and later cannot be
/// loaded by a 43 shell, so here it is parsed as a module (gjs and node), its
/// core is imported by gjs, and its sources are checked for the legacy APIs
/// that GNOME 45 removed.
@Suite struct GnomeExtensionFilesTests {
  static let uuid = "shieldbridge@shieldbridge.org"

  /// Installs the variant for GNOME Shell `major` (`both`: both, as without gnome-shell) into a new folder.
  static func install(major: String?) async throws -> (TemporaryDirectory, String) {
    let folder = try TemporaryDirectory(prefix: "shieldbridge-extension")
    let script = GnomeShellSession.repositoryPath + "/scripts/install-gnome-extension"
    let result = await (try BackgroundProcess([script, folder.path] + (major.map { [$0] } ?? []))).finish()
    #expect(result.status == 0, "\(result.error)")
    return (folder, folder.file(uuid))
  }

  static func read(_ path: String) throws -> String {
    try String(contentsOfFile: path, encoding: .utf8)
  }

  static func shellVersions(_ path: String) throws -> [String] {
    let metadata = try JSONSerialization.jsonObject(with: Data(try read(path).utf8)) as? [String: Any]
    #expect(metadata?["uuid"] as? String == uuid)
    return metadata?["shell-version"] as? [String] ?? []
  }

  @Test(arguments: ["43", "44"]) func gnome43And44GetTheLegacyEntryPoint(major: String) async throws {
    let (folder, installed) = try await Self.install(major: major)
    _ = folder
    #expect(try Self.read(installed + "/extension.js").contains("function init()"))
    #expect(try Self.shellVersions(installed + "/metadata.json").contains(major))
    // A script: no line may import or export.
    let lines = try Self.read(installed + "/core.js").split(separator: "\n")
    #expect(!lines.contains { $0.hasPrefix("export ") || $0.hasPrefix("import ") })
  }

  @Test func gnome45AndLaterGetAnESModuleThatParsesAndUsesNoLegacyAPI() async throws {
    let gjs = try requiredTool("gjs", package: "gjs")
    let node = try requiredTool("node", package: "nodejs")
    let (folder, installed) = try await Self.install(major: "45")
    let versions = try Self.shellVersions(installed + "/metadata.json")
    #expect(versions.contains("45") && !versions.contains("44") && !versions.contains("43"))

    // gjs reads the installed core.js as an ES module that exports createCore.
    let driver = folder.file("driver.js")
    try "import {createCore} from './\(Self.uuid)/core.js';\nprint(typeof createCore);\n".write(
      toFile: driver, atomically: true, encoding: .utf8)
    let imported = await (try BackgroundProcess([gjs, "-m", driver])).finish()
    #expect(imported.status == 0 && imported.output.contains("function"), "\(imported.output) \(imported.error)")

    // The entry point parses as a module (node: gjs would also resolve the shell's resource:// import).
    let entry = try Self.read(installed + "/extension.js")
    try entry.write(toFile: folder.file("entry.mjs"), atomically: true, encoding: .utf8)
    let parsed = await (try BackgroundProcess([node, "--check", folder.file("entry.mjs")])).finish()
    #expect(parsed.status == 0, "\(parsed.error)")
    #expect(entry.contains("export default class ShieldBridgeExtension extends Extension"))

    // GNOME 45 removed the `imports` object for the shell's modules, ExtensionUtils and init().
    let imports = entry.split(separator: "\n").filter { $0.hasPrefix("import ") }.map(String.init)
    #expect(
      imports == [
        "import Gio from 'gi://Gio';", "import GLib from 'gi://GLib';", "import Meta from 'gi://Meta';",
        "import {Extension} from 'resource:///org/gnome/shell/extensions/extension.js';",
        "import {createCore} from './core.js';",
      ])
    let core = try Self.read(installed + "/core.js")
    for source in [entry, core] {
      for legacy in ["imports.", "ExtensionUtils", "getCurrentExtension", "function init("] {
        #expect(!source.contains(legacy), "\(legacy)")
      }
    }
  }

  @Test func withoutGnomeShellBothVariantsAreInstalledSideBySide() async throws {
    let (folder, installed) = try await Self.install(major: "both")
    _ = folder
    for variant in ["legacy", "module"] {
      for file in ["extension.js", "core.js", "metadata.json"] {
        #expect(FileManager.default.fileExists(atPath: "\(installed)/\(variant)/\(file)"))
      }
    }
  }
}
