import JSON
import Model
import Testing

@testable import Config
@testable import ShieldBridge

/// An app added to a rule that has an app of its name joins that entry (`ConfigurationEditor`, `addApps`): pure.
@Suite struct AppAdditionTests {
  /// What `setup` wrote before the list's entries had desktop names: Instagram as its site alone.
  private static let listEntry = #"""
    {"rules": [{"name": "social", "apps": [{"name": "Instagram", "sites": ["instagram.com"]}, "TikTok"],
      "dailyLimitMinutes": 4}]}
    """#

  private func edit(_ apps: [RuleApp], _ text: String = listEntry) throws(RuleEditError) -> EditedText {
    try ConfigurationEditor.editing(
      Array(text.utf8), file: "config.json", applying: .addApps(rule: "social", apps: apps))
  }

  private func rule(_ edited: EditedText) throws -> Rule {
    try #require(try Configuration.parse(edited.bytes, file: "config.json").0.rules.rules.first)
  }

  private func string(_ edited: EditedText) -> String { String(decoding: edited.bytes, as: UTF8.self) }

  @Test func aPickedClassJoinsTheListsEntryOfItsNameInsteadOfFailing() throws {
    // What `rules pick` proposes for a window of class Instagram.
    let edited = try edit([RuleApp(name: "Instagram", classes: ["Instagram"])])
    #expect(edited.additions == [.merged(into: "Instagram", names: RuleApp(name: "Instagram", classes: ["Instagram"]))])
    #expect(string(edited).contains(#"{"name": "Instagram", "class": "Instagram", "sites": ["instagram.com"]}"#))
    let rule = try rule(edited)
    #expect(rule.apps.map(\.name) == ["Instagram", "TikTok"])
    #expect(RuleSet([rule]).match(AppIdentity(windowClass: "Instagram"))?.app.name == "Instagram")
    #expect(RuleSet([rule]).match(site: Site("www.instagram.com")!)?.app.name == "Instagram")
    #expect(rule.dailyLimitMinutes == 4)
  }

  @Test func aPlainNameJoinsAnObjectAsTheClassAppIDAndExecutableItStandsFor() throws {
    // `rules add-app social --app instagram`: the name matched every desktop name; so does the entry now.
    let edited = try edit([RuleApp(name: "instagram")])
    let names = RuleApp(name: "Instagram", classes: ["instagram"], appIDs: ["instagram"], executables: ["instagram"])
    #expect(edited.additions == [.merged(into: "Instagram", names: names)])
    #expect(
      string(edited).contains(
        #"{"name": "Instagram", "class": "instagram", "appId": "instagram", "exe": ["instagram"], "sites": ["instagram.com"]}"#
      ), "\(string(edited))")
    let rules = RuleSet([try rule(edited)])
    for identity in [
      AppIdentity(windowClass: "Instagram"), AppIdentity(appID: "Instagram"), AppIdentity(executable: "instagram"),
    ] {
      #expect(rules.match(identity)?.app.name == "Instagram", "\(identity)")
    }
  }

  @Test func anObjectJoinsAPlainNameWhichKeepsWhatItMatched() throws {
    let text = #"{"rules": [{"name": "social", "apps": ["Telegram"]}]}"#
    let edited = try edit([RuleApp(name: "Telegram", classes: ["TelegramDesktop"], sites: ["web.telegram.org"])], text)
    #expect(
      edited.additions == [
        .merged(
          into: "Telegram", names: RuleApp(name: "Telegram", classes: ["TelegramDesktop"], sites: ["web.telegram.org"]))
      ])
    let rules = RuleSet([try rule(edited)])
    // What the plain name matched, it still matches; the new names and the site count too.
    for identity in [
      AppIdentity(windowClass: "telegram"), AppIdentity(appID: "Telegram"), AppIdentity(executable: "Telegram"),
      AppIdentity(windowClass: "TelegramDesktop"),
    ] {
      #expect(rules.match(identity)?.app.name == "Telegram", "\(identity)")
    }
    #expect(rules.match(site: Site("web.telegram.org")!)?.app.name == "Telegram")
  }

  @Test func namesTheEntryHasAlreadyAddNothingAndLeaveTheFileAsItWas() throws {
    let text =
      #"{"rules": [{"name": "social", "apps": [{"name": "Instagram", "class": "Instagram", "sites": ["instagram.com"]}]}]}"#
    // In the editor's layout first, as every file is after its first edit.
    let laid = try ConfigurationEditor.edited(
      Array(text.utf8), file: "config.json",
      applying: .set(name: "social", apps: nil, sites: nil, settings: RuleSettings(dailyLimitMinutes: 5)))
    let again = try edit(
      [RuleApp(name: "INSTAGRAM", classes: ["instagram"], sites: ["www.instagram.com"])],
      String(decoding: laid, as: UTF8.self))
    #expect(again.additions == [.covered("Instagram")])
    // The same bytes: `Configuration.edit` writes nothing.
    #expect(again.bytes == laid)
  }

  @Test func aSiteAnotherEntryOfTheRuleListsIsNotAddedTwice() throws {
    let text = #"""
      {"rules": [{"name": "social", "apps": ["Instagram", {"name": "instagram.com", "sites": ["instagram.com"]}]}]}
      """#
    let edited = try edit([RuleApp(name: "Instagram", classes: ["Instagram"], sites: ["instagram.com"])], text)
    // The plain name matched the class already, and the site is the rule's: nothing to add.
    #expect(edited.additions == [.covered("Instagram")])
  }

  @Test func anAppOfAnotherNameIsAppendedAndTheSentencesSayWhatHappened() throws {
    let edited = try edit([
      RuleApp(name: "Snapchat"), RuleApp(name: "tiktok"), RuleApp(name: "Instagram", classes: ["Instagram"]),
    ])
    #expect(
      edited.additions.map { $0.sentence(rule: "social") } == [
        "added Snapchat to the rule \"social\"",
        "the rule \"social\" has TikTok already, with these names: nothing was added",
        "the rule \"social\" has Instagram already: added class Instagram to it",
      ])
    #expect(try rule(edited).apps.map(\.name) == ["Instagram", "TikTok", "Snapchat"])
  }

  @Test func anAppOfAnotherRuleIsStillRefusedByTheReader() {
    let text = #"{"rules": [{"name": "social", "apps": ["A"]}, {"name": "chat", "apps": ["Discord"]}]}"#
    do {
      _ = try edit([RuleApp(name: "discord")], text)
      Issue.record("accepted")
    } catch {
      guard case .invalid(let refusal) = error else {
        Issue.record("\(error)")
        return
      }
      #expect(refusal.problem.contains("is already covered by the rule"), "\(refusal.problem)")
    }
  }

  @Test func setupWritesAnAppGivenTwiceOnce() {
    let list = RuleApp(name: "Instagram", sites: ["instagram.com"])
    let picked = RuleApp(name: "instagram", classes: ["Instagram"])
    #expect(
      RuleApp.combining([list, RuleApp(name: "TikTok"), picked]) == [
        RuleApp(name: "Instagram", classes: ["Instagram"], sites: ["instagram.com"]), RuleApp(name: "TikTok"),
      ])
  }

  /// Each entry of the list covers a window named after the service and its sites, on every desktop.
  @Test(arguments: CommonApps.all)
  func everyEntryOfTheListCoversItsWindowsAndSites(app: RuleApp) throws {
    let text = #"{"rules": [{"name": "social", "apps": ["Placeholder"]}]}"#
    let edited = try ConfigurationEditor.edited(
      Array(text.utf8), file: "config.json", applying: .set(name: "social", apps: [app], sites: nil, settings: .init()))
    let rules = try Configuration.parse(edited, file: "config.json").0.rules
    let name = try #require(app.classes.first, "\(app.name) has no class")
    let appID = try #require(app.appIDs.first, "\(app.name) has no app id")
    for identity in [
      AppIdentity(instance: name.lowercased(), windowClass: name), AppIdentity(appID: appID),
      AppIdentity(appID: app.appIDs.last),
      // A browser's app window of its first site, as `chromium --app=https://www.SITE/` opens it.
      AppIdentity(instance: "www." + app.sites[0], windowClass: "Chromium"),
    ] {
      #expect(rules.match(identity)?.app.name == app.name, "\(app.name): \(identity)")
    }
    for site in app.sites { #expect(rules.match(site: Site(site)!)?.app.name == app.name, "\(site)") }
  }
}
