import DBus
import Foundation
import JSON
import Model
import Notifications
import TestSupport
import Testing

@testable import Config
@testable import ShieldBridge

@Suite("shieldbridge serve meters a real i3 desktop and keeps the day's use across a kill -9")
struct MeterServeTests {
  /// `Usage()` of the service on the bus, parsed.
  private func usage(_ watcher: ServiceWatcher) async throws -> JSONValue {
    let reply = try await watcher.call(ServiceInterface.usage.name)
    return try JSONValue(parsing: try reply.decode(String.self))
  }

  @Test("Focused time is stored every save interval; after kill -9 and a restart the count goes on from it")
  func killAndRestart() async throws {
    let session = try await XSession(windowManager: .i3)
    _ = try await session.launchXterm(windowClass: "Instagram")
    try await session.i3msg(["[class=\"Instagram\"] focus"])
    let sandbox = try Sandbox()
    try sandbox.writeConfig(
      #"{"desktop":"i3","rules":[{"name":"social","apps":["Instagram"],"dailyLimitMinutes":60,"warnMinutes":0}]}"#)
    let desk = try await EmbeddedNotifications(capabilities: NotificationServer.Configuration.defaultCapabilities)
    let watcher = try await ServiceWatcher(address: desk.bus.address)
    let desktop = ["DISPLAY": session.display, "I3SOCK": session.i3Socket ?? ""]
    let arguments = ["--minute-length", "1000", "--save-interval", "1000"]
    let first = try await ServeProcess(
      sandbox: sandbox, address: desk.bus.address, watcher: watcher, environment: desktop, arguments: arguments)

    let store = sandbox.store
    let stored = try await poll("3 seconds of use in the ledger", timeout: .seconds(20)) {
      let seconds = try store.load().value.usedSeconds(for: "social", on: store.today)
      return seconds >= 3 ? seconds : nil
    }
    let counted = try #require(try await usage(watcher).usageRule("social"))
    #expect(counted["counting"]?.boolValue == true)
    let before = try #require(counted["usedSeconds"]?.integerValue)
    #expect(before >= Int64(stored))
    let killed = await first.terminate(with: SIGKILL)
    #expect(killed.termination == .signalled(SIGKILL))
    let kept = try store.load().value.usedSeconds(for: "social", on: store.today)
    // Written every second: what the kill lost is the time since the last write (a few seconds on a loaded machine).
    #expect(Int64(kept) >= before - 5, "the ledger kept \(kept) s of the \(before) s counted")

    let second = try await ServeProcess(
      sandbox: sandbox, address: desk.bus.address, watcher: watcher, environment: desktop, arguments: arguments)
    let resumed = try await poll("the restarted service to count again") {
      let rule = try await usage(watcher).usageRule("social")
      return rule?["counting"]?.boolValue == true ? rule : nil
    }
    #expect((resumed["usedSeconds"]?.integerValue ?? 0) >= Int64(kept))
    #expect(try await usage(watcher)["source"]?["backend"]?.stringValue == "i3")
    _ = await second.terminate()
    #expect(try store.load().value.usedSeconds(for: "social", on: store.today) >= kept)
  }
}
