import Brake
import Foundation
import Log
import TestSupport
import Testing

@testable import ShieldBridge

/// `config.json` is watched with inotify and reloaded: a good new file takes
/// effect at once, a broken one keeps the last good one and the log says why.
@Suite struct ConfigurationReloadTests {
  @Test func aConfigWrittenAfterTheStartTakesEffectAndABrokenOneIsKeptOut() async throws {
    let sandbox = try Sandbox()
    let log = EventLog<String>()
    // Started before config.json, or even its folder, exists: the built-in rule covers every app.
    #expect(!FileManager.default.fileExists(atPath: sandbox.root.file("config")))
    let harness = try await ServiceHarness(
      configuration: .defaults, sandbox: sandbox, configurationPath: sandbox.configPath,
      logger: Logger(sink: LogSink { log.append($0.message) }))
    _ = try await harness.service.shield(app: "Facebook")

    try sandbox.writeConfig(#"{"rules":[{"name":"social","apps":["Instagram"],"maxGrantsPerDay":3}]}"#)
    _ = try await log.first("the reload") { $0.hasPrefix("config.json reloaded from \(sandbox.configPath)") }
    await #expect(throws: ServiceError.self) { try await harness.service.shield(app: "Facebook") }
    _ = try await harness.service.shield(app: "Instagram")
    #expect(try harness.service.status().rules.map(\.rule.maxGrantsPerDay) == [3])

    // Written in place (no rename): the finished write is what counts.
    let broken = log.count
    try #"{"rules": [ {"name": "#.write(toFile: sandbox.configPath, atomically: false, encoding: .utf8)
    let refusal = try await log.first("the refusal", after: broken) { $0.contains("cannot be used") }
    #expect(refusal.hasPrefix("config.json changed but cannot be used, so the last good one stays in force: "))
    #expect(refusal.contains(sandbox.configPath))
    _ = try await harness.service.shield(app: "Instagram")
    await #expect(throws: ServiceError.self) { try await harness.service.shield(app: "Facebook") }

    // Fixed again: the new rule replaces the old one.
    let fixed = log.count
    try sandbox.writeConfig(#"{"rules":[{"name":"video","apps":["YouTube"]}]}"#)
    _ = try await log.first("the second reload", after: fixed) { $0.hasPrefix("config.json reloaded") }
    _ = try await harness.service.shield(app: "YouTube")
    await #expect(throws: ServiceError.self) { try await harness.service.shield(app: "Instagram") }
    await harness.service.stop()
  }

  @Test func aSchemeChangeWaitsForARestart() async throws {
    let sandbox = try Sandbox()
    let log = EventLog<String>()
    try sandbox.writeConfig(#"{"rules":[{"name":"social","apps":["Instagram"]}]}"#)
    let harness = try await ServiceHarness(
      configuration: try Configuration.load(from: sandbox.configPath).configuration, sandbox: sandbox,
      configurationPath: sandbox.configPath, logger: Logger(sink: LogSink { log.append($0.message) }))
    try sandbox.writeConfig(#"{"scheme":"other","rules":[{"name":"social","apps":["Instagram","TikTok"]}]}"#)
    let line = try await log.first("the restart notice") { $0.contains("kept until the service restarts") }
    #expect(line.hasSuffix("restart shieldbridge): the scheme"))
    _ = try await harness.service.shield(app: "TikTok")
    #expect(harness.service.options.configuration.scheme == "shieldbridge")
    await harness.service.stop()
  }
}
