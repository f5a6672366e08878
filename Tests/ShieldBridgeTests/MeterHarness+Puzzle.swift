import Notifications

@testable import ShieldBridge
@testable import ShieldBridgeDemo

extension MeterHarness {
  /// Clicks `shield`, answers the inline puzzle it brings up, and waits for the service's
  /// `Unlocked` for `rule`: the grant every desktop's meter test takes the same way.
  func solveInlinePuzzle(of shield: ReceivedNotification, rule: String, minutes: UInt32 = 5) async throws {
    let activity = notifications.activity.count
    _ = try server.click(shield.id)
    let puzzle = try await notifications.notification(after: activity, "the inline puzzle") {
      $0.summary == "A short task"
    }
    let signals = self.signals.count
    try server.reply(puzzle.id, text: String(try Demo.answer(of: puzzle)))
    _ = try await signal(after: signals, .unlocked(rule: rule, minutes: minutes))
  }
}
