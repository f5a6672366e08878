import DBus
import Notifications
import TestSupport

/// A private bus with ShieldBridge's embedded notification server on it, in
/// this process, and everything the server saw.
final class EmbeddedNotifications: Sendable {
  let bus: BusDaemon
  let server: NotificationServer
  /// Every notification and event the server saw.
  let activity = EventLog<NotificationServer.Activity>()
  private let collector: Task<Void, Never>

  init(capabilities: [Capability], answersZeroIDs: Bool = false) async throws {
    bus = try BusDaemon()
    server = try NotificationServer(
      connection: try Connection(.address(bus.address)),
      configuration: NotificationServer.Configuration(
        capabilities: capabilities, answersZeroIDs: answersZeroIDs))
    try await server.start()
    collector = activity.collect(server.activity())
  }

  deinit {
    collector.cancel()
  }

  /// The next notification the server receives after position `after`.
  func notification(
    after: Int, _ what: String = "a notification",
    where matches: @escaping @Sendable (ReceivedNotification) -> Bool = { _ in true }
  ) async throws -> ReceivedNotification {
    let event = try await activity.first(what, after: after) { event in
      if case .notified(let notification) = event { return matches(notification) }
      return false
    }
    guard case .notified(let notification) = event else { throw PollTimedOut(what: what) }
    return notification
  }

  /// The reason notification `id` was closed with, once it is.
  func closeReason(of id: UInt32, timeout: Duration = HangBound.wait) async throws -> CloseReason {
    let event = try await activity.first("notification \(id) to be closed", timeout: timeout) { event in
      if case .closed(id, _) = event { return true }
      return false
    }
    guard case .closed(_, let reason) = event else { throw PollTimedOut(what: "a close of \(id)") }
    return reason
  }
}
