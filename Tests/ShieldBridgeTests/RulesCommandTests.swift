import Config
import Foundation
import JSON
import Posix
import ShieldBridge
import Spawn
import TestSupport
import Testing

/// `shieldbridge rules` on the real binary and a real file: refusals leave it
/// byte for byte, unknown keys stay, concurrent calls follow one another, and
/// a running `serve` takes the change.
@Suite struct RulesCommandTests {
  /// A file written by hand: its own spacing, an unknown key at each level, a number written with a fraction.
  private static let handWritten = #"""
    {"theme":   "dark", "later": {"weights": [1.50, 2]},
      "rules": [ {"name": "social", "apps": ["Instagram"], "dailyLimitMinutes": 5, "pauseSeconds": 20,
      "byDay": {"mon": 30}} ] }
    """#

  private func bytes(_ sandbox: Sandbox) throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: sandbox.configPath))
  }

  @Test func aRefusedChangeLeavesTheFileByteForByte() async throws {
    let sandbox = try Sandbox()
    try sandbox.writeConfig(Self.handWritten)
    let before = try bytes(sandbox)
    let refusals: [([String], Int32, String)] = [
      (
        ["rules", "add-site", "social", "--site", "https://www.reddit.com/"], 78,
        "rules[0].apps[1].sites[0]: the site \"https://www.reddit.com/\" of app \"https://www.reddit.com/\" in rule \"social\" is not a host name"
      ),
      (["rules", "add", "Social", "--app", "TikTok"], 78, "rules[1].name: the name \"Social\" is already used"),
      (
        ["rules", "set", "social", "--limit", "3000m"], 78,
        "rules[0].dailyLimitMinutes: expected a whole number from 0 to 1440"
      ),
      (["rules", "set", "social", "--limit", "90s"], 64, "'90s' is not a whole number of minutes"),
      (["rules", "remove", "video"], 65, "no rule is named \"video\""),
      (["rules", "remove-app", "social", "--app", "TikTok"], 65, "the rule \"social\" lists no app \"TikTok\""),
      (["rules", "add-app", "social"], 64, "give at least one --app"),
    ]
    for (arguments, status, message) in refusals {
      let result = try await sandbox.run(arguments)
      #expect(result.status == status, "\(arguments)")
      #expect(result.error.contains(message), "\(arguments): \(result.error)")
      #expect(try bytes(sandbox) == before, "\(arguments)")
    }
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: sandbox.root.file("config/shieldbridge")).sorted() == [
        "config.json", "config.lock",
      ])
  }

  @Test func aChangeKeepsUnknownKeysAndWritesTheStableLayout() async throws {
    let sandbox = try Sandbox()
    try sandbox.writeConfig(Self.handWritten)
    let result = try await sandbox.run(["rules", "add-site", "social", "--site", "reddit.com"])
    #expect(result.status == 0, "\(result.error)")
    #expect(result.output.contains("added reddit.com to the rule \"social\""))
    let text = String(decoding: try bytes(sandbox), as: UTF8.self)
    #expect(
      text == #"""
        {
          "theme": "dark",
          "later": {
            "weights": [1.50, 2]
          },
          "rules": [
            {
              "name": "social",
              "apps": [
                "Instagram",
                {"name": "reddit.com", "sites": ["reddit.com"]}
              ],
              "dailyLimitMinutes": 5,
              "pauseSeconds": 20,
              "byDay": {"mon": 30}
            }
          ]
        }

        """#)
    // The warnings about the keys this version does not know go to stderr, as the service logs them.
    #expect(result.error.contains("rules[0].byDay: unknown key, ignored"))
    let list = try await sandbox.run(["rules", "list"])
    #expect(list.status == 0)
    #expect(list.output.hasPrefix("social: apps Instagram; sites reddit.com\n  limit 5m a day, 5m per task"))
  }

  /// Issue 33's second point: the list's Instagram, written by an earlier setup as its site alone.
  @Test func addAppOfAnAppTheRuleHasJoinsItsEntryAndSaysWhatItAdded() async throws {
    let sandbox = try Sandbox()
    try sandbox.writeConfig(
      #"{"rules": [{"name": "social", "apps": ["TikTok", {"name": "Instagram", "sites": ["instagram.com"]}]}]}"#)
    let result = try await sandbox.run(["rules", "add-app", "social", "--app", "Instagram", "--app", "Reddit"])
    #expect(result.status == 0, "\(result.error)")
    let path = sandbox.configPath
    #expect(
      result.output.hasPrefix(
        "\(path): the rule \"social\" has Instagram already: added class Instagram, app id Instagram and "
          + "executable Instagram to it\n\(path): added Reddit to the rule \"social\"\n"
          + "social: apps TikTok, Instagram (class Instagram, app id Instagram, exe Instagram), Reddit; "
          + "sites instagram.com\n"), "\(result.output)")
    let before = try bytes(sandbox)
    let again = try await sandbox.run(["rules", "add-app", "social", "--app", "instagram"])
    #expect(again.status == 0, "\(again.error)")
    #expect(
      again.output.hasPrefix(
        "\(path): the rule \"social\" has Instagram already, with these names: nothing was added\n"))
    #expect(try bytes(sandbox) == before)
  }

  @Test func removingTheLastRuleSaysThatNoRuleIsSet() async throws {
    let sandbox = try Sandbox()
    try sandbox.writeConfig(Self.handWritten)
    let result = try await sandbox.run(["rules", "remove", "social"])
    #expect(result.status == 0, "\(result.error)")
    #expect(
      result.output.hasPrefix(
        "\(sandbox.configPath): removed the rule \"social\"\nNo rule is set: no app or site is counted or limited.\n"),
      "\(result.output)")
    let text = String(decoding: try bytes(sandbox), as: UTF8.self)
    #expect(!text.contains("\"rules\"") && text.contains("\"theme\": \"dark\""))
    let status = try await sandbox.run(["status"])
    #expect(status.output.contains("No rule is set"), "\(status.output)")
  }

  @Test func addWithoutAnAppOrSitePointsToPick() async throws {
    let sandbox = try Sandbox()
    let result = try await sandbox.run(["rules", "add", "video"])
    #expect(result.status == 64)
    #expect(result.error.contains("run 'shieldbridge rules pick video' to start it"), "\(result.error)")
    #expect(!FileManager.default.fileExists(atPath: sandbox.configPath))
  }

  @Test func twentyConcurrentCallsAllLand() async throws {
    let sandbox = try Sandbox()
    try sandbox.writeConfig(Self.handWritten)
    let results = try await withThrowingTaskGroup(of: Subprocess.Result.self) { group in
      for index in 0..<20 {
        group.addTask { try await sandbox.run(["rules", "add-app", "social", "--app", "App\(index)"]) }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(results.allSatisfy { $0.status == 0 }, "\(results.map(\.error))")
    let loaded = try Configuration.load(from: sandbox.configPath).configuration
    let apps = Set(loaded.rules.rules[0].apps.map(\.name))
    #expect(apps == Set(["Instagram"] + (0..<20).map { "App\($0)" }))
    #expect(String(decoding: try bytes(sandbox), as: UTF8.self).contains("\"theme\": \"dark\""))
  }

  @Test func aRunningServeTakesTheChange() async throws {
    let service = try await RunningService()
    defer { _ = service }
    await #expect(throws: CommandFailed.self) { try await service.shield("TikTok") }
    let added = try await service.run(["rules", "add-app", "social", "--app", "TikTok"])
    #expect(added.status == 0, "\(added.error)")
    _ = try await poll("serve to reload config.json") {
      service.serve.logLines.first { $0.contains("config.json reloaded from \(service.sandbox.configPath)") }
    }
    _ = try await service.shield("TikTok")
    let status = try await service.run(["status", "--json"])
    #expect(status.output.contains(#""apps":["Instagram","YouTube","TikTok"]"#), "\(status.output)")
    _ = await service.serve.terminate()
  }

  @Test func anEditThatCannotTakeTheLockIsRefusedAsBusyAndWritesNothing() throws {
    let sandbox = try Sandbox()
    try sandbox.writeConfig(Self.handWritten)
    let before = try bytes(sandbox)
    let lock = try FileLock(path: sandbox.root.file("config/shieldbridge/config.lock"), timeout: .seconds(5))
    do {
      try Configuration.edit(
        at: sandbox.configPath, .addApps(rule: "social", apps: [RuleApp(name: "TikTok")]),
        lockTimeout: .milliseconds(100))
      Issue.record("edited while another edit held the lock")
    } catch {
      guard case .busy(let message) = error else { throw error }
      #expect(message.hasSuffix("config.lock for 0.1 seconds; try again"), "\(message)")
    }
    #expect(try bytes(sandbox) == before)
    // Given up, the lock lets the next edit through.
    lock.unlock()
    try Configuration.edit(at: sandbox.configPath, .addApps(rule: "social", apps: [RuleApp(name: "TikTok")]))
  }

  @Test func aConfigBehindASymbolicLinkStaysALink() async throws {
    let sandbox = try Sandbox()
    let elsewhere = sandbox.root.file("dotfiles.json")
    try #"{"rules": [{"name": "social", "apps": ["Instagram"]}]}"#.write(
      toFile: elsewhere, atomically: true, encoding: .utf8)
    try FileManager.default.createDirectory(
      atPath: sandbox.root.file("config/shieldbridge"), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: sandbox.configPath, withDestinationPath: elsewhere)
    let result = try await sandbox.run(["rules", "set", "social", "--limit", "1h30m"])
    #expect(result.status == 0, "\(result.error)")
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: sandbox.configPath) == elsewhere)
    #expect(try Configuration.load(from: elsewhere).configuration.rules.rules[0].dailyLimitMinutes == 90)
  }
}
