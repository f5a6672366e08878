import Foundation
import JSON
import Spawn
import TestSupport
import Testing

@testable import ShieldBridge

/// The browser extension as the package installs it (docs/developing/package.md, "The browser extension"):
/// no developer mode, no `--load-extension` of the test's, no temporary add-on.
///
/// `scripts/install-browser-extension`, which `make deb` runs, stages the
/// package's files under a folder of the sandbox: Chromium's unpacked folder
/// (a link to the extension), the `.crx` packed with a key of the test's own
/// and Google Chrome's external-extensions JSON, Firefox's system add-on link. The browser runs in a mount namespace of its own (`unshare`,
/// as root) where that folder's `usr/share` is laid over the real
/// `/usr/share` (overlayfs, read-only): the browser finds the files at the
/// system paths the package puts them, and nothing outside the namespace sees
/// them. The host manifest is the test's, per user, pointing at the
/// sandbox's launcher (as in the other browser tests).
@Suite("The extension as the package installs it runs in real Chromium and Firefox ESR and talks to the host")
struct BrowserPackagedTests {
  static let repository = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// Stages the package's extension files under `root` with a new key; the packed extension's id.
  static func stage(root: String) async throws -> String {
    let extensionFolder = root + "/usr/share/shieldbridge/webextension"
    try FileManager.default.createDirectory(
      atPath: root + "/usr/share/shieldbridge", withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: BrowserSite.extensionFolder, toPath: extensionFolder)
    // As scripts/build-deb: the developers' README stays out.
    try FileManager.default.removeItem(atPath: extensionFolder + "/README.md")
    let script = repository.appendingPathComponent("scripts/install-browser-extension").path
    let made = try await onOwnThread {
      try Subprocess.run([script, root, root + "/../packaging-key.pem"], timeout: .seconds(120))
    }
    guard made.status == 0 else { throw DevToolsError(message: "install-browser-extension: \(made.error)") }
    let id = made.output.trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(id.count == 32 && id.allSatisfy { ("a"..."p").contains($0) }, "\(id)")
    #expect(id != BrowserSite.chromiumID)
    return id
  }

  /// `browser`'s argv run in a mount namespace where `root`'s `usr/share` lies over `/usr/share`.
  static func overlaid(_ browser: [String], root: String) throws -> [String] {
    let unshare = try requiredTool("unshare", package: "util-linux")
    guard getuid() == 0 else {
      throw DevToolsError(message: "the packaged-extension tests mount an overlay over /usr/share: run them as root")
    }
    let script = #"mount -t overlay overlay -o "lowerdir=$0/usr/share:/usr/share" /usr/share && exec "$@""#
    return [unshare, "--mount", "--propagation", "private", "sh", "-c", script, root] + browser
  }

  @Test("Debian's /usr/bin/chromium loads the unpacked folder without an error; the site is counted and shielded")
  func chromium() async throws {
    _ = try requiredTool("chromium", package: "chromium")
    // Debian's wrapper, which sources /etc/chromium.d/*: its `extensions` passes every entry of
    // /usr/share/chromium/extensions to --load-extension.
    let wrapper = "/usr/bin/chromium"
    let wrapperText = try String(contentsOfFile: wrapper, encoding: .utf8)
    #expect(wrapperText.contains("/etc/chromium.d/"), "\(wrapper) sources no /etc/chromium.d")
    let service = try await SiteService(rule: SiteService.rule(limit: 2, grant: 60, grants: 3))
    let root = service.sandbox.root.file("package")
    let packedID = try await Self.stage(root: root)
    // Chromium's folder holds the unpacked extension alone (no JSON: each entry is loaded as a folder);
    // Google Chrome's holds its external-extension file for the .crx.
    let folder = root + "/usr/share/chromium/extensions"
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["shieldbridge"])
    #expect(FileManager.default.fileExists(atPath: folder + "/shieldbridge/manifest.json"))
    let json = try String(
      contentsOfFile: root + "/usr/share/google-chrome/extensions/\(packedID).json", encoding: .utf8)
    #expect(json.contains(#""external_crx": "/usr/share/shieldbridge/shieldbridge.crx""#), "\(json)")
    let profile = service.sandbox.root.file("chromium")
    // The package's host manifest allows both ids: the unpacked folder's (its manifest's key) and the packed one's.
    try FileManager.default.createDirectory(
      atPath: profile + "/NativeMessagingHosts", withIntermediateDirectories: true)
    let manifest = JSONValue.object([
      ("name", .string(BrowserSite.hostName)), ("description", "ShieldBridge"),
      ("path", .string(service.launcher)), ("type", "stdio"),
      (
        "allowed_origins",
        .array([.string("chrome-extension://\(BrowserSite.chromiumID)/"), .string("chrome-extension://\(packedID)/")])
      ),
    ])
    try manifest.serialized.write(
      toFile: profile + "/NativeMessagingHosts/\(BrowserSite.hostName).json", atomically: true, encoding: .utf8)
    let port = service.port
    let rules = "MAP instagram.com 127.0.0.1:\(port), MAP www.instagram.com 127.0.0.1:\(port), MAP * ~NOTFOUND"
    // No --load-extension of ours: the wrapper's own.
    let browser = try DevToolsPipe(
      browser: try Self.overlaid(
        [
          wrapper, "--headless=new", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(profile)",
          "--host-resolver-rules=\(rules)", "--ignore-certificate-errors", "--no-first-run",
          "--no-default-browser-check", "--lang=en-US", "about:blank",
        ], root: root),
      environment: service.environment.merging(["LANGUAGE": "en_US"]) { $1 }, folder: service.sandbox.root.path)

    let worker = try await poll("the extension's service worker", timeout: .seconds(90)) {
      try await browser.targets().first {
        $0["type"]?.stringValue == "service_worker"
          && $0["url"]?.stringValue == "chrome-extension://\(BrowserSite.chromiumID)/background.js"
      }
    }
    let session = try await browser.attach(worker["targetId"]?.stringValue ?? "")
    let state = try await poll("the extension's state") {
      (try? await browser.evaluate(
        "chrome.management.getSelf().then(s => s.enabled + ' ' + s.installType)", session: session))?.stringValue
    }
    // Loaded unpacked from the command line, as Debian's webext packages are: enabled, no store, no .crx.
    #expect(state == "true development", "\(state)")

    let page = try await poll("the browser's tab") {
      try await browser.targets().first { $0["type"]?.stringValue == "page" }
    }
    let tab = try await browser.attach(page["targetId"]?.stringValue ?? "")
    try await browser.call("Page.navigate", .object([("url", "https://www.instagram.com/?from=test")]), session: tab)
    _ = try await poll("the site's time to be counted", timeout: .seconds(30)) {
      (try await service.usage()?["usedSeconds"]?.integerValue ?? 0) >= 1 ? true : nil
    }
    _ = try await poll("the shield page", timeout: .seconds(45)) {
      try await browser.targets().first {
        $0["type"]?.stringValue == "page"
          && $0["url"]?.stringValue == "chrome-extension://\(BrowserSite.chromiumID)/shield.html?site=instagram.com"
      }
    }
    #expect(try await service.usage()?["overLimit"]?.boolValue == true)
    _ = await browser.close()
    // What the dialog says at each start, Chromium writes to its log as well.
    let stderr = browser.standardError
    #expect(!stderr.contains("Failed to load extension"), "\(stderr.suffix(3000))")
    #expect(!stderr.contains("Manifest file is missing or unreadable"), "\(stderr.suffix(3000))")
    let log = await service.finish()
    #expect(!log.contains("fatal"), "\(log)")
    let preferences = try JSONValue(
      parsing: (try? String(contentsOfFile: profile + "/Default/Preferences", encoding: .utf8)) ?? "{}")
    #expect(preferences["extensions"]?["ui"]?["developer_mode"]?.boolValue != true)
  }

  @Test("Firefox ESR runs the unsigned system add-on from /usr/share/mozilla/extensions with signatures required")
  func firefox() async throws {
    let firefox = try requiredTool("firefox-esr", package: "firefox-esr")
    let service = try await SiteService(rule: SiteService.rule(limit: 2, grant: 60, grants: 3))
    let root = service.sandbox.root.file("package")
    _ = try await Self.stage(root: root)
    try service.installManifest(
      in: service.sandbox.root.file(".mozilla/native-messaging-hosts"),
      allowed: ("allowed_extensions", "shieldbridge@shieldbridge.org"))
    let profile = service.sandbox.root.file("firefox")
    // Firefox's own default: add-ons must be signed. The system add-on needs no exception.
    try Marionette.prepareProfile(profile, unsignedAddons: false)
    let browser = try Marionette(
      firefox: try Self.overlaid(
        [firefox, "--headless", "--marionette", "--no-remote", "--profile", profile, "about:blank"], root: root),
      profile: profile, environment: service.environment, folder: service.sandbox.root.path)

    try await browser.call("WebDriver:NewSession", .object([("acceptInsecureCerts", true)]))
    let site = "https://www.instagram.com:\(service.port)/?from=test"
    try await browser.call("WebDriver:Navigate", .object([("url", .string(site))]))
    _ = try await poll("the site's time to be counted", timeout: .seconds(30)) {
      (try await service.usage()?["usedSeconds"]?.integerValue ?? 0) >= 1 ? true : nil
    }
    _ = try await poll("the shield page", timeout: .seconds(45)) {
      let address = try await browser.currentURL()
      return address.hasPrefix("moz-extension://") && address.hasSuffix("/shield.html?site=instagram.com")
        ? address : nil
    }
    #expect(try await service.usage()?["overLimit"]?.boolValue == true)
    await browser.close()
    _ = await service.finish()
    // Where Firefox found it: the system share folder, active, unsigned.
    let addons =
      try JSONValue(
        parsing: try String(contentsOfFile: profile + "/extensions.json", encoding: .utf8))["addons"]?.arrayValue ?? []
    let addon = try #require(addons.first { $0["id"]?.stringValue == "shieldbridge@shieldbridge.org" })
    #expect(addon["location"]?.stringValue == "app-system-share")
    #expect(addon["active"]?.boolValue == true)
    #expect(addon["path"]?.stringValue == "/usr/share/shieldbridge/webextension")
    let preferences = (try? String(contentsOfFile: profile + "/prefs.js", encoding: .utf8)) ?? ""
    #expect(!preferences.contains("xpinstall.signatures.required"), "\(preferences)")
  }
}
