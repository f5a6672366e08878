import JSON
import Model
import Testing

@testable import Config
@testable import ShieldBridge

/// `ConfigurationEditor`: each edit on the JSON of `config.json`, checked by the service's reader.
@Suite struct ConfigurationEditorTests {
  private static let start = #"""
    {"scheme": "shieldbridge", "futureKey": {"nested": [1.50, 123456789012345678901234, "x"]},
     "rules": [{"name": "social", "apps": ["Instagram", {"name": "YouTube", "class": "youtube", "sites": ["youtube.com"]}],
       "dailyLimitMinutes": 5, "pauseSeconds": 10, "onLimit": "hide"}]}
    """#

  private func edit(_ edit: RuleEdit, _ text: String? = start) throws(RuleEditError) -> String {
    String(
      decoding: try ConfigurationEditor.edited(text.map { Array($0.utf8) }, file: "config.json", applying: edit),
      as: UTF8.self)
  }

  private func rules(_ text: String) throws -> [Rule] {
    try Configuration.parse(Array(text.utf8), file: "config.json").0.rules.rules
  }

  @Test func addWritesTheRuleWithItsAppsSitesAndSettingsAndKeepsEveryOtherKey() throws {
    let text = try edit(
      .add(
        name: "chat", apps: [RuleApp(name: "Discord")], sites: ["WWW.Reddit.com"],
        settings: RuleSettings(
          dailyLimitMinutes: 20, grantMinutes: 3, maxGrantsPerDay: 2, warnMinutes: 0, onLimit: .close)))
    let added = try #require(try rules(text).last)
    #expect(added.name == "chat")
    #expect(added.apps.map(\.name) == ["Discord", "www.reddit.com"])
    #expect(added.apps[1].sites.map(\.name) == ["www.reddit.com"])
    #expect(
      [added.dailyLimitMinutes, added.grantMinutes, added.maxGrantsPerDay, added.warnMinutes] == [20, 3, 2, 0] as [Int])
    #expect(added.onLimit == .close)
    // Unknown keys and number texts are kept as written.
    #expect(text.contains(#""futureKey": {"#))
    #expect(text.contains("[1.50, 123456789012345678901234, \"x\"]"))
    #expect(text.contains(#""pauseSeconds": 10"#))
    #expect(
      text.contains(
        #"""
            {
              "name": "chat",
              "apps": [
                "Discord",
                {"name": "www.reddit.com", "sites": ["www.reddit.com"]}
              ],
              "dailyLimitMinutes": 20,
              "grantMinutes": 3,
              "maxGrantsPerDay": 2,
              "warnMinutes": 0,
              "onLimit": "close"
            }
        """#))
  }

  @Test func addToAFileWithoutRulesOrWithoutAFileCreatesTheRules() throws {
    for start in [nil, "{}", #"{"idleMinutes": 7}"#] {
      let text = try edit(.add(name: "social", apps: [RuleApp(name: "TikTok")], sites: [], settings: .init()), start)
      #expect(try rules(text).map(\.name) == ["social"])
      #expect(try rules(text)[0].dailyLimitMinutes == Rule.defaultDailyLimitMinutes)
    }
  }

  @Test func anAppWithItsDesktopNamesIsWrittenAsAnObject() throws {
    let app = RuleApp(
      name: "Telegram", classes: ["TelegramDesktop"], appIDs: ["org.telegram.desktop"],
      executables: ["telegram-desktop"])
    let text = try edit(.addApps(rule: "social", apps: [app]))
    #expect(
      text.contains(
        #"{"name": "Telegram", "class": "TelegramDesktop", "appId": "org.telegram.desktop", "exe": ["telegram-desktop"]}"#
      ))
    #expect(try rules(text)[0].apps.last?.classes == ["TelegramDesktop"])
  }

  @Test func setReplacesSettingsInPlaceAndAddsMissingOnesInTheirPlace() throws {
    let text = try edit(
      .set(
        name: "SOCIAL", apps: nil, sites: nil,
        settings: RuleSettings(dailyLimitMinutes: 30, grantMinutes: 10, onLimit: .notify)))
    let rule = try rules(text)[0]
    #expect(rule.dailyLimitMinutes == 30)
    #expect(rule.grantMinutes == 10)
    #expect(rule.onLimit == .notify)
    // grantMinutes goes after dailyLimitMinutes; the unknown pauseSeconds stays where it was.
    let keys = try #require(JSONValue(parsing: text)["rules"]?.arrayValue?[0].objectValue).map(\.0)
    #expect(keys == ["name", "apps", "dailyLimitMinutes", "grantMinutes", "pauseSeconds", "onLimit"])
  }

  @Test func setWithAppsOrSitesReplacesTheApps() throws {
    let text = try edit(.set(name: "social", apps: [RuleApp(name: "Discord")], sites: ["twitch.tv"], settings: .init()))
    #expect(try rules(text)[0].apps.map(\.name) == ["Discord", "twitch.tv"])
  }

  @Test func setWithNothingIsRefused() {
    #expect(throws: RuleEditError.nothingToChange("give at least one setting to change, such as --limit 10m")) {
      try edit(.set(name: "social", apps: nil, sites: nil, settings: .init()))
    }
  }

  @Test func removeTakesTheRuleAwayAndTheLastOneTakesTheRulesKeyWithIt() throws {
    let two = try edit(.add(name: "chat", apps: [RuleApp(name: "Discord")], sites: [], settings: .init()))
    let one = try edit(.remove(name: "Social"), two)
    #expect(try rules(one).map(\.name) == ["chat"])
    #expect(one.contains("futureKey"))
    // No rule is set: the file reads as one without "rules" (the reader refuses an empty list).
    let none = try edit(.remove(name: "chat"), one)
    #expect(!none.contains("\"rules\""))
    #expect(none.contains("futureKey") && none.contains("\"scheme\": \"shieldbridge\""))
    #expect(try Configuration.parse(Array(none.utf8), file: "config.json").0.rules.isBuiltIn)
    // And a rule can be added again.
    #expect(
      try rules(try edit(.add(name: "x", apps: [RuleApp(name: "A")], sites: [], settings: .init()), none)).count == 1)
  }

  @Test func appsAndSitesAreAddedAndRemoved() throws {
    var text = try edit(.addApps(rule: "social", apps: [RuleApp(name: "TikTok"), RuleApp(name: "Snapchat")]))
    #expect(try rules(text)[0].apps.map(\.name) == ["Instagram", "YouTube", "TikTok", "Snapchat"])
    text = try edit(.removeApps(rule: "social", apps: ["tiktok", "Instagram"]), text)
    #expect(try rules(text)[0].apps.map(\.name) == ["YouTube", "Snapchat"])
    text = try edit(.addSites(rule: "social", sites: ["reddit.com", "x.com"]), text)
    #expect(try rules(text)[0].apps.flatMap(\.sites).map(\.name) == ["youtube.com", "reddit.com", "x.com"])
    // A site alone goes with its app; a site of an app with more leaves the app.
    text = try edit(.removeSites(rule: "social", sites: ["reddit.com", "youtube.com"]), text)
    let apps = try rules(text)[0].apps
    #expect(apps.map(\.name) == ["YouTube", "Snapchat", "x.com"])
    #expect(apps[0].classes == ["youtube"] && apps[0].sites.isEmpty)
  }

  @Test func namesThatAreNotThereAreRefused() {
    #expect(throws: RuleEditError.noSuchRule("video")) { try edit(.remove(name: "video")) }
    #expect(throws: RuleEditError.noSuchRule("video")) { try edit(.addApps(rule: "video", apps: [RuleApp(name: "A")])) }
    #expect(throws: RuleEditError.noSuchApp(rule: "social", app: "Netflix")) {
      try edit(.removeApps(rule: "social", apps: ["Netflix"]))
    }
    #expect(throws: RuleEditError.noSuchSite(rule: "social", site: "reddit.com")) {
      try edit(.removeSites(rule: "social", sites: ["reddit.com"]))
    }
  }

  /// Each refusal is the reader's own error, naming the key path.
  @Test(arguments: [
    (
      RuleEdit.addSites(rule: "social", sites: ["https://www.reddit.com/"]), "rules[0].apps[2].sites[0]",
      "is not a host name"
    ),
    (.add(name: "Social", apps: [RuleApp(name: "A")], sites: [], settings: .init()), "rules[1].name", "already used"),
    (
      .add(name: "more", apps: [RuleApp(name: "Instagram")], sites: [], settings: .init()), "rules[1].apps[0]",
      "already covered"
    ),
    (
      .add(name: "more", apps: [], sites: ["youtube.com"], settings: .init()), "rules[1].apps[0].sites[0]",
      "already listed"
    ),
    (.add(name: "empty", apps: [], sites: [], settings: .init()), "rules[1].apps", "at least one app"),
    (
      .set(name: "social", apps: nil, sites: nil, settings: RuleSettings(dailyLimitMinutes: 2000)),
      "rules[0].dailyLimitMinutes", "from 0 to 1440"
    ),
    (
      .set(name: "social", apps: nil, sites: nil, settings: RuleSettings(grantMinutes: 0)), "rules[0].grantMinutes",
      "whole number"
    ),
    (
      .set(name: "social", apps: nil, sites: nil, settings: RuleSettings(maxGrantsPerDay: 101)),
      "rules[0].maxGrantsPerDay", "from 0 to 100"
    ),
    (
      .set(name: "social", apps: nil, sites: nil, settings: RuleSettings(warnMinutes: 1441)), "rules[0].warnMinutes",
      "from 0 to 1440"
    ),
    (
      .add(name: String(repeating: "n", count: 65), apps: [RuleApp(name: "A")], sites: [], settings: .init()),
      "rules[1].name", "at most 64"
    ),
  ])
  func anInvalidChangeIsRefusedWithTheReadersMessage(edit change: RuleEdit, keyPath: String, problem: String) {
    do {
      _ = try edit(change)
      Issue.record("accepted")
    } catch {
      guard case .invalid(let refusal) = error else {
        Issue.record("refused otherwise: \(error)")
        return
      }
      #expect(refusal.keyPath == keyPath)
      #expect(refusal.problem.contains(problem), "\(refusal.problem)")
    }
  }

  @Test func aFileTheReaderRefusesIsNotEdited() {
    for broken in [#"{"rules": [ {"name": "#, #"{"idleMinutes": 0}"#, "[]"] {
      #expect(throws: RuleEditError.self) {
        try edit(.add(name: "x", apps: [RuleApp(name: "A")], sites: [], settings: .init()), broken)
      }
    }
  }

  @Test func aStringLikeTheNumberMarkerIsRefusedRatherThanRewritten() {
    let text = #"{"note": "\u0000\ue000number:1", "rules": [{"name": "a", "apps": ["A"]}]}"#
    #expect(throws: RuleEditError.unkeepable("config.json")) { try edit(.remove(name: "b"), text) }
  }

  /// The layout is stable: a second edit changes only the lines of its change.
  @Test func aSecondEditChangesOnlyItsLines() throws {
    let first = try edit(.addApps(rule: "social", apps: [RuleApp(name: "TikTok")]))
    let second = try edit(
      .set(name: "social", apps: nil, sites: nil, settings: RuleSettings(dailyLimitMinutes: 9)), first)
    let a = first.split(separator: "\n", omittingEmptySubsequences: false)
    let b = second.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(a.count == b.count)
    let changed = zip(a, b).filter { $0 != $1 }
    #expect(changed.map(\.1) == [#"      "dailyLimitMinutes": 9,"#])
    // Applied again to its own output, an edit that changes nothing gives the same bytes.
    #expect(
      try edit(.set(name: "social", apps: nil, sites: nil, settings: RuleSettings(dailyLimitMinutes: 9)), second)
        == second)
  }
}

/// Durations on the command line as the whole minutes `config.json` holds.
@Suite struct DurationTextTests {
  @Test(arguments: [("5m", 5), ("1h30m", 90), ("120s", 2), ("2h", 120), ("1h0m60s", 61), ("30", 30), ("0m", 0)])
  func aDurationIsReadAsWholeMinutes(text: String, minutes: Int) throws {
    #expect(try DurationText.minutes(text) == minutes)
  }

  @Test(
    arguments: [
      ("90s", "'90s' is not a whole number of minutes, which is what the configuration holds; write 1m or 2m"),
      ("30s", "'30s' is not a whole number of minutes, which is what the configuration holds; write 1m"),
      ("5", nil), ("", "expected a duration such as 90s, 5m or 1h30m, found nothing"),
      ("5x", "expected a duration such as 90s, 5m or 1h30m, found '5x'"),
      ("m", "expected a duration such as 90s, 5m or 1h30m, found 'm'"),
      ("30m1h", "expected a duration such as 90s, 5m or 1h30m, found '30m1h'"),
      ("5m5m", "expected a duration such as 90s, 5m or 1h30m, found '5m5m'"),
      ("1h30", "'1h30' ends without a unit: write h, m or s after the number"),
      ("-5m", "expected a duration such as 90s, 5m or 1h30m, found '-5m'"),
      ("99999999m", "expected a duration such as 90s, 5m or 1h30m, found '99999999m'"),
    ] as [(String, String?)])
  func aDurationThatIsNotOneIsRefused(text: String, message: String?) {
    do {
      _ = try DurationText.minutes(text)
      #expect(message == nil)
    } catch {
      #expect(error.message == message)
    }
  }

  @Test func minutesAreWrittenBack() {
    #expect(DurationText.text(minutes: 90) == "1h30m")
    #expect(DurationText.text(minutes: 5) == "5m")
    #expect(DurationText.text(minutes: 120) == "2h")
    #expect(DurationText.text(minutes: 0) == "0m")
  }
}

/// The app `rules pick` adds for a window: the narrowest name it has.
@Suite struct PickedAppTests {
  @Test func theClassComesFirstThenTheAppIDThenTheExecutable() {
    let xterm = AppIdentity(instance: "xterm", windowClass: "Pickme", executable: "xterm", pid: 7)
    #expect(PickedApp.app(for: xterm) == RuleApp(name: "Pickme", classes: ["Pickme"]))
    let wayland = AppIdentity(appID: "org.telegram.desktop", executable: "telegram-desktop")
    #expect(PickedApp.app(for: wayland) == RuleApp(name: "org.telegram.desktop", appIDs: ["org.telegram.desktop"]))
    let process = AppIdentity(executable: "steam", command: "steam")
    #expect(PickedApp.app(for: process) == RuleApp(name: "steam", executables: ["steam"]))
    #expect(PickedApp.app(for: AppIdentity(instance: "only", command: "c", scopeID: "s")) == nil)
    #expect(
      PickedApp.app(for: AppIdentity(windowClass: "", appID: "a\u{1}b", executable: "ok"))
        == RuleApp(name: "ok", executables: ["ok"]))
  }

  /// A browser's windows share its class: picking one of its app windows must not add the whole browser.
  @Test func aBrowsersAppWindowIsPickedAsItsSiteOrItsWebApp() {
    let appWindow = AppIdentity(instance: "www.instagram.com", windowClass: "Chromium", executable: "chromium")
    #expect(PickedApp.app(for: appWindow) == RuleApp(name: "instagram.com", sites: ["instagram.com"]))
    let wayland = AppIdentity(appID: "chrome-www.instagram.com__reels-Default")
    #expect(PickedApp.app(for: wayland) == RuleApp(name: "instagram.com", sites: ["instagram.com"]))
    let webApp = AppIdentity(instance: "crx_abcdefghijklmnopabcdefghijklmnop", windowClass: "Chromium")
    #expect(
      PickedApp.app(for: webApp)
        == RuleApp(name: "crx_abcdefghijklmnopabcdefghijklmnop", classes: ["crx_abcdefghijklmnopabcdefghijklmnop"]))
    // The browser's own window: the browser, as the user picked it.
    let browser = AppIdentity(instance: "chromium", windowClass: "Chromium")
    #expect(PickedApp.app(for: browser) == RuleApp(name: "Chromium", classes: ["Chromium"]))
  }

  @Test func theNamesAreShownAsDesktopNamesThem() {
    let identity = AppIdentity(instance: "xterm", windowClass: "Pickme", executable: "xterm", pid: 7)
    #expect(PickedApp.names(of: identity) == ["class: Pickme", "instance: xterm", "executable: xterm"])
  }
}
