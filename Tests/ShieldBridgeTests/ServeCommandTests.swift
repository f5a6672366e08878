import DBus
import Foundation
import JSON
import Notifications
import ShieldBridge
import Spawn
import TestSupport
import Testing

@Suite("shieldbridge serve as a process: shields, one log line per dispatch, and a clean end")
struct ServeCommandTests {
  @Test func shieldPrintsTheIDOfTheNotificationTheServerReceived() async throws {
    let running = try await RunningService()
    let result = try await running.run(["shield", "--app", "Instagram"])
    #expect(result.status == 0, "\(result.error)")
    let shield = try await running.desk.notification(after: 0, "the shield")
    #expect(result.output == "\(shield.id)\n")
    #expect(shield.sender == running.serve.uniqueName)
    #expect(shield.summary == "Instagram is paused")
    #expect(shield.actions.first?.key == Notification.Action.defaultKey)
  }

  @Test func sigtermClosesItsNotificationsReleasesTheNameAndExitsZero() async throws {
    let running = try await RunningService()
    let id = try await running.shield("Instagram")
    let ended = await running.serve.terminate()
    #expect(ended.status == 0, "\(ended.error)")
    #expect(try await running.desk.closeReason(of: id) == .closed)
    // serve gave the name back (and had its reply) before it exited: no owner now.
    #expect(try await running.watcher.connection.nameOwner(ServiceNames.busName) == nil)
    #expect(ended.error.hasSuffix("shieldbridge: stopped\n"))
  }

  @Test func aSecondServeOnTheSameBusExits75AndLeavesTheFirstServing() async throws {
    let running = try await RunningService()
    let second = try await running.run(["serve", "--address", running.desk.bus.address])
    #expect(second.status == 75)
    #expect(second.error == "shieldbridge: another ShieldBridge service already owns org.shieldbridge.ShieldBridge\n")
    #expect(try await running.watcher.connection.nameOwner(ServiceNames.busName) == running.serve.uniqueName)
    _ = try await running.shield("YouTube")
  }

  @Test func losingTheBusEndsServeWith69AndSaysSo() async throws {
    let running = try await RunningService()
    running.desk.bus.stop()
    let ended = await running.serve.process.finish()
    #expect(ended.status == 69)
    #expect(ended.error.contains("shieldbridge: lost the message bus"))
    #expect(ended.error.hasSuffix("; stopping\n"))
  }

  @Test func everyDispatchIsOneLineOnStderrAndOneSignal() async throws {
    let running = try await RunningService()
    let opened = try await running.watcher.call(ServiceInterface.open.name, "shieldbridge://puzzle?app=Instagram")
    #expect(try JSONValue(parsing: opened.decode(String.self)).outcome == "handler")
    _ = try await running.watcher.call(ServiceInterface.open.name, "shieldbridge://view?app=Instagram&view=feed")
    // A link that does not parse is an error for the caller, not a dispatch.
    await #expect(throws: DBusError.self) {
      try await running.watcher.call(ServiceInterface.open.name, "shieldbridge://puzzle?app=%G1")
    }
    let id = try await running.shield("Instagram")
    try running.desk.server.click(id, action: "shieldbridge://view?app=Instagram&view=direct&id=shield-open")
    _ = try await running.watcher.record(after: 2, "the click's dispatch")

    let ended = await running.serve.terminate()
    #expect(ended.status == 0, "\(ended.error)")
    let records = running.watcher.dispatched.events
    #expect(records.map(\.outcome) == ["handler", "refused", "opened"])
    let lines = ended.error.split(separator: "\n").filter { $0.hasPrefix("shieldbridge: dispatched ") }
    let puzzleHandler = running.sandbox.root.file("puzzle.sh")
    let viewHandler = running.sandbox.root.file("view.sh")
    let expected: [Substring] = [
      "shieldbridge: dispatched puzzle app=Instagram grant=5 id=shield-open: handler (\(puzzleHandler))",
      "shieldbridge: dispatched view app=Instagram view=feed id=shield-open: refused "
        + "(the view 'feed' is not configured for Instagram)",
      "shieldbridge: dispatched view app=Instagram view=direct id=shield-open: opened (\(viewHandler))",
    ]
    #expect(lines == expected)
    #expect(try await running.sandbox.handlerOutput("view").first == "arg=https://www.instagram.com/direct/inbox/")
  }

  @Test func shieldForAnAppNoRuleCoversExits78AndPostsNothing() async throws {
    let running = try await RunningService()
    let refused = try await running.run(["shield", "--app", "Facebook"])
    #expect(refused.status == 78)
    #expect(refused.error.contains("no rule covers the app 'Facebook'"))
    #expect(refused.output.isEmpty)
    // The next shield is the first notification the server sees.
    _ = try await running.shield("YouTube")
    #expect(try await running.desk.notification(after: 0, "the shield").summary == "YouTube is paused")
  }

  @Test func openHandsTheLinkToTheRunningService() async throws {
    let running = try await RunningService()
    let result = try await running.run(["open", "shieldbridge://puzzle?app=YouTube&grant=5"])
    #expect(result.status == 0, "\(result.error)")
    let printed = try JSONValue(parsing: result.output)
    #expect(printed.outcome == "handler")
    // Only the service emits Dispatched: the link went to it, and it ran the handler.
    #expect(try await running.watcher.record(after: 0) == printed)
    #expect(try await running.sandbox.handlerOutput("puzzle").prefix(2) == ["arg=YouTube", "arg=5"])
  }
}
