import Config
import Foundation
import Model
import ShieldBridge
import Testing

@testable import ShieldBridgeCLI

/// `shieldbridge rules …` command lines run in-process on a file of their own: every option and every error.
@Suite struct RulesCommandLineTests {
  /// A folder of its own with `config.json` holding `text` (no file for `nil`).
  private final class Place: Sendable {
    let folder: String
    var path: String { folder + "/config.json" }

    init(_ text: String?) throws {
      folder = NSTemporaryDirectory() + "rules-" + UUID().uuidString
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      if let text { try text.write(toFile: path, atomically: true, encoding: .utf8) }
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }

    func run(_ arguments: [String]) async -> Command.Ending {
      await ConfigurationPlace.$path.withValue(path) { await Command.root.run(arguments) }
    }

    var text: String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
    var rules: [Rule] { (try? Configuration.load(from: path).configuration.rules.rules) ?? [] }
  }

  private static let social = #"{"rules": [{"name": "social", "apps": ["Instagram"]}]}"#

  @Test func addTakesEveryOption() async throws {
    let place = try Place(nil)
    let ending = await place.run([
      "rules", "add", "social", "--app", "Instagram", "--app", "TikTok", "--site", "reddit.com", "--site",
      "x.com", "--limit", "1h30m", "--grant", "120s", "--max", "3", "--warn", "2m", "--on-limit", "close",
    ])
    #expect(ending == Command.Ending(status: .success))
    let rule = try #require(place.rules.first)
    #expect(rule.name == "social")
    #expect(rule.apps.map(\.name) == ["Instagram", "TikTok", "reddit.com", "x.com"])
    #expect(rule.apps.flatMap(\.sites).map(\.name) == ["reddit.com", "x.com"])
    #expect(
      [rule.dailyLimitMinutes, rule.grantMinutes, rule.maxGrantsPerDay, rule.warnMinutes] == [90, 2, 3, 2] as [Int])
    #expect(rule.onLimit == .close)
  }

  @Test func setTakesEveryOption() async throws {
    let place = try Place(Self.social)
    #expect(await place.run(["rules", "set", "social", "--limit", "45"]).status == .success)
    #expect(place.rules[0].dailyLimitMinutes == 45)
    #expect(await place.run(["rules", "set", "social", "--grant", "10m", "--max", "0"]).status == .success)
    #expect(place.rules[0].grantMinutes == 10 && place.rules[0].maxGrantsPerDay == 0)
    #expect(await place.run(["rules", "set", "social", "--warn", "0m", "--on-limit", "notify"]).status == .success)
    #expect(place.rules[0].warnMinutes == 0 && place.rules[0].onLimit == .notify)
    #expect(await place.run(["rules", "set", "social", "--app", "Discord", "--site", "twitch.tv"]).status == .success)
    #expect(place.rules[0].apps.map(\.name) == ["Discord", "twitch.tv"])
    #expect(place.rules[0].dailyLimitMinutes == 45)
  }

  @Test func appsAndSitesComeAndGo() async throws {
    let place = try Place(Self.social)
    #expect(await place.run(["rules", "add-app", "social", "--app", "TikTok", "--app", "Snapchat"]).status == .success)
    #expect(await place.run(["rules", "remove-app", "social", "--app", "Instagram"]).status == .success)
    #expect(
      await place.run(["rules", "add-site", "social", "--site", "reddit.com", "--site", "x.com"]).status == .success)
    #expect(await place.run(["rules", "remove-site", "social", "--site", "x.com"]).status == .success)
    #expect(place.rules[0].apps.map(\.name) == ["TikTok", "Snapchat", "reddit.com"])
    #expect(await place.run(["rules", "add", "chat", "--app", "Discord"]).status == .success)
    #expect(await place.run(["rules", "remove", "social"]).status == .success)
    #expect(place.rules.map(\.name) == ["chat"])
    #expect(await place.run(["rules", "list"]).status == .success)
  }

  @Test(
    arguments: [
      (
        ["rules", "add", "x", "--app", "A", "--limit", "90s"], ExitCode.usage,
        "--limit: '90s' is not a whole number of minutes"
      ),
      (
        ["rules", "add", "x", "--app", "A", "--grant", "5x"], .usage,
        "--grant: expected a duration such as 90s, 5m or 1h30m"
      ),
      (["rules", "add", "x", "--app", "A", "--warn", "1h30"], .usage, "--warn: '1h30' ends without a unit"),
      (
        ["rules", "add", "x", "--app", "A", "--max", "101"], .usage,
        "--max takes a whole number from 0 to 100, not '101'"
      ),
      (
        ["rules", "add", "x", "--app", "A", "--on-limit", "kill"], .usage, "--on-limit takes one of hide, close, notify"
      ),
      (["rules", "add", "--app", "A"], .usage, "missing argument, expected: NAME"),
      (
        ["rules", "add", "x"], .usage,
        "a rule covers at least one app or site: give --app APP or --site SITE, or run 'shieldbridge rules pick x'"
      ),
      (["rules", "add", "x", "--app", "instagram"], .configError, "is already covered by the rule \"social\""),
      (
        ["rules", "add", "x", "--app", "A", "--grant", "0m"], .configError,
        "rules[1].grantMinutes: expected a whole number"
      ),
      (["rules", "set", "social"], .usage, "give at least one setting to change"),
      (["rules", "set", "nope", "--limit", "5m"], .dataError, "no rule is named \"nope\""),
      (["rules", "remove", "nope"], .dataError, "no rule is named \"nope\""),
      (["rules", "add-app", "social"], .usage, "give at least one --app"),
      (["rules", "remove-app", "social", "--app", "Nope"], .dataError, "the rule \"social\" lists no app \"Nope\""),
      (["rules", "add-site", "social"], .usage, "give at least one --site"),
      (["rules", "add-site", "social", "--site", "https://www.reddit.com/"], .configError, "is not a host name"),
      (
        ["rules", "remove-site", "social", "--site", "reddit.com"], .dataError,
        "no app of the rule \"social\" lists the site"
      ),
      (["rules", "add-app", "social", "--site", "x.com"], .usage, "unknown option '--site'"),
    ] as [([String], ExitCode, String)])
  func aMistakeIsRefusedAndTheFileStays(arguments: [String], status: ExitCode, message: String) async throws {
    let place = try Place(Self.social)
    let ending = await place.run(arguments)
    #expect(ending.status == status)
    #expect(ending.error?.contains(message) == true, "\(ending.error ?? "")")
    #expect(place.text == Self.social)
  }

  @Test func anAppTheRuleHasJoinsItsEntry() async throws {
    let place = try Place(
      #"{"rules": [{"name": "social", "apps": [{"name": "Instagram", "sites": ["instagram.com"]}]}]}"#)
    let ending = await place.run(["rules", "add-app", "social", "--app", "Instagram", "--app", "TikTok"])
    #expect(ending.status == .success, "\(ending.error ?? "")")
    let apps = place.rules[0].apps
    #expect(apps.map(\.name) == ["Instagram", "TikTok"])
    #expect(apps[0].classes == ["Instagram"] && apps[0].sites.map(\.name) == ["instagram.com"])
    // Again: nothing to add, nothing written, and it is no failure.
    let before = place.text
    let again = await place.run(["rules", "add-app", "social", "--app", "instagram"])
    #expect(again.status == .success)
    #expect(place.text == before)
  }

  @Test func removingTheLastRuleLeavesNoRuleSet() async throws {
    let place = try Place(#"{"idleMinutes": 3, "rules": [{"name": "social", "apps": ["Instagram"]}]}"#)
    let ending = await place.run(["rules", "remove", "social"])
    #expect(ending.status == .success, "\(ending.error ?? "")")
    #expect(!place.text.contains("rules") && place.text.contains("\"idleMinutes\": 3"))
    #expect(try Configuration.load(from: place.path).configuration.rules.isBuiltIn)
    #expect(await place.run(["rules", "list"]).status == .success)
  }

  @Test func aBrokenFileIsNeitherListedNorEdited() async throws {
    let broken = #"{"rules": [{"name": "social", "apps": []}]}"#
    let place = try Place(broken)
    #expect(await place.run(["rules", "list"]).status == .configError)
    #expect(await place.run(["rules", "add", "x", "--app", "A"]).status == .configError)
    #expect(place.text == broken)
  }
}
