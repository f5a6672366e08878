import DBus
import Foundation
import JSON
import Notifications
import TestSupport
import Testing

/// The environment of a CLI run: its own runtime directory, and no session bus.
private func environment() throws -> [String: String] {
  ["XDG_RUNTIME_DIR": try TemporaryDirectory().path, "DBUS_SESSION_BUS_ADDRESS": ""]
}

@Suite("Forged signals from a third connection change nothing for notify --wait or the client")
struct ForgedSignalTests {
  /// What a forged `NameOwnerChanged` claims: that the server went away, or that the spoofer took its name.
  enum Claim: String, CaseIterable, Sendable {
    case released, takenOver
  }

  @Test(arguments: Claim.allCases)
  func aForgedNameOwnerChangedLeavesNotifyWaitingForTheRealClick(claim: Claim) async throws {
    let fixture = try await EmbeddedServer()
    let activity = fixture.server.activity()
    let process = try BackgroundProcess(
      shieldbridge: [
        "notify", "Pick", "--action", "default=Open", "--wait", "--json", "--address", fixture.bus.address,
      ],
      environment: try environment())
    let notification = try await nextNotification(activity)
    let spoofer = try SignalSpoofer(address: fixture.bus.address)
    let server = fixture.server.connection.uniqueName
    switch claim {
    case .released:
      try spoofer.nameOwnerChanged(to: notification.sender, oldOwner: server, newOwner: nil)
    case .takenOver:
      // Were the spoofer believed to own the name, its own ActionInvoked would count.
      try spoofer.nameOwnerChanged(to: notification.sender, oldOwner: server, newOwner: spoofer.uniqueName)
      try spoofer.everyEvent(about: notification.id, to: notification.sender)
    }
    try await spoofer.barrier()
    let token = try fixture.server.click(notification.id)
    let result = await process.finish()
    #expect(result.status == 0, "\(result.error)")
    let json = try JSONValue(parsing: result.output.trimmingCharacters(in: .newlines))
    #expect(
      json
        == .object([
          ("event", "action"), ("id", .int(notification.id)), ("key", "default"),
          ("activation_token", .string(token)),
        ]))
  }

  @Test func forgedEventsOfEveryKindLeaveNotifyWaitingForTheRealClose() async throws {
    let fixture = try await EmbeddedServer(capabilities: ["actions", "body", "inline-reply"])
    let activity = fixture.server.activity()
    let process = try BackgroundProcess(
      shieldbridge: [
        "notify", "7 × 13?", "--action", "default=Open", "--action", "inline-reply=Answer", "--wait", "--address",
        fixture.bus.address,
      ],
      environment: try environment())
    let notification = try await nextNotification(activity)
    let spoofer = try SignalSpoofer(address: fixture.bus.address)
    try spoofer.everyEvent(about: notification.id, to: notification.sender)
    try await spoofer.barrier()
    try fixture.server.close(notification.id, reason: .dismissed)
    let result = await process.finish()
    // A close under --wait exits 0, as notify-send's does; the output says it was the real one.
    #expect(result.status == 0, "\(result.error)")
    #expect(result.output == "dismissed\n")
  }

  @Test func aForgedNameOwnerChangedNeitherEndsTheClientsNotificationsNorForgetsTheServer() async throws {
    let fixture = try await EmbeddedServer()
    let client = try await fixture.client()
    let events = client.events()
    let id = try await client.post(Notification(summary: "x", actions: [.init(key: "default", label: "Open")]))
    let spoofer = try SignalSpoofer(address: fixture.bus.address)
    let server = fixture.server.connection.uniqueName
    try spoofer.nameOwnerChanged(to: client.connection.uniqueName, oldOwner: server, newOwner: nil)
    try spoofer.nameOwnerChanged(
      to: client.connection.uniqueName, oldOwner: server, newOwner: spoofer.uniqueName)
    try spoofer.everyEvent(about: id, to: client.connection.uniqueName)
    try await spoofer.barrier()
    let token = try fixture.server.click(id)
    let received = try await collect(3, "the real click and close", from: events)
    #expect(
      received == [
        .activationToken(id: id, token: token), .action(id: id, key: "default"),
        .closed(id: id, reason: .dismissed),
      ])
    #expect(client.serverOwner == server)
  }
}
