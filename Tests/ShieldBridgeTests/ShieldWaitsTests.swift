import Brake
import DBus
import Foundation
import JSON
import Notifications
import TestSupport
import Testing

@testable import ShieldBridge
@testable import ShieldBridgeDemo

/// The shield waits for the user (issue 13, item 1), against the embedded server:
/// no expiry, resident where the server has `persistence`, and a dismissal
/// that holds back the meter's next shield for the rule today.
@Suite("The shield waits until it is acted on or dismissed")
struct ShieldWaitsTests {
  @Test func theShieldNeverExpiresAndIsResidentWhereTheServerHasPersistence() async throws {
    let harness = try await ServiceHarness(capabilities: ServiceHarness.allCapabilities + [.persistence])
    let start = harness.activity.count
    let id = try await harness.call(ServiceNames.shield, "Instagram").decode(UInt32.self)
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
    _ = try await harness.call(ServiceNames.shield, "Instagram")
    let shield = try await harness.notification(after: start, "the shield")
    #expect(shield.expireTimeout == 0)
    #expect(shield.hint(HintName.resident) == nil)
    // What the presentation decides for the other notifications is unchanged.
    let presentation = Presentation(capabilities: ServiceHarness.allCapabilities + [.persistence])
    let plain = presentation.prepare(Notification(summary: "plain"))
    #expect(plain.expiry == .serverDefault)
    #expect(plain.hints.resident == nil)
  }

  @Test func aDismissedShieldDoesNotComeBackFromTheMeterUntilAskedForOrUnlocked() async throws {
    let harness = try await ServiceHarness(capabilities: ServiceHarness.allCapabilities + [.persistence])
    let first = try #require(try await harness.service.shieldFromMeter(app: "Instagram"))
    try harness.server.close(first, reason: .dismissed)
    _ = try await poll("the service to see the dismissal") {
      await harness.service.dismissed["social"] != nil ? true : nil
    }
    // The same rule's next limit today: held back, also for another of its apps.
    #expect(try await harness.service.shieldFromMeter(app: "YouTube") == nil)
    // Asked for by name, it is shown, and the dismissal is forgotten.
    let start = harness.activity.count
    let asked = try await harness.call(ServiceNames.shield, "Instagram").decode(UInt32.self)
    #expect(try await harness.notification(after: start, "the asked-for shield").id == asked)
    try harness.server.close(asked, reason: .dismissed)
    _ = try await poll("the service to see the second dismissal") {
      await harness.service.dismissed["social"] != nil ? true : nil
    }
    #expect(try await harness.service.shieldFromMeter(app: "Instagram") == nil)
    // A grant is the user acting on it: the next limit shows it again.
    await harness.service.lifted(rule: "social")
    #expect(try await harness.service.shieldFromMeter(app: "Instagram") != nil)
  }

  @Test func closedShieldsAreKeptForTheLastSixteenOnly() {
    var closed = RecentlyClosed<String>(capacity: ShieldService.closedShieldsKept)
    for id in UInt32(1)...40 { closed.insert("links \(id)", for: id) }
    #expect(closed.count == 16)
    #expect(closed[24] == nil)
    #expect(closed[25] == "links 25")
    #expect(closed[40] == "links 40")
    // Closed again (shown from the history and dismissed once more): kept once, as the newest.
    closed.insert("again", for: 25)
    #expect(closed.count == 16)
    #expect(closed[25] == "again")
    // A new notification under a kept id: the old links are gone.
    closed.remove(40)
    #expect(closed[40] == nil)
    #expect(closed.count == 15)
  }
}
