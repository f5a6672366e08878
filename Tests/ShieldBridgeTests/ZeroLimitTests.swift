import DBus
import Foundation
import JSON
import Model
import Notifications
import Spawn
import TestSupport
import Testing

@testable import Config
@testable import ShieldBridge

@Suite("A metered rule at 0 minutes is at its limit from the start of the day")
struct ZeroLimitTests {
  @Test("shield --app, then the task, before the meter has seen the app: the task is asked and its grant recorded")
  func taskBeforeTheAppWasSeen() async throws {
    let sandbox = try Sandbox()
    // The app is never started: the meter counts the rule but never sees it.
    let app = "sbzero" + String(UInt32.random(in: 0...999_999_999))
    try sandbox.writeConfig(
      #"{"desktop":"processes","rules":[{"name":"social","apps":["\#(app)"],"#
        + #""dailyLimitMinutes":0,"grantMinutes":1,"warnMinutes":0,"onLimit":"notify"}]}"#)
    let desk = try await EmbeddedNotifications(capabilities: NotificationServer.Configuration.defaultCapabilities)
    let watcher = try await ServiceWatcher(address: desk.bus.address)
    let serve = try await ServeProcess(
      sandbox: sandbox, address: desk.bus.address, watcher: watcher,
      arguments: ["--minute-length", "1000", "--save-interval", "1000"])
    let store = sandbox.store
    // The meter's word is in the ledger: the rule is metered today.
    _ = try await poll("the ledger to say the rule is metered", timeout: HangBound.wait) {
      (try? store.load().value.metered(on: store.today).contains("social")) == true ? true : nil
    }
    let shield = try await sandbox.run(["shield", "--app", app], address: desk.bus.address)
    #expect(shield.status == 0, "\(shield.output) \(shield.error)")

    // What the shield's click opens: the task for the app.
    let task = tasks(seed: 9, count: 1)[0]
    let environment = ShieldBridgeTool.mergedEnvironment(sandbox.serviceEnvironment(address: desk.bus.address))
    let puzzle = try await onOwnThread {
      try Subprocess.run(
        [ShieldBridgeTool.path, "puzzle", "--app", app, "--seed", "9"], input: Array("\(task.answer)\n".utf8),
        environment: environment, timeout: .seconds(30))
    }
    #expect(puzzle.status == 0, "\(puzzle.output) \(puzzle.error)")
    #expect(!puzzle.output.contains("not at its limit"), "\(puzzle.output)")
    #expect(try store.load().value.grants(for: "social", on: store.today) == 1)
    let lifted = try await poll("the grant to reach the meter", timeout: HangBound.wait) {
      let reply = try await watcher.call(ServiceInterface.usage.name)
      let usage = try JSONValue(parsing: try reply.decode(String.self))
      return usage.usageRule("social")?["grantsToday"]?.integerValue == 1 ? usage : nil
    }
    #expect(lifted.usageRule("social")?["limitSeconds"]?.integerValue == 1, "\(lifted)")
    _ = await serve.terminate()
  }
}
