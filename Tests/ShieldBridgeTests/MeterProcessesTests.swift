import Desktop
import Foundation
import Glibc
import JSON
import Model
import Posix
import Store
import Synchronization
import TestSupport
import Testing

@testable import ShieldBridge

/// A copy of `/bin/sleep` under a name of its own, as a covered app that runs.
struct RenamedSleep {
  let name: String
  let path: String

  init(in sandbox: Sandbox) throws {
    // At most 15 bytes, so that `comm` holds the whole name; unique, as the scan sees every test's processes.
    name = "sbapp" + String(UInt32.random(in: 0...999_999_999))
    path = sandbox.root.file(name)
    try copyExecutable(from: "/bin/sleep", to: path)
  }

  func launch() throws -> BackgroundProcess {
    try BackgroundProcess([path, "600"])
  }
}

@Suite("The meter counts a covered program that runs (the processes backend) and acts at the limit")
struct MeterProcessesTests {
  private func backend(for rules: [Rule]) -> ProcessesDesktop {
    let set = RuleSet(rules)
    return ProcessesDesktop(covers: { set.match($0) != nil })
  }

  @Test("The warning, then at the limit LimitReached, the shield, and SIGTERM where hiding is impossible")
  func limitCloses() async throws {
    let sandbox = try Sandbox()
    let app = try RenamedSleep(in: sandbox)
    let running = try app.launch()
    let rules = [
      Rule(name: "social", apps: [AppPattern(name: app.name)], dailyLimitMinutes: 2, warnMinutes: 1, onLimit: .hide)
    ]
    let harness = try await MeterHarness(rules: rules, desktop: backend(for: rules), sandbox: sandbox)
    _ = try await harness.notification(summary: "\(app.name): 1 minute left today")
    _ = try await harness.signal(.limitReached(rule: "social", app: app.name))
    let shield = try await harness.notification(summary: "\(app.name) is paused")
    #expect(shield.actions.contains { $0.key == "default" })
    _ = try await harness.logLine(containing: "processes cannot hide")
    let finished = await running.finish(timeout: .seconds(10))
    #expect(finished.termination == .signalled(SIGTERM))

    let usage = try await harness.usage()
    #expect(usage["source"]?["backend"]?.stringValue == "processes")
    #expect(usage["source"]?["counting"]?.stringValue == "running")
    let rule = try #require(usage.usageRule("social"))
    #expect(rule["limitSeconds"]?.integerValue == 2)
    #expect(rule["overLimit"]?.boolValue == true)
    #expect((rule["usedSeconds"]?.integerValue ?? 0) >= 2)
    #expect(rule["remainingSeconds"]?.integerValue == 0)
    #expect(rule["grantsToday"]?.integerValue == 0)
    #expect(try harness.storedSeconds("social") >= 2)
    await harness.stop()
  }

  @Test("Over the limit a relaunch is closed at once; after a grant another process recorded, it may run")
  func relaunchAndGrant() async throws {
    let sandbox = try Sandbox()
    let app = try RenamedSleep(in: sandbox)
    let first = try app.launch()
    let rule = Rule(
      name: "social", apps: [AppPattern(name: app.name)], dailyLimitMinutes: 1, grantMinutes: 5, warnMinutes: 0,
      onLimit: .close)
    let harness = try await MeterHarness(rules: [rule], desktop: backend(for: [rule]), sandbox: sandbox)
    _ = try await harness.signal(.limitReached(rule: "social", app: app.name))
    #expect(await first.finish(timeout: .seconds(10)).termination == .signalled(SIGTERM))

    let mark = harness.log.count
    let second = try app.launch()
    _ = try await harness.logLine(after: mark, containing: "rule social: asked 1 process(es) to close")
    #expect(await second.finish(timeout: .seconds(10)).termination == .signalled(SIGTERM))

    // A terminal puzzle records its grant in the ledger from another process.
    _ = try sandbox.store.recordGrant(for: rule)
    let signals = harness.signals.count
    let third = try app.launch()
    _ = try await harness.signal(after: signals, .unlocked(rule: "social", minutes: 5))
    let usage = try await harness.usage()
    #expect(usage.usageRule("social")?["grantsToday"]?.integerValue == 1)
    #expect(usage.usageRule("social")?["overLimit"]?.boolValue == false)
    #expect(usage.usageRule("social")?["counting"]?.boolValue == true)
    #expect(third.process.exitStatus == nil)
    third.process.signal(SIGKILL)
    _ = await third.finish()
    await harness.stop()
  }

  @Test("A new day lifts the limit: Unlocked with the day's own minutes, and the count starts again")
  func newDay() async throws {
    let sandbox = try Sandbox()
    let app = try RenamedSleep(in: sandbox)
    let first = try app.launch()
    let rule = Rule(
      name: "social", apps: [AppPattern(name: app.name)], dailyLimitMinutes: 3, warnMinutes: 0, onLimit: .close)
    // The wall clock the service reads, moved a day on while it runs: the ledger's clock. The boot
    // time moves with it, as after a day asleep; a wall clock moved alone opens no day (issue 22).
    let offset = Mutex<Int64>(0)
    let clock = WallClock(
      now: { WallTime.now.adding(seconds: offset.withLock { $0 }) },
      boot: { BootTime(nanoseconds: BootTime.now.nanoseconds + UInt64(offset.withLock { $0 }) * 1_000_000_000) })
    let harness = try await MeterHarness(
      rules: [rule], desktop: backend(for: [rule]), sandbox: sandbox, clock: clock)
    _ = try await harness.signal(.limitReached(rule: "social", app: app.name))
    #expect(await first.finish(timeout: .seconds(10)).termination == .signalled(SIGTERM))
    let today = try #require(try await harness.usage()["date"]?.stringValue)

    offset.withLock { $0 = 86_400 }
    let signals = harness.signals.count
    let second = try app.launch()
    _ = try await harness.signal(after: signals, .unlocked(rule: "social", minutes: 3))
    _ = try await harness.logLine(containing: "meter: a new day")
    let usage = try await harness.usage()
    #expect(usage["date"]?.stringValue != today)
    #expect((usage.usageRule("social")?["usedSeconds"]?.integerValue ?? 99) < 3)
    // The new day's limit comes in its turn, and with it the close.
    _ = try await harness.signal(after: signals, .limitReached(rule: "social", app: app.name))
    #expect(await second.finish(timeout: .seconds(10)).termination == .signalled(SIGTERM))
    await harness.stop()
  }

  @Test(
    "onLimit notify leaves the app alone; a grant recorded elsewhere while it runs is seen within the save interval")
  func notifyAndGrantWhileInUse() async throws {
    let sandbox = try Sandbox()
    let app = try RenamedSleep(in: sandbox)
    let running = try app.launch()
    let rule = Rule(
      name: "social", apps: [AppPattern(name: app.name)], dailyLimitMinutes: 1, grantMinutes: 30, warnMinutes: 0,
      onLimit: .notify)
    let harness = try await MeterHarness(rules: [rule], desktop: backend(for: [rule]), sandbox: sandbox)
    _ = try await harness.signal(.limitReached(rule: "social", app: app.name))
    _ = try await harness.notification(summary: "\(app.name) is paused")
    // Nothing arrives from the desktop while the app keeps running: the regular save reads the grant.
    let signals = harness.signals.count
    _ = try sandbox.store.recordGrant(for: rule)
    _ = try await harness.signal(after: signals, .unlocked(rule: "social", minutes: 30))
    #expect(running.process.exitStatus == nil)
    #expect(!harness.log.events.contains { $0.contains("to close") || $0.contains("hid") })
    running.process.signal(SIGKILL)
    _ = await running.finish()
    await harness.stop()
  }

  @Test("A shield asked for by hand before the limit: its task is refused and nothing is granted (issue 20)")
  func shieldBeforeTheLimit() async throws {
    let rule = Rule(name: "social", apps: ["Reddit"], warnMinutes: 0, onLimit: .notify)
    // Nothing covered runs: the meter counts the rule, which stays under its limit.
    let harness = try await MeterHarness(rules: [rule], desktop: ProcessesDesktop(covers: { _ in false }))
    _ = try await harness.logLine(containing: "meter: watching the desktop")
    // The started meter saves at once from its loop: wait for the write, not for the log line.
    _ = try await poll("the ledger to name the metered rule") {
      (try? harness.store.load().value.metered(on: harness.store.today)) == ["social"] ? true : nil
    }

    _ = try await harness.service.shield(app: "Reddit")
    let shield = try await harness.notification(summary: "Reddit is paused")
    let activity = harness.notifications.activity.count
    _ = try harness.server.click(shield.id)
    let refusal = try await harness.notifications.notification(after: activity, "the refusal") {
      $0.summary == "Reddit is paused" || $0.summary == "A short task"
    }
    #expect(refusal.body == "Reddit is not at its limit yet: the task unlocks time only once today’s limit is used.")
    #expect(try harness.store.load().value.grants(for: "social", on: harness.store.today) == 0)
    await harness.stop()
  }

  @Test("With only the built-in rule nothing is metered and Usage() says so")
  func builtInRuleMetersNothing() async throws {
    let harness = try await MeterHarness(rules: [], desktop: ProcessesDesktop(covers: { _ in true }))
    _ = try await harness.logLine(containing: "meter: off")
    let usage = try await harness.usage()
    #expect(usage["source"]?["backend"]?.stringValue == "off")
    #expect(usage["rules"]?.arrayValue?.isEmpty == true)
    await harness.stop()
  }
}
