import Notifications
import TestSupport
import Testing

/// notify-osd answers `Notify` with 0: the shield is on screen, so `shield` succeeds.
@Suite("shield against a server that answers Notify with the id 0, as notify-osd does")
struct ZeroIDShieldTests {
  @Test func shieldExits0AndPrints0WhileTheServerHasTheNotification() async throws {
    let running = try await RunningService(answersZeroIDs: true)
    let result = try await running.run(["shield", "--app", "Instagram"])
    #expect(result.status == 0, "\(result.error)")
    #expect(result.output == "0\n")
    let shield = try await running.desk.notification(after: 0, "the shield")
    #expect(shield.summary == "Instagram is paused")
    // A second shield is posted as well: nothing by id is left to replace.
    let again = try await running.run(["shield", "--app", "Instagram"])
    #expect(again.status == 0, "\(again.error)")
    let second = try await running.desk.notification(after: 1, "the second shield")
    #expect(second.replacesID == 0)
    let ended = await running.serve.terminate()
    #expect(ended.status == 0, "\(ended.error)")
  }
}
