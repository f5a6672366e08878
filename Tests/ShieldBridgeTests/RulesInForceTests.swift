import Foundation
import JSON
import Log
import Model
import TestSupport
import Testing

@testable import Config
@testable import ShieldBridge

/// Issue 25, point 6: what config.json loosens waits for the next day's start,
/// in the service, across its restart, and for `status`.
@Suite("The rules in force today: loosening waits until tomorrow")
struct RulesInForceTests {
  static let rule =
    #"{"rules":[{"name":"social","apps":["Instagram",{"name":"Reddit","class":"reddit","sites":["reddit.com"]}],"dailyLimitMinutes":10,"maxGrantsPerDay":3}]}"#

  @Test("The file keeps every part of a rule, and a file of another day or a damaged one counts for nothing")
  func theFile() throws {
    let sandbox = try Sandbox()
    try sandbox.writeConfig(Self.rule)
    let rules = try Configuration.load(from: sandbox.configPath).configuration.rules
    let path = RulesInForce.path(in: sandbox.store)
    let today = sandbox.store.today
    try RulesInForce(day: today, rules: rules).save(to: path)
    #expect(RulesInForce.load(from: path) == RulesInForce(day: today, rules: rules))

    let looser = RuleSet(
      rules.rules.map {
        var rule = $0
        rule.dailyLimitMinutes = 60
        return rule
      })
    #expect(RulesInForce.resolve(configured: looser, store: sandbox.store) == rules)
    try RulesInForce(day: try #require(today.adding(days: -1)), rules: rules).save(to: path)
    #expect(RulesInForce.resolve(configured: looser, store: sandbox.store) == looser)

    try #"{"day":"2026-12-02","rules":[{"name":""}]}"#.write(toFile: path, atomically: true, encoding: .utf8)
    #expect(RulesInForce.load(from: path) == nil)
    #expect(RulesInForce.resolve(configured: looser, store: sandbox.store) == looser)
  }

  @Test("A higher limit waits, a lower one counts at once, a restart keeps them, status says what comes tomorrow")
  func inTheService() async throws {
    let sandbox = try Sandbox()
    let log = EventLog<String>()
    try sandbox.writeConfig(Self.rule)
    var harness = try await ServiceHarness(
      configuration: try Configuration.load(from: sandbox.configPath).configuration, sandbox: sandbox,
      configurationPath: sandbox.configPath, logger: Logger(sink: LogSink { log.append($0.message) }))
    func limits() throws -> [Int] { try harness.service.status().rules.map(\.rule.dailyLimitMinutes) }
    #expect(try limits() == [10])

    var mark = log.count
    try sandbox.writeConfig(
      Self.rule.replacingOccurrences(of: #""dailyLimitMinutes":10"#, with: #""dailyLimitMinutes":60"#))
    _ = try await log.first("the loosening put off", after: mark) { $0.hasPrefix("config.json loosens the rules") }
    #expect(try limits() == [10])
    let status = try await sandbox.run(["status"])
    #expect(status.output.contains("  from tomorrow: 60 minutes a day"), "\(status.output)")

    mark = log.count
    try sandbox.writeConfig(
      Self.rule.replacingOccurrences(of: #""dailyLimitMinutes":10"#, with: #""dailyLimitMinutes":4"#))
    _ = try await log.first("the reload", after: mark) { $0.hasPrefix("config.json reloaded") }
    #expect(try limits() == [4])

    // Raised again and the service restarted: today's 4 minutes hold.
    try sandbox.writeConfig(
      Self.rule.replacingOccurrences(of: #""dailyLimitMinutes":10"#, with: #""dailyLimitMinutes":60"#))
    await harness.service.stop()
    harness = try await ServiceHarness(
      configuration: try Configuration.load(from: sandbox.configPath).configuration, sandbox: sandbox,
      configurationPath: sandbox.configPath)
    #expect(try limits() == [4])
    await harness.service.stop()

    // What the service kept is yesterday's, in the file and in the ledger: the file's rules from today's start.
    let path = RulesInForce.path(in: sandbox.store)
    let kept = try #require(RulesInForce.load(from: path))
    let yesterday = try #require(kept.day.adding(days: -1))
    try RulesInForce(day: yesterday, rules: kept.rules).save(to: path)
    var ledger = try sandbox.store.load().value
    let copy = ledger.rulesInForce(on: kept.day)
    #expect(copy == RulesInForce.json(of: kept.rules))
    ledger.setRulesInForce(nil, on: kept.day)
    ledger.setRulesInForce(copy, on: yesterday)
    try (ledger.json.serialized + "\n").write(toFile: sandbox.ledgerPath, atomically: true, encoding: .utf8)
    harness = try await ServiceHarness(
      configuration: try Configuration.load(from: sandbox.configPath).configuration, sandbox: sandbox,
      configurationPath: sandbox.configPath)
    #expect(try limits() == [60])
    await harness.service.stop()
  }

  @Test("Deleting rules-in-force.json loosens nothing: the ledger keeps today's rules beside the counts")
  func ledgerCopy() throws {
    let sandbox = try Sandbox()
    try sandbox.writeConfig(Self.rule)
    let rules = try Configuration.load(from: sandbox.configPath).configuration.rules
    let today = sandbox.store.today
    var ledger = Ledger()
    ledger.setRulesInForce(RulesInForce.json(of: rules), on: today)
    try FileManager.default.createDirectory(atPath: sandbox.stateDirectory, withIntermediateDirectories: true)
    try (ledger.json.serialized + "\n").write(toFile: sandbox.ledgerPath, atomically: true, encoding: .utf8)
    let looser = try Configuration.parse(
      Array(Self.rule.replacingOccurrences(of: #""dailyLimitMinutes":10"#, with: #""dailyLimitMinutes":60"#).utf8),
      file: "config.json"
    ).0.rules
    // No rules-in-force.json at all: the ledger's copy holds.
    #expect(RulesInForce.resolve(configured: looser, store: sandbox.store) == rules)
    // A damaged one, or one that says other rules, comes after the ledger's copy.
    let path = RulesInForce.path(in: sandbox.store)
    try #"{"day":"#.write(toFile: path, atomically: true, encoding: .utf8)
    #expect(RulesInForce.resolve(configured: looser, store: sandbox.store) == rules)
    try RulesInForce(day: today, rules: looser).save(to: path)
    #expect(RulesInForce.resolve(configured: looser, store: sandbox.store) == rules)
    // A copy in the ledger that cannot be read is no copy, and no damage to the counts: the file holds.
    try #"{"version":1,"days":[{"date":"\#(today)","grants":{"social":1},"rulesInForce":[{"name":""}]}]}"#.write(
      toFile: sandbox.ledgerPath, atomically: true, encoding: .utf8)
    try RulesInForce(day: today, rules: rules).save(to: path)
    #expect(RulesInForce.resolve(configured: looser, store: sandbox.store) == rules)
    #expect(sandbox.store.storedLedgerLeavingTheFile?.grants(for: "social", on: today) == 1)
  }

  @Test(
    "Whatever changes come, the rules in force are a file their reader takes, and read back the same", arguments: 0..<30
  )
  func readBack(seed: UInt64) throws {
    var random = SeededRandom(seed: seed)
    let names = ["Instagram", "TikTok", "YouTube", "Reddit"]
    var inForce = RuleSet.builtIn
    for _ in 0..<10 {
      var rules: [Rule] = []
      for app in names where Bool.random(using: &random) {
        let pattern =
          switch Int.random(in: 0..<3, using: &random) {
          case 0: AppPattern(name: app)
          case 1: AppPattern(name: app, classes: [app.lowercased()])
          default: AppPattern(name: app, sites: [Site(app.lowercased() + ".com")!])
          }
        if rules.isEmpty || Bool.random(using: &random) {
          let name =
            ["social", "social2", "Video", "chat", "more"].filter { name in
              !rules.contains { $0.name.lowercased() == name.lowercased() }
            }.randomElement(using: &random) ?? "last"
          rules.append(Rule(name: name, apps: [], dailyLimitMinutes: Int.random(in: 1...60, using: &random)))
        }
        rules[rules.count - 1].apps.append(pattern)
      }
      inForce = inForce.tightened(by: RuleSet(rules))
      let copy = RulesInForce.json(of: inForce)
      #expect(RulesInForce.rules(copy, file: "rules-in-force.json") == inForce, "\(copy.serialized)")
    }
  }

  @Test("Without the file, status, status --json and rules set read today's rules as the meter has them")
  func readersAgree() async throws {
    let sandbox = try Sandbox()
    let config =
      #"{"rules":[{"name":"social","apps":[{"name":"Instagram","sites":["instagram.com"]}],"dailyLimitMinutes":35}]}"#
    try sandbox.writeConfig(config)
    // Today's rules as the service kept them: the plain name, 4 minutes, 3 min 46 s used.
    let today = sandbox.store.today
    var ledger = Ledger()
    ledger.recordUsedSeconds(226, for: "social", on: today)
    ledger.setRulesInForce(
      RulesInForce.json(of: RuleSet([Rule(name: "social", apps: ["Instagram"], dailyLimitMinutes: 4)])), on: today)
    try FileManager.default.createDirectory(atPath: sandbox.stateDirectory, withIntermediateDirectories: true)
    try (ledger.json.serialized + "\n").write(toFile: sandbox.ledgerPath, atomically: true, encoding: .utf8)
    try #"{"day":"#.write(toFile: RulesInForce.path(in: sandbox.store), atomically: true, encoding: .utf8)

    let inForce = RulesInForce.resolve(
      configured: try Configuration.load(from: sandbox.configPath).configuration.rules, store: sandbox.store)
    #expect(inForce.rules.map(\.dailyLimitMinutes) == [4])
    #expect(inForce.rules.first?.apps.count == 1)
    let text = try await sandbox.run(["status"])
    #expect(text.output.contains("  limit today: 4 minutes"), "\(text.output)")
    let json = try JSONValue(parsing: Array(try await sandbox.run(["status", "--json"]).output.utf8))
    let rule = try #require(json["rules"]?.arrayValue?.first)
    #expect(rule["limitTodayMinutes"]?.integerValue == 4, "\(json.serialized)")
    #expect(rule["limitSeconds"]?.integerValue == 240, "\(json.serialized)")
    #expect(rule["usedSeconds"]?.integerValue == 226, "\(json.serialized)")
    let set = try await sandbox.run(["rules", "set", "social", "--limit", "20m"])
    #expect(set.output.contains("This loosens today's rules"), "\(set.output)")
  }
}
