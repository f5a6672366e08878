import DBus
import Foundation
import JSON
import Model
import Notifications
import TestSupport
import Testing

@testable import ShieldBridge
@testable import ShieldBridgeDemo

/// The shield waits for the user (issue 13, item 1), against the embedded server:
/// no expiry, and resident where the server has `persistence`. What a
/// dismissal holds back is the core's to decide (ShieldCoreTests).
@Suite("The shield waits until it is acted on or dismissed")
struct ShieldWaitsTests {
  @Test func theShieldNeverExpiresAndIsResidentWhereTheServerHasPersistence() async throws {
    let harness = try await ServiceHarness(capabilities: ServiceHarness.allCapabilities + [.persistence])
    let start = harness.activity.count
    let id = try await harness.call(ServiceInterface.shield.name, "Instagram").decode(UInt32.self)
    let shield = try await harness.notification(after: start, "the shield")
    #expect(shield.id == id)
    #expect(shield.expireTimeout == 0)
    #expect(shield.hint(HintName.resident) == .boolean(true))
    #expect(shield.isResident)

    // Resident: a click leaves it on screen, so a puzzle closed unsolved finds it still there.
    let beforeClick = harness.activity.count
    _ = try harness.server.click(id)
    #expect(try await harness.record(after: 0).outcome == "inline-reply")
    let puzzle = try await harness.notification(after: beforeClick, "the task") {
      $0.actions.contains { $0.key == Notification.Action.inlineReplyKey }
    }
    #expect(harness.server.notification(id) != nil)
    // Solved: the shield has done its work, and the service closes it.
    try harness.server.reply(puzzle.id, text: String(try Demo.answer(of: puzzle)))
    #expect(try await harness.notifications.closeReason(of: id) == .closed)
  }

  @Test func withoutPersistenceTheShieldNeverExpiresAndIsNotResident() async throws {
    let harness = try await ServiceHarness()
    let start = harness.activity.count
    _ = try await harness.call(ServiceInterface.shield.name, "Instagram")
    let shield = try await harness.notification(after: start, "the shield")
    #expect(shield.expireTimeout == 0)
    #expect(shield.hint(HintName.resident) == nil)
    // What the presentation decides for the other notifications is unchanged.
    let presentation = Presentation(capabilities: ServiceHarness.allCapabilities + [.persistence])
    let plain = presentation.prepare(Notification(summary: "plain"))
    #expect(plain.expiry == .serverDefault)
    #expect(plain.hints.resident == nil)
  }
}
