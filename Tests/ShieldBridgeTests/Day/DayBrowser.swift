import Foundation
import JSON
import TestSupport

/// The browser of a scripted day: Debian's Chromium or Firefox ESR in a window on the desk's
/// display, with the extension and the real native host, opened on the covered site.
enum DayBrowser: String, Sendable, CustomStringConvertible {
  case chromium
  case firefox

  /// The class of its windows (`WM_CLASS`'s class, which xdotool matches without case).
  var windowClass: String {
    switch self {
    case .chromium: "chromium"
    case .firefox: "firefox-esr"
    }
  }

  var description: String {
    switch self {
    case .chromium: "Chromium"
    case .firefox: "Firefox ESR"
    }
  }
}

/// A running browser of the day, driven through DevTools (Chromium) or Marionette (Firefox).
final class DayBrowserSession: Sendable {
  let kind: DayBrowser
  private let devTools: DevToolsPipe?
  private let marionette: Marionette?

  /// Starts `kind` windowed with `environment` (the desk's display on top of the service's), the
  /// host manifest naming `launcher` in its profile under `root`, and the site at `port` open.
  init(_ kind: DayBrowser, environment: [String: String], root: String, port: Int, launcher: String) async throws {
    self.kind = kind
    let folder = BrowserSite.extensionFolder
    switch kind {
    case .chromium:
      let chromium = try requiredTool("chromium", package: "chromium")
      let profile = root + "/chromium"
      // With --user-data-dir, Chromium reads user-level host manifests from there.
      try BrowserSite.installManifest(
        in: profile + "/NativeMessagingHosts", launcher: launcher,
        allowed: ("allowed_origins", "chrome-extension://\(BrowserSite.chromiumID)/"))
      // The covered names go to the local server; every other name fails, so nothing reaches the network.
      let rules = "MAP instagram.com 127.0.0.1:\(port), MAP www.instagram.com 127.0.0.1:\(port), MAP * ~NOTFOUND"
      devTools = try DevToolsPipe(
        browser: [
          chromium, "--ozone-platform=x11", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(profile)",
          "--load-extension=\(folder)", "--disable-extensions-except=\(folder)", "--host-resolver-rules=\(rules)",
          "--ignore-certificate-errors", "--no-first-run", "--no-default-browser-check",
          "--disable-background-networking", "--password-store=basic", "--lang=en-US", "https://instagram.com/",
        ],
        environment: environment.merging(["LANGUAGE": "en_US"]) { $1 }, folder: root)
      marionette = nil
    case .firefox:
      let firefox = try requiredTool("firefox-esr", package: "firefox-esr")
      // The sandbox's HOME is the browser's home: the per-user manifest folder is there.
      try BrowserSite.installManifest(
        in: root + "/.mozilla/native-messaging-hosts", launcher: launcher,
        allowed: ("allowed_extensions", "shieldbridge@shieldbridge.org"))
      let profile = root + "/firefox"
      try FileManager.default.createDirectory(atPath: profile, withIntermediateDirectories: true)
      // Firefox has no host-resolver rules: the covered names resolve to 127.0.0.1 and every
      // other request goes to a proxy that is not there (BrowserFirefoxTests).
      let preferences = [
        ("marionette.port", "0"),
        ("network.dns.localDomains", "\"instagram.com,www.instagram.com\""),
        ("network.proxy.type", "1"),
        ("network.proxy.http", "\"127.0.0.1\""), ("network.proxy.http_port", "9"),
        ("network.proxy.ssl", "\"127.0.0.1\""), ("network.proxy.ssl_port", "9"),
        ("network.proxy.no_proxies_on", "\"instagram.com, www.instagram.com\""),
        ("xpinstall.signatures.required", "false"),
        ("browser.shell.checkDefaultBrowser", "false"),
        ("datareporting.policy.dataSubmissionEnabled", "false"),
        ("toolkit.telemetry.reportingpolicy.firstRun", "false"),
        ("app.update.disabledForTesting", "true"),
        ("browser.aboutwelcome.enabled", "false"),
        ("browser.startup.homepage_override.mstone", "\"ignore\""),
      ]
      try preferences.map { "user_pref(\"\($0.0)\", \($0.1));\n" }.joined().write(
        toFile: profile + "/user.js", atomically: true, encoding: .utf8)
      let browser = try Marionette(
        firefox: [firefox, "--marionette", "--no-remote", "--profile", profile, "about:blank"],
        profile: profile, environment: environment.merging(["MOZ_ENABLE_WAYLAND": "0"]) { $1 }, folder: root)
      marionette = browser
      devTools = nil
      try await browser.call("WebDriver:NewSession", .object([("acceptInsecureCerts", true)]), timeout: .seconds(60))
      let installed = try await browser.call(
        "Addon:Install", .object([("path", .string(folder)), ("temporary", true)]))
      guard installed["value"]?.stringValue == "shieldbridge@shieldbridge.org" else {
        throw DevToolsError(message: "Firefox installed \(installed.serialized), not the extension")
      }
      try await browser.call("WebDriver:Navigate", .object([("url", .string("https://www.instagram.com:\(port)/"))]))
    }
  }

  /// The address the (one) tab shows.
  func currentURL() async throws -> String {
    if let marionette { return try await marionette.currentURL() }
    guard let devTools else { return "" }
    let page = try await devTools.targets().first { $0["type"]?.stringValue == "page" }
    return page?["url"]?.stringValue ?? ""
  }

  /// The text of the element `id` on the page the tab shows, or "" while there is none.
  func text(ofElement id: String) async throws -> String {
    let expression = "document.getElementById('\(id)')?.textContent ?? ''"
    if let marionette { return (try? await marionette.execute("return \(expression)"))?.stringValue ?? "" }
    guard let devTools,
      let page = try await devTools.targets().first(where: { $0["type"]?.stringValue == "page" }),
      let target = page["targetId"]?.stringValue
    else { return "" }
    let session = try await devTools.attach(target)
    return (try? await devTools.evaluate(expression, session: session))?.stringValue ?? ""
  }

  /// What the browser wrote on stderr (for a failure message).
  var standardError: String { devTools?.standardError ?? marionette?.standardError ?? "" }

  /// Closes the browser and waits for its end.
  func close() async {
    if let devTools { _ = await devTools.close() }
    if let marionette { await marionette.close() }
  }
}
