import DBus
import Foundation
import Notifications
import Spawn
import TestSupport
import Testing

/// The environment of a CLI run: its own runtime directory, so that the identifier store is private to the test.
private func environment(_ runtime: TemporaryDirectory) -> [String: String] {
  ["XDG_RUNTIME_DIR": runtime.path, "DBUS_SESSION_BUS_ADDRESS": ""]
}

/// notify-osd answers `Notify` with the id 0: it keeps no ids. The post succeeded all the same.
@Suite("A server that answers Notify with the id 0, as notify-osd does")
struct ZeroIDServerTests {
  @Test func theClientReturns0AndItsStoreRecordsNothing() async throws {
    let fixture = try await EmbeddedServer(answersZeroIDs: true)
    let store = MemoryIDStore()
    let client = try await fixture.client(store: store)
    var notification = Notification(summary: "shielded")
    notification.identifier = "shield-open"
    #expect(try await client.post(notification) == 0)
    #expect(try await client.post(notification) == 0)
    // Nothing was remembered, so the second post replaced nothing by id.
    #expect(fixture.server.notifications.map(\.replacesID) == [0, 0])
    #expect(fixture.server.notifications.count == 2)
  }

  @Test func notifyWithAnIDExits0AndDedupFallsBackToTheStackTagHint() async throws {
    let fixture = try await EmbeddedServer(
      capabilities: [.body, .init(hint: .dunstStackTag), .init(hint: .canonicalPrivateSynchronous)],
      answersZeroIDs: true)
    let runtime = try TemporaryDirectory()
    for index in 0..<2 {
      let result = try await ShieldBridgeTool.run(
        ["notify", "tap \(index)", "--id", "shield-open", "--print-id", "--address", fixture.bus.address],
        environment: environment(runtime))
      #expect(result.status == 0, "\(result.error)")
      #expect(result.output == "0\n")
      #expect(result.error.isEmpty)
    }
    let received = fixture.server.notifications
    #expect(received.map(\.replacesID) == [0, 0])
    for notification in received {
      #expect(notification.hint(.dunstStackTag) == .string("shield-open"))
      #expect(notification.hint(.canonicalPrivateSynchronous) == .string("shield-open"))
    }
    // The id store has no entry for the identifier: the file was never given one.
    let store = runtime.path + "/shieldbridge/notification-ids.json"
    let text = (try? String(contentsOfFile: store, encoding: .utf8)) ?? ""
    #expect(!text.contains("shield-open"))
  }

  @Test func notifyWithExpireTime0Exits0() async throws {
    let fixture = try await EmbeddedServer(answersZeroIDs: true)
    let result = try await ShieldBridgeTool.run(
      ["notify", "stays", "--expire-time", "0", "--address", fixture.bus.address],
      environment: environment(try TemporaryDirectory()))
    #expect(result.status == 0, "\(result.error)")
    #expect(fixture.server.notifications.map(\.expireTimeout) == [0])
  }

  @Test func waitSaysThereIsNothingToWaitOnAndExits0() async throws {
    let fixture = try await EmbeddedServer(answersZeroIDs: true)
    let result = try await ShieldBridgeTool.run(
      ["notify", "x", "--action", "default=Open", "--wait", "--json", "--print-id", "--address", fixture.bus.address],
      environment: environment(try TemporaryDirectory()))
    #expect(result.status == 0, "\(result.error)")
    #expect(result.output == #"{"event":"posted","id":0}"# + "\n")
    #expect(result.error.contains("the server answered with the id 0"))
    #expect(result.error.contains("nothing can be waited for"))
  }

  @Test func notificationServerIdsZeroAnswers0ToNotifySend() async throws {
    let notifySend = try requiredTool("notify-send", package: "libnotify-bin")
    let bus = try BusDaemon()
    let server = try BackgroundProcess(
      shieldbridge: ["notification-server", "--address", bus.address, "--ids", "zero"])
    _ = try await server.waitForLine(containing: "serving org.freedesktop.Notifications")
    let sent = try Subprocess.run(
      [notifySend, "--print-id", "from notify-send"],
      environment: ShieldBridgeTool.mergedEnvironment(["DBUS_SESSION_BUS_ADDRESS": bus.address]),
      timeout: .seconds(10))
    #expect(sent.status == 0, "\(sent.error)")
    #expect(sent.output == "0\n")
    server.process.signal(SIGTERM)
    #expect(await server.finish().status == 0)
  }

  @Test func idsTakesOnlyNumberedOrZero() async throws {
    let result = try await ShieldBridgeTool.run(
      ["notification-server", "--ids", "random", "--address", "unix:path=/nonexistent"],
      environment: ["DBUS_SESSION_BUS_ADDRESS": ""])
    #expect(result.status == 64)
    #expect(result.error.contains("--ids is numbered or zero, not 'random'"))
  }
}
