import DBus
import JSON
import Model
import Notifications
import TestSupport
import Testing

@testable import ShieldBridge
@testable import ShieldBridgeDemo

@Suite("Forged signals from a third connection neither stop nor steer the service")
struct ForgedSignalServiceTests {
  @Test func aForgedNameOwnerChangedLeavesClickRoutingOn() async throws {
    let sandbox = try Sandbox()
    let handler = sandbox.root.file("puzzle.sh")
    let harness = try await ServiceHarness(
      configuration: ServiceHarness.configuration(puzzleHandler: [handler, "{app}"]), sandbox: sandbox)
    _ = try harness.recordingHandler("puzzle")
    let id = try await harness.call(ServiceInterface.shield.name, "Instagram").decode(UInt32.self)
    let spoofer = try SignalSpoofer(address: harness.bus.address)
    let server = harness.server.connection.uniqueName
    let service = harness.serviceConnection.uniqueName
    // "The server went away", then "the spoofer owns the name now", and the spoofer's own click.
    try spoofer.nameOwnerChanged(to: service, oldOwner: server, newOwner: nil)
    try spoofer.nameOwnerChanged(to: service, oldOwner: server, newOwner: spoofer.uniqueName)
    try spoofer.everyEvent(about: id, to: service)
    try await spoofer.barrier()

    // The real click from the real server is dispatched, with its token: the forged signals came first.
    let token = try harness.server.click(id)
    let record = try await harness.record(after: 0)
    #expect(record.outcome == "handler")
    #expect(try await harness.handlerOutput("puzzle").contains("token=\(token)"))
    #expect(harness.dispatched.count == 1)
    #expect(harness.service.client.serverOwner == server)
  }

  @Test func aForgedNameOwnerChangedOrReplyLeavesAnOpenInlinePuzzleToTheRealAnswer() async throws {
    let harness = try await ServiceHarness()
    let id = try await harness.call(ServiceInterface.shield.name, "Instagram").decode(UInt32.self)
    let beforeClick = harness.activity.count
    try harness.server.click(id)
    let puzzle = try await harness.notification(after: beforeClick, "the task") {
      $0.actions.contains { $0.key == Notification.Action.inlineReplyKey }
    }
    let answer = String(try Demo.answer(of: puzzle))
    let spoofer = try SignalSpoofer(address: harness.bus.address)
    let server = harness.server.connection.uniqueName
    let service = harness.serviceConnection.uniqueName
    try spoofer.nameOwnerChanged(to: service, oldOwner: server, newOwner: nil)
    try spoofer.nameOwnerChanged(to: service, oldOwner: server, newOwner: spoofer.uniqueName)
    // The right answer, from the wrong sender, must not earn a grant.
    try spoofer.everyEvent(about: puzzle.id, reply: answer, to: service)
    try await spoofer.barrier()

    let beforeAnswer = harness.activity.count
    try harness.server.reply(puzzle.id, text: answer)
    let solved = try await harness.notification(after: beforeAnswer, "the solved notification")
    #expect(solved.body.hasPrefix("5 more minutes for Instagram are unlocked for today."))
    let rule = try #require(harness.service.options.configuration.rules.rules.first)
    #expect(try harness.sandbox.store.status(of: rule).value.grantsToday == 1)
  }
}
