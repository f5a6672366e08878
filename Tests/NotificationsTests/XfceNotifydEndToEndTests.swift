import DBus
import Notifications
import TestSupport
import Testing

/// What a click on xfce4-notifyd's bubble sends, as `NotificationClient`
/// sees it: the rows of `docs/reference/notification-servers.md` for xfce4-notifyd
/// 0.7.3, pinned against the real server under Xvfb on a private bus.
///
/// Each sequence is fenced: after the click the test posts a second
/// notification and closes it itself, and reads the events up to that
/// close. Signals from one server reach one connection in the order they
/// were sent, so whatever the click sent has arrived by then, and the
/// sequence is exact (nothing more came), with no sleep.
///
/// Each test has a desktop of its own; they run one after another so that
/// several X servers do not compete for the two cores.
@Suite("xfce4-notifyd's clicks as the client sees them", .serialized)
struct XfceNotifydEndToEndTests {
  /// The shield's two actions, both labelled, so both are buttons.
  static let actions: [Notification.Action] = [
    .init(key: "default", label: "Solve"), .init(key: "view", label: "Messages"),
  ]

  @Test func aClickOnTheSecondButtonSendsItsKeyThenADismissal() async throws {
    let events = try await clickedEvents(actions: Self.actions) { server, bubble in
      try await server.clickAction(1, of: 2, on: bubble)
    }
    #expect(events.sequence == [.action(id: events.id, key: "view"), .closed(id: events.id, reason: .dismissed)])
  }

  @Test func aClickOnTheDefaultActionsButtonSendsDefaultThenADismissal() async throws {
    let events = try await clickedEvents(actions: Self.actions) { server, bubble in
      try await server.clickAction(0, of: 2, on: bubble)
    }
    #expect(events.sequence == [.action(id: events.id, key: "default"), .closed(id: events.id, reason: .dismissed)])
  }

  @Test func aClickOnTheBodyOnlyDismissesAlthoughThereIsADefaultAction() async throws {
    let events = try await clickedEvents(actions: Self.actions) { server, bubble in
      try await server.clickBody(of: bubble)
    }
    #expect(events.sequence == [.closed(id: events.id, reason: .dismissed)])
  }

  @Test func aClickOnTheBodyOfANotificationWithoutActionsDismissesIt() async throws {
    let events = try await clickedEvents(actions: []) { server, bubble in
      try await server.clickBody(of: bubble)
    }
    #expect(events.sequence == [.closed(id: events.id, reason: .dismissed)])
  }

  @Test func theServerNamesItselfAndAdvertisesActionsAndMarkup() async throws {
    let desktop = try await VirtualDesktop(startDunst: false)
    let server = try await XfceNotifyd(on: desktop)
    let client = try await NotificationClient.connect(to: .address(desktop.bus.address), timeout: .seconds(10))
    let information = try await client.serverInformation()
    #expect(information.name == "Xfce Notify Daemon")
    #expect(information.version == "0.7.3")
    let capabilities = try await client.capabilities()
    #expect(capabilities.contains("actions"))
    #expect(capabilities.contains("body-markup"))
    #expect(!capabilities.contains("persistence"))
    client.disconnect()
    try await server.stop()
    #expect(server.owner == nil)
  }

  /// What the client saw for one notification with `actions` after `gesture`:
  /// its id and every event about it, up to the fence.
  private func clickedEvents(
    actions: [Notification.Action],
    _ gesture: (XfceNotifyd, XfceNotifyd.Bubble) async throws -> Void
  ) async throws -> (id: UInt32, sequence: [NotificationEvent]) {
    let desktop = try await VirtualDesktop(startDunst: false)
    let server = try await XfceNotifyd(on: desktop)
    let client = try await NotificationClient.connect(to: .address(desktop.bus.address), timeout: .seconds(10))
    let events = client.events()
    let id = try await client.post(
      Notification(summary: "Instagram is shielded", body: "Solve a puzzle", actions: actions, expiry: .never))
    let bubble = try await server.waitForBubble()
    try await gesture(server, bubble)
    try await server.waitUntilGone(bubble)

    let fence = try await client.post(Notification(summary: "Fence", expiry: .never))
    #expect(fence != id)
    try await client.close(fence)
    let sequence = try await eventsAbout(id, in: events, until: .closed(id: fence, reason: .closed))
    client.disconnect()
    try await server.stop()
    return (id, sequence)
  }
}
