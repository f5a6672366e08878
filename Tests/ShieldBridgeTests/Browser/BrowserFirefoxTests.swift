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

  @Test("A covered site in a window.open popup, in front: counted, and the shield page in the popup's tab")
  func popupWindow() async throws {
    let firefox = try requiredTool("firefox-esr", package: "firefox-esr")
    let service = try await SiteService(rule: SiteService.rule(limit: 6, grant: 5, grants: 1))
    try service.installManifest(
      in: service.sandbox.root.file(".mozilla/native-messaging-hosts"),
      allowed: ("allowed_extensions", "shieldbridge@shieldbridge.org"))
    let profile = service.sandbox.root.file("firefox")
    try Marionette.prepareProfile(profile)
    // A page of a site no rule covers, whose button opens the covered site in a popup window.
    let popupAddress = "https://www.instagram.com:\(service.port)/reels"
    try """
    <!doctype html><title>links</title>
    <button id="open" onclick="document.title = window.open('\(popupAddress)', 'ig', 'popup,width=700,height=500') ? 'opened' : 'blocked'">open</button>
    """.write(toFile: service.sandbox.root.file("site/open.html"), atomically: true, encoding: .utf8)
    let browser = try Marionette(
      firefox: [firefox, "--headless", "--marionette", "--no-remote", "--profile", profile, "about:blank"],
      profile: profile, environment: service.environment, folder: service.sandbox.root.path)
    try await browser.call("WebDriver:NewSession", .object([("acceptInsecureCerts", true)]))
    _ = try await browser.call(
      "Addon:Install", .object([("path", .string(BrowserSite.extensionFolder)), ("temporary", true)]))
    try await browser.call(
      "WebDriver:Navigate", .object([("url", .string("https://www.reddit.com:\(service.port)/open.html"))]))
    let opener = try await browser.call("WebDriver:GetWindowHandle")["value"]?.stringValue ?? ""
    try await Task.sleep(for: .seconds(2))
    #expect(try await service.usage()?["counting"]?.boolValue == false)

    // A person's click on the button: a user gesture, so the popup blocker lets the window open.
    let found = try await browser.call(
      "WebDriver:FindElement", .object([("using", "css selector"), ("value", "#open")]))
    let element = try #require(found["value"]?["element-6066-11e4-a52e-4f735466cecf"]?.stringValue, "\(found)")
    try await browser.call("WebDriver:ElementClick", .object([("id", .string(element))]))
    #expect(try await browser.execute("return document.title") == "opened")
    let popup = try await poll("the popup window", timeout: .seconds(30)) {
      // Marionette answers this command with the bare list.
      let answer = try await browser.call("WebDriver:GetWindowHandles")
      let handles = answer.arrayValue ?? answer["value"]?.arrayValue ?? []
      return handles.compactMap(\.stringValue).first { $0 != opener }
    }
    _ = try await poll("the popup's site counted", timeout: .seconds(30)) {
      try await service.usage()?["counting"]?.boolValue == true ? true : nil
    }
    try await browser.call("WebDriver:SwitchToWindow", .object([("handle", .string(popup)), ("focus", false)]))
    _ = try await poll("the shield page in the popup", timeout: .seconds(30)) {
      let address = try await browser.currentURL()
      return address.hasPrefix("moz-extension://") && address.hasSuffix("/shield.html?site=instagram.com")
        ? true : nil
    }
    #expect(try await service.usage()?["overLimit"]?.boolValue == true)
    await browser.close()
    _ = await service.finish()
  }
}
