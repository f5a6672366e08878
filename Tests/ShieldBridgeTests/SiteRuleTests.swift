import Desktop
import JSON
import Model
import ShieldBridge
import Testing

@Suite("Sites in rules: host names, subdomains, and the configuration's errors")
struct SiteRuleTests {
  @Test("A site is a host name, lowercase, without a trailing dot")
  func hostNames() {
    #expect(Site("Instagram.COM.")?.name == "instagram.com")
    #expect(Site("xn--bcher-kva.example")?.name == "xn--bcher-kva.example")
    #expect(Site("localhost")?.name == "localhost")
    for text in [
      "", ".", "a..b", "-a.com", "a-.com", "https://a.com", "a.com/x", "a.com:443", "a b.com", "bücher.de",
      String(repeating: "a", count: 64) + ".com", String(repeating: "a.", count: 127) + "ab",
    ] {
      #expect(Site(text) == nil, "\(text)")
    }
    #expect(Site(String(repeating: "a", count: 63) + ".com") != nil)
  }

  @Test("A site covers itself and its subdomains, and nothing that only ends the same way")
  func subdomains() throws {
    let site = try #require(Site("instagram.com"))
    for covered in ["instagram.com", "www.instagram.com", "a.b.instagram.com", "INSTAGRAM.com."] {
      #expect(site.covers(try #require(Site(covered))), "\(covered)")
    }
    for other in ["notinstagram.com", "instagram.co", "com", "instagram.com.evil.org"] {
      #expect(!site.covers(try #require(Site(other))), "\(other)")
    }
  }

  @Test("config.json's sites: one string or an array, matched to the rule; an app with only sites matches no window")
  func configuration() throws {
    let (configuration, warnings) = try parse(
      #"""
      {"rules": [
        {"name": "social", "apps": [{"name": "Instagram", "class": "instagram", "sites": ["instagram.com", "Instagram.com."]}]},
        {"name": "video", "apps": [{"name": "YouTube", "sites": "youtube.com"}, "mpv"]}
      ]}
      """#)
    #expect(warnings.isEmpty)
    let rules = configuration.rules
    #expect(rules.rules[0].apps[0].sites == [Site("instagram.com")].compactMap { $0 })
    #expect(!rules.rules[1].apps[0].isPlainName)
    #expect(rules.rules[1].apps[1].isPlainName)
    #expect(rules.match(site: try #require(Site("m.youtube.com")))?.rule.name == "video")
    #expect(rules.match(site: try #require(Site("example.org"))) == nil)
    // "YouTube" has only sites: a window named YouTube is not it.
    #expect(rules.match(AppIdentity(instance: "youtube", windowClass: "YouTube")) == nil)
    #expect(rules.match(AppIdentity(windowClass: "instagram"))?.rule.name == "social")
  }

  @Test("status lists a rule's sites: after the apps in the text, as \"sites\" in the JSON")
  func status() async throws {
    let sandbox = try Sandbox()
    try sandbox.writeConfig(
      #"{"rules": [{"name": "social", "apps": ["TikTok", {"name": "Instagram", "sites": ["instagram.com", "ig.me"]}]}, {"name": "chat", "apps": ["Telegram"]}]}"#
    )
    let json = try await sandbox.run(["status", "--json"])
    #expect(json.status == 0, "\(json.error)")
    let rules = try JSONValue(parsing: json.output)["rules"]?.arrayValue ?? []
    #expect(rules.first?["sites"] == JSONValue.array(["instagram.com", "ig.me"]))
    #expect(rules.last?["sites"] == nil)
    let text = try await sandbox.run(["status"])
    #expect(text.output.contains("social: TikTok, Instagram; sites: instagram.com, ig.me\n"), "\(text.output)")
    #expect(text.output.contains("chat: Telegram\n"), "\(text.output)")
  }

  @Test("A site that is no host name, or one listed twice, is an error naming the rule and the app")
  func errors() throws {
    let bad = try #require(
      configurationError(
        #"{"rules": [{"name": "social", "apps": [{"name": "Instagram", "sites": ["https://instagram.com/"]}]}]}"#))
    #expect(bad.code == .format)
    #expect(bad.keyPath == "rules[0].apps[0].sites[0]")
    #expect(bad.problem.contains(#"app "Instagram" in rule "social" is not a host name"#), "\(bad)")
    let twice = try #require(
      configurationError(
        #"{"rules": [{"name": "a", "apps": [{"name": "X", "sites": "x.com"}]}, {"name": "b", "apps": [{"name": "Y", "sites": ["X.com"]}]}]}"#
      ))
    #expect(twice.code == .duplicate)
    #expect(twice.problem.contains(#"already listed for app "X" in rule "a""#), "\(twice)")
    let empty = try #require(configurationError(#"{"rules": [{"name": "a", "apps": [{"name": "X", "sites": []}]}]}"#))
    #expect(empty.code == .missing)
  }
}
