import DBus
import TestSupport
import Testing

@testable import ShieldBridge

@Suite("Concurrent shields for one identifier leave one notification")
struct ConcurrentShieldTests {
  /// Shields `app` from `count` connections of their own at once, as `count` CLI runs would.
  private func shieldAtOnce(_ app: String, count: Int, on harness: ServiceHarness) async throws -> [UInt32] {
    var connections: [Connection] = []
    for _ in 0..<count { connections.append(try Connection(.address(harness.bus.address))) }
    return try await withThrowingTaskGroup(of: UInt32.self) { group in
      for connection in connections {
        group.addTask {
          let message = try Message.methodCall(
            destination: ServiceNames.busName, path: ServiceNames.path, interface: ServiceInterface.name,
            member: ServiceInterface.shield.name)
          try message.append(app)
          return try await connection.call(message, timeout: HangBound.answer).decode(UInt32.self)
        }
      }
      var ids: [UInt32] = []
      for try await id in group { ids.append(id) }
      return ids
    }
  }

  @Test(arguments: 0..<3)
  func tenShieldsAtTheSameMomentLeaveOneNotification(round: Int) async throws {
    let harness = try await ServiceHarness()
    let ids = try await shieldAtOnce("Instagram", count: 10, on: harness)
    // Every Shield has been answered, so every Notify it caused has reached the server.
    #expect(Set(ids).count == 1, "round \(round): ids \(ids)")
    #expect(harness.server.notifications.count == 1, "round \(round): \(harness.server.notifications.map(\.id))")
  }

  @Test func shieldsAtOnceAfterTheNotificationWasClosedLeaveOneNewNotification() async throws {
    let harness = try await ServiceHarness()
    let first = try await harness.call(ServiceInterface.shield.name, "Instagram").decode(UInt32.self)
    try harness.server.close(first, reason: .dismissed)
    _ = try await harness.notifications.closeReason(of: first)
    // The remembered id is stale now: each post that read it before the first answered would start its own.
    let ids = try await shieldAtOnce("YouTube", count: 10, on: harness)
    #expect(Set(ids).count == 1, "ids \(ids)")
    #expect(harness.server.notifications.count == 1, "\(harness.server.notifications.map(\.id))")
  }
}
