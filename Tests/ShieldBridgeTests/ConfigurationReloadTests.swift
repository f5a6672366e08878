import Foundation
import Glibc
import Log
import Model
import TestSupport
import Testing

@testable import Config
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

    // Fixed again: the new rule counts at once; the old one, taken out, stays until tomorrow.
    let fixed = log.count
    try sandbox.writeConfig(#"{"rules":[{"name":"video","apps":["YouTube"]}]}"#)
    _ = try await log.first("the second reload", after: fixed) { $0.hasPrefix("config.json reloaded") }
    _ = try await log.first("the loosening put off", after: fixed) { $0.hasPrefix("config.json loosens the rules") }
    _ = try await harness.service.shield(app: "YouTube")
    _ = try await harness.service.shield(app: "Instagram")
    await #expect(throws: ServiceError.self) { try await harness.service.shield(app: "Facebook") }
    await harness.service.stop()
  }

  /// Issue 22, point 6: a `config.json` kept elsewhere behind a symbolic link reloads when the
  /// file it leads to changes, and follows the link when it is pointed at another file.
  @Test func aConfigBehindASymbolicLinkReloadsWhenItsTargetChanges() async throws {
    let sandbox = try Sandbox()
    let log = EventLog<String>()
    let dotfiles = sandbox.root.file("dotfiles")
    try FileManager.default.createDirectory(atPath: dotfiles, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
      atPath: sandbox.root.file("config/shieldbridge"), withIntermediateDirectories: true)
    let first = dotfiles + "/shieldbridge.json"
    try #"{"rules":[{"name":"social","apps":["Instagram"]}]}"#.write(toFile: first, atomically: true, encoding: .utf8)
    try FileManager.default.createSymbolicLink(atPath: sandbox.configPath, withDestinationPath: first)
    let harness = try await ServiceHarness(
      configuration: try Configuration.load(from: sandbox.configPath).configuration, sandbox: sandbox,
      configurationPath: sandbox.configPath, logger: Logger(sink: LogSink { log.append($0.message) }))
    _ = try await harness.service.shield(app: "Instagram")

    // The file the link leads to is replaced by rename, as editors save it.
    var mark = log.count
    try #"{"rules":[{"name":"video","apps":["YouTube"]}]}"#.write(toFile: first, atomically: true, encoding: .utf8)
    _ = try await log.first("the reload from the link's target", after: mark) {
      $0.hasPrefix("config.json reloaded") && $0.contains("rules video")
    }
    _ = try await harness.service.shield(app: "YouTube")
    // Taken out, Instagram's rule stays in force until tomorrow.
    _ = try await harness.service.shield(app: "Instagram")
    await #expect(throws: ServiceError.self) { try await harness.service.shield(app: "Facebook") }

    // Written in place: the finished write counts there too.
    mark = log.count
    try #"{"rules":[{"name":"games","apps":["Steam"]}]}"#.write(toFile: first, atomically: false, encoding: .utf8)
    _ = try await log.first("the reload after a write in place", after: mark) { $0.contains("rules games") }

    // The link pointed at another folder's file (`ln -sfn`: a new link renamed over the old one).
    let other = sandbox.root.file("elsewhere")
    try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
    let second = other + "/config.json"
    try #"{"rules":[{"name":"news","apps":["Reader"]}]}"#.write(toFile: second, atomically: true, encoding: .utf8)
    mark = log.count
    let newLink = sandbox.configPath + ".new"
    try FileManager.default.createSymbolicLink(atPath: newLink, withDestinationPath: second)
    #expect(rename(newLink, sandbox.configPath) == 0)
    _ = try await log.first("the reload from the new target", after: mark) { $0.contains("rules news") }
    // And that file's changes are followed from now on.
    mark = log.count
    try #"{"rules":[{"name":"chat","apps":["Signal"]}]}"#.write(toFile: second, atomically: true, encoding: .utf8)
    _ = try await log.first("the reload from the new target's write", after: mark) { $0.contains("rules chat") }
    _ = try await harness.service.shield(app: "Signal")
    await harness.service.stop()
  }

  /// Issue 22, point 6: `mv config.json` elsewhere is a removal, as `rm` is: the defaults come back,
  /// from the next day's start (issue 25, point 6): today the rule stays in force.
  @Test func aConfigMovedAwayIsNoticedAsARemoval() async throws {
    let sandbox = try Sandbox()
    let log = EventLog<String>()
    try sandbox.writeConfig(#"{"rules":[{"name":"social","apps":["Instagram"]}]}"#)
    let harness = try await ServiceHarness(
      configuration: try Configuration.load(from: sandbox.configPath).configuration, sandbox: sandbox,
      configurationPath: sandbox.configPath, logger: Logger(sink: LogSink { log.append($0.message) }))
    await #expect(throws: ServiceError.self) { try await harness.service.shield(app: "Facebook") }

    // Out of the folder, as `mv config.json ~/` does: IN_MOVED_FROM alone.
    let moved = log.count
    try FileManager.default.moveItem(atPath: sandbox.configPath, toPath: sandbox.root.file("config.json.away"))
    _ = try await log.first("the reload after the move", after: moved) {
      $0.hasPrefix("config.json reloaded from \(sandbox.configPath)") && $0.hasSuffix("rules social")
    }
    _ = try await log.first("the loosening put off", after: moved) { $0.hasPrefix("config.json loosens the rules") }
    await #expect(throws: ServiceError.self) { try await harness.service.shield(app: "Facebook") }

    // Moved back: IN_MOVED_TO, the rule again.
    let mark = log.count
    try FileManager.default.moveItem(atPath: sandbox.root.file("config.json.away"), toPath: sandbox.configPath)
    _ = try await log.first("the reload after the move back", after: mark) { $0.hasSuffix("rules social") }
    await #expect(throws: ServiceError.self) { try await harness.service.shield(app: "Facebook") }
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
