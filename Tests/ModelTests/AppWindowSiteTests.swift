import Model
import Testing

/// Issue 22, point 7: `chromium --app=https://www.instagram.com/` is a window of class
/// `Chromium` whose instance is the site's host; it counts as that site.
@Suite("A browser's app window is the site its instance names")
struct AppWindowSiteTests {
  static let social = Rule(
    name: "social",
    apps: [AppPattern(name: "Instagram", classes: ["instagram"], sites: [Site("instagram.com")!])])
  static let browsers = Rule(name: "browsers", apps: ["chromium"])
  static let rules = RuleSet([social, browsers])

  @Test("Chromium, Chrome and Firefox windows whose instance is a host name are that site")
  func appWindowsAreSites() {
    #expect(
      AppIdentity(instance: "www.instagram.com", windowClass: "Chromium").appWindowSite == Site("www.instagram.com"))
    #expect(AppIdentity(instance: "www.instagram.com", windowClass: "chromium").appWindowSite != nil)
    #expect(
      AppIdentity(instance: "www.instagram.com__reels", windowClass: "Google-chrome").appWindowSite
        == Site("www.instagram.com"))
    #expect(AppIdentity(instance: "instagram.com", windowClass: "firefox").appWindowSite == Site("instagram.com"))
    #expect(AppIdentity(appID: "chrome-www.instagram.com__-Default").appWindowSite == Site("www.instagram.com"))
  }

  @Test("Browser windows that name no host, and other apps' instances, are no site")
  func otherWindowsAreNoSite() {
    #expect(AppIdentity(instance: "chromium", windowClass: "Chromium").appWindowSite == nil)
    #expect(AppIdentity(instance: "Navigator", windowClass: "firefox").appWindowSite == nil)
    #expect(AppIdentity(instance: "crx_abcdefghijklmnop", windowClass: "Chromium").appWindowSite == nil)
    #expect(AppIdentity(instance: "www.instagram.com", windowClass: "XTerm").appWindowSite == nil)
    #expect(AppIdentity(instance: "www.insta gram.com", windowClass: "Chromium").appWindowSite == nil)
    #expect(AppIdentity(instance: "localhost", windowClass: "Chromium").appWindowSite == nil)
    #expect(AppIdentity(appID: "chrome-localhost-Default").appWindowSite == nil)
    #expect(AppIdentity(appID: "org.chromium.Chromium").appWindowSite == nil)
  }

  @Test("The rules take an app window as its site, before a rule that names the browser")
  func rulesMatchTheSite() {
    let instagram = AppIdentity(instance: "www.instagram.com", windowClass: "Chromium", pid: 42)
    let match = Self.rules.match(instagram)
    #expect(match?.rule.name == "social")
    #expect(match?.app.name == "Instagram")
    // A site no rule covers: the window is the browser's, as any of its windows.
    let other = AppIdentity(instance: "example.org", windowClass: "Chromium", pid: 42)
    #expect(Self.rules.match(other)?.rule.name == "browsers")
    #expect(Self.rules.match(AppIdentity(instance: "chromium", windowClass: "Chromium"))?.rule.name == "browsers")
    // A subdomain the rule's site covers; a look-alike it does not.
    #expect(Self.rules.match(AppIdentity(instance: "m.instagram.com", windowClass: "Chromium"))?.rule.name == "social")
    #expect(
      Self.rules.match(AppIdentity(instance: "notinstagram.com", windowClass: "Chromium"))?.rule.name == "browsers")
    // The built-in rule matches nothing, app windows included.
    #expect(RuleSet.builtIn.match(instagram) == nil)
  }
}
