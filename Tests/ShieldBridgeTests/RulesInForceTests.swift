import Brake
import Foundation
import Log
import TestSupport
import Testing

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

    // What the service kept is yesterday's: the file's rules from today's start.
    let path = RulesInForce.path(in: sandbox.store)
    let kept = try #require(RulesInForce.load(from: path))
    try RulesInForce(day: try #require(kept.day.adding(days: -1)), rules: kept.rules).save(to: path)
    harness = try await ServiceHarness(
      configuration: try Configuration.load(from: sandbox.configPath).configuration, sandbox: sandbox,
      configurationPath: sandbox.configPath)
    #expect(try limits() == [60])
    await harness.service.stop()
  }
}
