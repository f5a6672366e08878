import Foundation
import JSON
import TestSupport
import Testing

@testable import ShieldBridge

/// Debian's Firefox ESR, headless, driven through Marionette, with the same
/// extension installed as a temporary add-on and the host manifest in the
/// sandbox's `~/.mozilla/native-messaging-hosts/`.
///
/// Firefox has no host-resolver rules: `network.dns.localDomains` makes the
/// covered names resolve to 127.0.0.1 and the address names the server's port
/// (a registrable domain has no port); every other request goes to a proxy
/// that is not there, so nothing reaches the network.
@Suite("A covered site in real Firefox ESR is shielded at the limit and unlocked by the page's task")
struct BrowserFirefoxTests {
  @Test("Open the site, count it, see the shield page, answer its task, back to the site")
  func limitPuzzleAndBack() async throws {
    let firefox = try requiredTool("firefox-esr", package: "firefox-esr")
    let service = try await SiteService(rule: SiteService.rule(limit: 3, grant: 60, grants: 3))
    // The sandbox's HOME is the browser's home: the per-user manifest folder is there.
    try service.installManifest(
      in: service.sandbox.root.file(".mozilla/native-messaging-hosts"),
      allowed: ("allowed_extensions", "shieldbridge@shieldbridge.org"))
    let profile = service.sandbox.root.file("firefox")
    try Marionette.prepareProfile(profile)
    let browser = try Marionette(
      firefox: [firefox, "--headless", "--marionette", "--no-remote", "--profile", profile, "about:blank"],
      profile: profile, environment: service.environment, folder: service.sandbox.root.path)

    try await browser.call("WebDriver:NewSession", .object([("acceptInsecureCerts", true)]))
    let installed = try await browser.call(
      "Addon:Install", .object([("path", .string(BrowserSite.extensionFolder)), ("temporary", true)]))
    #expect(installed["value"]?.stringValue == "shieldbridge@shieldbridge.org")
    let site = "https://www.instagram.com:\(service.port)/?from=test"
    try await browser.call("WebDriver:Navigate", .object([("url", .string(site))]))
    _ = try await poll("the site's time to be counted", timeout: .seconds(20)) {
      (try await service.usage()?["usedSeconds"]?.integerValue ?? 0) >= 1 ? true : nil
    }
    let shield = try await poll("the shield page", timeout: .seconds(30)) {
      let address = try await browser.currentURL()
      return address.hasPrefix("moz-extension://") && address.hasSuffix("/shield.html?site=instagram.com")
        ? address : nil
    }
    #expect(try await service.usage()?["overLimit"]?.boolValue == true)
    let task = try await poll("the task on the shield page", timeout: .seconds(20)) {
      // While the page loads, the script may fail: that is "not yet".
      let text =
        (try? await browser.execute(
          "return document.getElementById('task').hidden ? '' : document.getElementById('question').textContent"
        ))?.stringValue ?? ""
      return BrowserSite.answer(to: text)
    }
    #expect(try await browser.execute("return document.getElementById('summary').textContent") == "Instagram is paused")
    try await browser.execute(
      "document.getElementById('answer').value = '\(task)'; document.getElementById('task').requestSubmit();")
    _ = try await poll("the tab back on the site", timeout: .seconds(30)) {
      try await browser.currentURL() == site ? true : nil
    }
    let unlocked = try await poll("the grant in Usage(), and the site counted again", timeout: .seconds(20)) {
      let rule = try await service.usage()
      let granted = rule?["grantsToday"]?.integerValue == 1 && rule?["overLimit"]?.boolValue == false
      // Back on the site, its time counts again.
      return granted && rule?["counting"]?.boolValue == true ? rule : nil
    }
    #expect((unlocked["remainingSeconds"]?.integerValue ?? 0) > 0, "\(shield)")
    await browser.close()
    _ = await service.finish()
  }
}
