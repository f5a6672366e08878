import Config
import Foundation
import JSON
import ShieldBridge
import TestSupport
import Testing

/// The host's part of the extension's "Limit this site": the rules to choose
/// from, and a site added to one as `rules add-site` adds it, through real pipes
/// with `serve` started by D-Bus activation, which then counts the site.
@Suite("native-host lists the rules and limits a site as rules add-site does")
struct NativeHostRulesTests {
  @Test func aSiteAddedThroughTheHostIsWrittenCheckedAndThenCovered() async throws {
    let harness = try await SiteHarness()
    let host = try harness.host()
    try host.send(json(["type": "hello", "version": 1, "language": "en-US"]))
    try host.send(json(["type": "rules"]))
    #expect(
      try await host.message("the rules") { $0["type"] == "rules" }
        == json(["type": "rules", "rules": ["social", "video"]]))

    // Not covered yet.
    try host.focus("www.reddit.com")
    #expect(try await host.state("www.reddit.com")["covered"] == false)

    try host.send(json(["type": "limitSite", "site": "Reddit.com", "rule": "social"]))
    let added = try await host.message("the site limited") { $0["type"] == "siteLimited" }
    #expect(added == json(["type": "siteLimited", "site": "reddit.com", "rule": "social"]))
    let rules = try Configuration.load(from: harness.sandbox.configPath).configuration.rules.rules
    #expect(rules[0].apps.flatMap(\.sites).map(\.name) == ["instagram.com", "reddit.com"])

    // The service reloads config.json and counts the site for its rule.
    _ = try await poll("the service to cover reddit.com", every: .milliseconds(100)) {
      let count = host.received.count
      try host.focus(nil)
      try host.focus("www.reddit.com")
      let state = try await host.state("www.reddit.com", after: count)
      return state["rule"] == "social" ? true : nil
    }
    try host.closeInput()
    #expect(await host.exitStatus() == 0)
  }

  @Test func aChangeTheReaderRefusesIsAnsweredWithItsMessageAndWritesNothing() async throws {
    let harness = try await SiteHarness()
    let before = try Data(contentsOf: URL(fileURLWithPath: harness.sandbox.configPath))
    let host = try harness.host()
    try host.send(json(["type": "limitSite", "site": "youtube.com", "rule": "social"]))
    let listed = try await host.message("a refusal") { $0["type"] == "limitRefused" }
    #expect(listed["site"] == "youtube.com" && listed["rule"] == "social")
    #expect(
      listed["message"]?.stringValue?.contains("youtube.com\" of app \"YouTube\" in rule \"video\" is already listed")
        == true,
      "\(listed)")

    try host.send(json(["type": "limitSite", "site": "reddit.com", "rule": "nope"]))
    let missing = try await host.message("a second refusal", after: 1) { $0["type"] == "limitRefused" }
    #expect(missing["message"]?.stringValue?.hasPrefix("no rule is named \"nope\"") == true)

    try host.send(json(["type": "limitSite", "site": "https://www.reddit.com/", "rule": "social"]))
    let bad = try await host.message("an error", after: 2) { $0["type"] == "error" }
    #expect(bad["message"]?.stringValue?.contains("\"site\" is not a host name") == true)
    #expect(try Data(contentsOf: URL(fileURLWithPath: harness.sandbox.configPath)) == before)
    try host.closeInput()
    #expect(await host.exitStatus() == 0)
  }

  @Test func afterASiteIsLimitedTheSameFocusAsksTheServiceAgain() async throws {
    let harness = try await SiteHarness()
    let host = try harness.host()
    try host.focus("reddit.com")
    #expect(try await host.state("reddit.com")["covered"] == false)
    try host.send(json(["type": "limitSite", "site": "reddit.com", "rule": "social"]))
    _ = try await host.message("the site limited") { $0["type"] == "siteLimited" }

    // Another host, which has no state to answer from, learns when the service has read the file.
    let other = try harness.host()
    _ = try await poll("the service to cover reddit.com", every: .milliseconds(100)) {
      let count = other.received.count
      try other.focus(nil)
      try other.focus("reddit.com")
      return try await other.state("reddit.com", after: count)["rule"] == "social" ? true : nil
    }
    try other.closeInput()
    #expect(await other.exitStatus() == 0)

    // The same focus as before (what the popup's background sends): not the old state from memory.
    let count = host.received.count
    try host.focus("reddit.com")
    let state = try await host.state("reddit.com", after: count)
    #expect(state["covered"] == true && state["rule"] == "social", "\(state)")
    try host.closeInput()
    #expect(await host.exitStatus() == 0)
  }
}
