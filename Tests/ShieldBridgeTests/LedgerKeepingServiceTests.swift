import Desktop
import Foundation
import Glibc
import JSON
import Model
import TestSupport
import Testing

@testable import ShieldBridge

/// Issue 22, points 2 and 6, through the running service: the ledger on disk
/// loses or refuses what the service holds, and the service keeps it.
@Suite("The running service keeps its grants and use when the ledger is pruned, damaged or newer")
struct LedgerKeepingServiceTests {
  private func backend(for rules: [Rule]) -> ProcessesDesktop {
    let set = RuleSet(rules)
    return ProcessesDesktop(covers: { set.match($0) != nil })
  }

  @Test("Grants lost from the file come back with the next save, and puzzle refuses beyond the maximum")
  func grantsComeBack() async throws {
    let sandbox = try Sandbox()
    let app = try RenamedSleep(in: sandbox)
    let running = try app.launch()
    let rule = Rule(
      name: "social", apps: [AppPattern(name: app.name)], dailyLimitMinutes: 1, grantMinutes: 1, maxGrantsPerDay: 2,
      warnMinutes: 0, onLimit: .notify)
    // The same rule for `shieldbridge puzzle`, which reads config.json.
    try sandbox.writeConfig(
      #"{"rules":[{"name":"social","apps":["\#(app.name)"],"dailyLimitMinutes":1,"grantMinutes":1,"#
        + #""maxGrantsPerDay":2,"warnMinutes":0,"onLimit":"notify"}]}"#)
    let harness = try await MeterHarness(rules: [rule], desktop: backend(for: [rule]), sandbox: sandbox)
    let store = sandbox.store

    // Two grants, each at the limit the meter saw, recorded as a terminal puzzle records them.
    for grants in 0..<2 {
      do {
        _ = try await poll("the limit at \(grants) grant(s) in the ledger") {
          try store.load().value.limitReached(for: "social", on: store.today) == grants ? true : nil
        }
      } catch {
        let ledger = (try? String(contentsOfFile: store.path, encoding: .utf8)) ?? "none"
        Issue.record("\(error)\nledger: \(ledger)\nlog:\n\(harness.log.events.joined(separator: "\n"))")
        throw error
      }
      _ = try store.recordGrant(for: rule)
      // The service takes the grant in (with 1-s minutes a busy machine may have counted past the
      // new limit already, so it need not lift the rule: Unlocked is not awaited).
      _ = try await poll("the service to hold \(grants + 1) grant(s)") {
        try await harness.usage().usageRule("social")?["grantsToday"]?.integerValue == Int64(grants + 1) ? true : nil
      }
    }
    _ = try await poll("the limit at 2 grants in the ledger", timeout: .seconds(30)) {
      try store.load().value.limitReached(for: "social", on: store.today) == 2 ? true : nil
    }
    let task = tasks(seed: 5, count: 1)[0]
    let usedUp = try await sandbox.run(["puzzle", "--app", app.name, "--seed", "5"], input: "\(task.answer)\n")
    #expect(usedUp.status == 75)

    // Today's entry leaves the file (as a clock set a week forward and back prunes it).
    var mark = harness.log.count
    try #"{"version":1,"days":[]}"#.write(toFile: store.path, atomically: true, encoding: .utf8)
    _ = try await harness.logLine(after: mark, containing: "the ledger lacks grants or use this service knows")
    _ = try await poll("the grants back in the ledger") {
      try store.load().value.grants(for: "social", on: store.today) == 2 ? true : nil
    }
    let afterPrune = try await sandbox.run(["puzzle", "--app", app.name, "--seed", "5"], input: "\(task.answer)\n")
    #expect(afterPrune.status == 75)
    #expect(afterPrune.output == "Today’s extra time for \(app.name) is used up. The limit resets tomorrow.\n")
    #expect(try store.load().value.grants(for: "social", on: store.today) == 2)

    // A damaged ledger is moved aside by the next reader; the service writes its grants into the new one.
    try "{\"version\":1,".write(toFile: store.path, atomically: false, encoding: .utf8)
    _ = try await poll("the damaged ledger moved aside") {
      sandbox.stateFiles().contains { $0.hasPrefix("ledger.json.corrupt-") } ? true : nil
    }
    _ = try await poll("the grants back in the new ledger") {
      (try? store.load().value.grants(for: "social", on: store.today)) == 2 ? true : nil
    }
    let afterDamage = try await sandbox.run(["puzzle", "--app", app.name, "--seed", "5"], input: "\(task.answer)\n")
    #expect(afterDamage.status == 75)

    // A hand edit to 10,000 grants raises nothing: the limit stays 1 + 2 × 1 minutes.
    mark = harness.log.count
    let edited = try String(contentsOfFile: store.path, encoding: .utf8)
      .replacingOccurrences(of: #""grants":{"social":2}"#, with: #""grants":{"social":10000}"#)
    #expect(edited.contains("10000"))
    try edited.write(toFile: store.path, atomically: true, encoding: .utf8)
    _ = try await harness.logLine(after: mark, containing: "the ledger holds 10000 grants for the rule 'social'")
    let usage = try await harness.usage()
    #expect(usage.usageRule("social")?["limitSeconds"]?.integerValue == 3)
    #expect(usage.usageRule("social")?["grantsToday"]?.integerValue == 2)
    #expect(harness.log.events.filter { $0.contains("the ledger holds 10000 grants") }.count == 1)

    running.process.signal(SIGKILL)
    _ = await running.finish()
    await harness.stop()
  }

  @Test("A ledger from a newer version is refused once in the log, left as it is, and the count goes on")
  func newerLedger() async throws {
    let sandbox = try Sandbox()
    let app = try RenamedSleep(in: sandbox)
    let running = try app.launch()
    let rule = Rule(
      name: "social", apps: [AppPattern(name: app.name)], dailyLimitMinutes: 600, warnMinutes: 0, onLimit: .notify)
    let harness = try await MeterHarness(rules: [rule], desktop: backend(for: [rule]), sandbox: sandbox)
    let store = sandbox.store
    _ = try await poll("some use stored") { try harness.storedSeconds("social") >= 1 ? true : nil }

    let newer = #"{"version":2,"days":[],"future":true}"#
    try newer.write(toFile: store.path, atomically: true, encoding: .utf8)
    let refusal = try await harness.logLine(containing: "cannot store today's use")
    #expect(refusal.contains("is newer than this ShieldBridge reads"))
    #expect(refusal.contains("the meter counts in memory"))
    func used() async throws -> Int {
      Int(try await harness.usage().usageRule("social")?["usedSeconds"]?.integerValue ?? 0)
    }
    // Several save intervals (1 s each) go by, the count grows, and the file stays as it was.
    let before = try await used()
    _ = try await poll("the count to go on for 4 s", timeout: .seconds(30)) {
      try await used() >= before + 4 ? true : nil
    }
    #expect(try String(contentsOfFile: store.path, encoding: .utf8) == newer)
    #expect(harness.log.events.filter { $0.contains("cannot store today's use") }.count == 1)

    // The newer file removed: the next save writes what was counted in memory.
    let counted = try await used()
    try FileManager.default.removeItem(atPath: store.path)
    _ = try await harness.logLine(containing: "the ledger is written again")
    _ = try await poll("the use counted in memory in the ledger") {
      try harness.storedSeconds("social") >= counted ? true : nil
    }
    running.process.signal(SIGKILL)
    _ = await running.finish()
    await harness.stop()
  }
}
