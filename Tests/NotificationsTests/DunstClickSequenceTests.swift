import DBus
import Notifications
import TestSupport
import Testing

/// What dunst sends for each gesture, as `NotificationClient` sees it: the
/// dunst rows of `docs/reference/notification-servers.md`, pinned against dunst under
/// Xvfb with `Tests/Fixtures/dunstrc` (dunst's own mouse defaults).
///
/// Each sequence is fenced as in ``XfceNotifydEndToEndTests``: a second
/// notification, closed by the client, whose close comes after everything
/// the gesture sent.
@Suite("dunst's clicks as the client sees them", .serialized)
struct DunstClickSequenceTests {
  static let actions: [Notification.Action] = [
    .init(key: "default", label: "Solve"), .init(key: "view", label: "Messages"),
  ]

  @Test func aMiddleClickSendsTheDefaultActionThenADismissal() async throws {
    let events = try await gestureEvents(actions: Self.actions, staysOnScreen: false) {
      try await $0.clickNotification(button: 2)
    }
    #expect(events.sequence == [.action(id: events.id, key: "default"), .closed(id: events.id, reason: .dismissed)])
  }

  @Test func aLeftClickOnlyDismissesAlthoughThereIsADefaultAction() async throws {
    let events = try await gestureEvents(actions: Self.actions, staysOnScreen: false) {
      try await $0.clickNotification(button: 1)
    }
    #expect(events.sequence == [.closed(id: events.id, reason: .dismissed)])
  }

  @Test func aMiddleClickTakesTheOnlyActionAsTheDefault() async throws {
    let events = try await gestureEvents(actions: [.init(key: "view", label: "Messages")], staysOnScreen: false) {
      try await $0.clickNotification(button: 2)
    }
    #expect(events.sequence == [.action(id: events.id, key: "view"), .closed(id: events.id, reason: .dismissed)])
  }

  @Test func dunstctlActionInvokesTheDefaultAndLeavesTheNotificationOnScreen() async throws {
    let events = try await gestureEvents(actions: Self.actions, staysOnScreen: true) {
      _ = try $0.dunstctl(["action", "0"])
    }
    #expect(events.sequence == [.action(id: events.id, key: "default")])
  }

  @Test func dunstctlCloseDismisses() async throws {
    let events = try await gestureEvents(actions: Self.actions, staysOnScreen: false) {
      _ = try $0.dunstctl(["close"])
    }
    #expect(events.sequence == [.closed(id: events.id, reason: .dismissed)])
  }

  /// What the client saw for one notification with `actions` after `gesture`: its id and every event about it.
  ///
  /// - Parameter staysOnScreen: Whether the notification is still shown after the gesture.
  private func gestureEvents(
    actions: [Notification.Action], staysOnScreen: Bool, _ gesture: (VirtualDesktop) async throws -> Void
  ) async throws -> (id: UInt32, sequence: [NotificationEvent]) {
    let desktop = try await VirtualDesktop()
    let client = try await NotificationClient.connect(to: .address(desktop.bus.address), timeout: .seconds(10))
    let events = client.events()
    let id = try await client.post(
      Notification(summary: "Instagram is shielded", body: "Solve a puzzle", actions: actions, expiry: .never))
    try await desktop.waitUntilDisplayed(1)
    try await gesture(desktop)
    try await desktop.waitUntilDisplayed(staysOnScreen ? 1 : 0)

    let fence = try await client.post(Notification(summary: "Fence", expiry: .never))
    #expect(fence != id)
    try await client.close(fence)
    let sequence = try await eventsAbout(id, in: events, until: .closed(id: fence, reason: .closed))
    try await desktop.waitUntilDisplayed(staysOnScreen ? 1 : 0)
    client.disconnect()
    return (id, sequence)
  }
}
