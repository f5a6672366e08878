import Config
import Foundation
import Localization
import Model
import ShieldBridge
import Testing

@testable import ShieldBridgeCLI

/// `shieldbridge setup`: the questions with scripted answers, and `--yes` with its options, in-process.
@Suite struct SetupTests {
  /// Runs the questions on `answers`, one per prompt; the lines said and the prompts asked, in order.
  private final class Script: @unchecked Sendable {
    var answers: [String]
    var transcript: [String] = []

    init(_ answers: [String]) { self.answers = answers }

    var dialog: SetupDialog {
      SetupDialog(
        say: { message, indent in
          self.transcript.append(
            message.map { String(repeating: " ", count: indent) + Localizer.source.render($0) } ?? "")
        },
        ask: { prompt in
          self.transcript.append("? " + Localizer.source.render(prompt))
          return self.answers.isEmpty ? nil : self.answers.removeFirst()
        })
    }
  }

  private func index(of name: String) -> String {
    String(CommonApps.all.firstIndex { $0.name == name }! + 1)
  }

  @Test func theListIsShownAndEnterTakesTheScrollBrakeDefaults() throws {
    let script = Script(["\(index(of: "Instagram")) \(index(of: "Reddit"))", "", "", ""])
    let choice = try script.dialog.run()
    #expect(choice.apps.map(\.name) == ["Instagram", "Reddit"])
    #expect(choice.apps[0].sites == ["instagram.com"])
    #expect([choice.dailyLimitMinutes, choice.grantMinutes, choice.maxGrantsPerDay] == [5, 5, 5] as [Int])
    #expect(script.transcript.contains("   1  Instagram (instagram.com)"))
    #expect(script.transcript.contains("  \(CommonApps.all.count + 1)  Another app or site, by name"))
    #expect(
      script.transcript.filter { $0.hasPrefix("? ") } == [
        "? Which ones? Their numbers, such as 1 3 6:",
        "? Minutes a day they may be used, all together [5]:",
        "? Minutes one solved task adds [5]:",
        "? Tasks a day at most [5]:",
      ])
    // Plain lines: no exclamation marks.
    #expect(!script.transcript.joined().contains("!"))
  }

  @Test func everyListedAppCarriesItsSitesAndTheDesktopAppsTheirNames() {
    #expect(CommonApps.all.count >= 20)
    #expect(CommonApps.all.allSatisfy { !$0.sites.isEmpty && $0.sites.allSatisfy { Site($0) != nil } })
    let discord = CommonApps.named("discord")
    #expect(discord?.classes == ["discord"] && discord?.appIDs.contains("com.discordapp.Discord") == true)
    #expect(CommonApps.named("Telegram")?.executables.contains("telegram-desktop") == true)
    #expect(CommonApps.named("twitter")?.name == "X")
    for name in [
      "Instagram", "TikTok", "YouTube", "Facebook", "X", "Reddit", "Snapchat", "Twitch", "Netflix",
      "Discord", "Telegram", "WhatsApp",
    ] {
      #expect(CommonApps.named(name) != nil, "\(name)")
    }
  }

  @Test func wrongAnswersAreAskedAgainWithWhatToWrite() throws {
    let another = String(CommonApps.all.count + 1)
    let script = Script([
      "", "0", "two", "99", "1, \(another)", "news.example.org", "90s", "2000", "1h", "x", "0", "7", "3",
    ])
    let choice = try script.dialog.run()
    #expect(choice.apps.map(\.name) == ["Instagram"])
    #expect(choice.sites == ["news.example.org"])
    #expect(choice.dailyLimitMinutes == 60)
    #expect(choice.grantMinutes == 7 && choice.maxGrantsPerDay == 3)
    let said = script.transcript.filter { !$0.hasPrefix("? ") && !$0.hasPrefix(" ") }
    #expect(said.contains("Choose at least one number."))
    #expect(said.contains("There is no 0 in the list; choose numbers from 1 to \(another)."))
    #expect(said.contains("There is no two in the list; choose numbers from 1 to \(another)."))
    #expect(
      said.contains("'90s' is not a whole number of minutes, which is what the configuration holds; write 1m or 2m."))
    #expect(said.contains("Choose from 0 to 1440 minutes."))
  }

  @Test func anotherOneByNameIsAnAppUnlessItIsASite() throws {
    let another = String(CommonApps.all.count + 1)
    let app = try Script([another, "Signal", "", "", ""]).dialog.run()
    #expect(app.apps == [RuleApp(name: "Signal")] && app.sites.isEmpty)
    let site = try Script([another, "example.com", "", "", ""]).dialog.run()
    #expect(site.apps.isEmpty && site.sites == ["example.com"])
    // Enter: the window is picked after the questions, as 'rules pick' does.
    let window = try Script(["2 \(another)", "", "", "", ""]).dialog.run()
    #expect(window.pickWindow && window.apps.map(\.name) == ["TikTok"])
    let alone = try Script([another, "", "", "", ""]).dialog.run()
    #expect(alone.pickWindow && alone.apps.isEmpty && alone.sites.isEmpty)
  }

  @Test func theEndOfTheInputStopsTheQuestions() {
    for answers in [[], ["1"], ["1", "", ""], [String(CommonApps.all.count + 1)]] {
      #expect(throws: SetupDialog.InputEnded.self) { try Script(answers).dialog.run() }
    }
  }

  @Test func aRuleOfTheSameNameIsReplacedOtherwiseAdded() throws {
    var choice = SetupChoice()
    choice.apps = [RuleApp(name: "A")]
    let existing = RuleSet([Rule(name: "Social", apps: ["B"])])
    guard case .set = choice.edit(name: "social", existing: existing) else {
      Issue.record("not replaced")
      return
    }
    guard case .add = choice.edit(name: "video", existing: existing) else {
      Issue.record("not added")
      return
    }
  }

  // MARK: - The command, in-process on a file of its own

  private func run(_ arguments: [String], config: String? = nil) async throws -> (Command.Ending, String, String) {
    let folder = NSTemporaryDirectory() + "setup-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/config.json"
    if let config { try config.write(toFile: path, atomically: true, encoding: .utf8) }
    // No bus at this address: the check says so instead of asking the session's.
    let ending = await ConfigurationPlace.$path.withValue(path) {
      await Command.root.run(arguments + ["--address", "unix:path=\(folder)/no-bus"])
    }
    return (ending, (try? String(contentsOfFile: path, encoding: .utf8)) ?? "", path)
  }

  @Test func yesTakesEveryOption() async throws {
    let (ending, text, path) = try await run([
      "setup", "--yes", "--name", "fun", "--app", "youtube", "--app", "Signal", "--site", "news.example.org",
      "--limit", "1h", "--grant", "10m", "--max", "2",
    ])
    #expect(ending == Command.Ending(status: .success))
    let rule = try #require(try Configuration.parse(Array(text.utf8), file: path).0.rules.rules.first)
    #expect(rule.name == "fun")
    #expect(rule.apps.map(\.name) == ["YouTube", "Signal", "news.example.org"])
    #expect(rule.apps[0].sites.map(\.name) == ["youtube.com", "youtu.be"])
    #expect([rule.dailyLimitMinutes, rule.grantMinutes, rule.maxGrantsPerDay] == [60, 10, 2] as [Int])
  }

  @Test func yesKeepsOtherRulesAndReplacesItsOwn() async throws {
    let config =
      #"{"idleMinutes": 3, "rules": [{"name": "chat", "apps": ["Discord"]}, {"name": "social", "apps": ["X"]}]}"#
    let (ending, text, path) = try await run(["setup", "--yes", "--app", "Reddit"], config: config)
    #expect(ending.status == .success)
    let rules = try Configuration.parse(Array(text.utf8), file: path).0.rules.rules
    #expect(rules.map(\.name) == ["chat", "social"])
    #expect(rules[1].apps.map(\.name) == ["Reddit"])
    #expect(text.contains("\"idleMinutes\": 3"))
  }

  @Test(
    arguments: [
      (["setup", "--yes"], ExitCode.usage, "setup --yes needs at least one --app or --site"),
      (["setup", "--app", "Reddit"], .usage, "--app goes with --yes; without it, setup asks"),
      (["setup", "--yes", "--app", "Reddit", "--limit", "90s"], .usage, "--limit: '90s' is not a whole number"),
      (["setup", "--yes", "--app", "Reddit", "--max", "200"], .usage, "--max takes a whole number from 0 to 100"),
      (["setup", "--yes", "--app", "Reddit", "--grant", "0m"], .configError, "rules[1].grantMinutes"),
      (["setup", "--yes", "--app", "Discord"], .configError, "is already covered by the rule \"chat\""),
      (["setup", "--yes", "--site", "https://reddit.com/"], .configError, "is not a host name"),
    ] as [([String], ExitCode, String)])
  func aMistakeIsRefusedAndNothingIsWritten(arguments: [String], status: ExitCode, message: String) async throws {
    let config = #"{"rules": [{"name": "chat", "apps": ["Discord"]}]}"#
    let (ending, text, _) = try await run(arguments, config: config)
    #expect(ending.status == status)
    #expect(ending.error?.contains(message) == true, "\(ending.error ?? "")")
    #expect(text == config)
  }
}
