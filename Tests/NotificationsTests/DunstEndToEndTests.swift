import DBus
import Foundation
import JSON
import Notifications
import TestSupport
import Testing

/// The whole path against a real notification server: `shieldbridge notify`
/// posts to dunst on a virtual X display and a private bus, and xdotool clicks
/// the notification (dunst's middle click invokes the default action).
///
/// Each test has a desktop of its own; they run one after another so that
/// several X servers and dunsts do not compete for the two cores.
@Suite("End to end against dunst under Xvfb", .serialized)
struct DunstEndToEndTests {
  @Test func notifyWaitPrintsTheKeyOfTheClickedAction() async throws {
    let desktop = try await VirtualDesktop()
    let waiting = try BackgroundProcess(
      shieldbridge: [
        "notify", "Instagram is shielded", "Solve a puzzle", "--action", "default=Solve",
        "--action",
        "view=Messages", "--wait",
      ],
      environment: desktop.environment)
    try await desktop.waitUntilDisplayed(1)
    try await desktop.clickNotification(button: 2)
    let result = await waiting.finish()
    #expect(result.status == 0, "\(result.error)")
    #expect(result.output == "default\n")
    #expect(result.error.isEmpty)
  }

  @Test func fivePostsWithTheSameIDLeaveOneNotificationOnScreen() async throws {
    let desktop = try await VirtualDesktop()
    let monitor = try await BusMonitor(address: desktop.bus.address)
    for index in 1...5 {
      let result = try await ShieldBridgeTool.run(
        ["notify", "Tap \(index)", "--id", "shield-open"], environment: desktop.environment)
      #expect(result.status == 0, "\(result.error)")
    }
    try await desktop.waitUntilDisplayed(1)
    let calls = try await monitor.waitForNotifyCalls(5)
    #expect(calls.map(\.summary) == ["Tap 1", "Tap 2", "Tap 3", "Tap 4", "Tap 5"])
    #expect(calls[0].replacesID == 0)
    #expect(
      calls.dropFirst().allSatisfy { $0.replacesID != 0 && $0.replacesID == calls[1].replacesID })
  }

  @Test func aBodyWithMarkupCharactersArrivesEscapedOnTheBus() async throws {
    let desktop = try await VirtualDesktop()
    let monitor = try await BusMonitor(address: desktop.bus.address)
    let doctor = try await ShieldBridgeTool.run(["doctor"], environment: desktop.environment)
    #expect(doctor.status == 0)
    #expect(doctor.output.contains("server: dunst"))
    #expect(doctor.output.contains("body markup (values escaped)"))
    let plain = try await ShieldBridgeTool.run(
      ["notify", "Plain", "<b>Tom</b> & Jerry"], environment: desktop.environment)
    #expect(plain.status == 0, "\(plain.error)")
    let markup = try await ShieldBridgeTool.run(
      ["notify", "Markup", "<b>Tom</b> &amp; Jerry", "--markup"], environment: desktop.environment)
    #expect(markup.status == 0, "\(markup.error)")
    let calls = try await monitor.waitForNotifyCalls(2)
    #expect(calls.map(\.body) == ["&lt;b&gt;Tom&lt;/b&gt; &amp; Jerry", "<b>Tom</b> &amp; Jerry"])
    try await desktop.waitUntilDisplayed(2)
  }

  @Test func aSpoofedActionInvokedIsIgnoredWhileTheRealClickIsHonoured() async throws {
    let desktop = try await VirtualDesktop()
    let monitor = try await BusMonitor(address: desktop.bus.address)
    let waiting = try BackgroundProcess(
      shieldbridge: [
        "notify", "Pick", "--action", "default=Open", "--action", "view=View", "--wait", "--json",
        "--print-id",
      ],
      environment: desktop.environment)
    let posted = try JSONValue(parsing: try await waiting.waitForLine(containing: "\"posted\""))
    let id = try #require(posted["id"]?.integerValue.flatMap(UInt32.init(exactly:)))
    try await desktop.waitUntilDisplayed(1)
    let poster = try #require(try await monitor.waitForNotifyCalls(1).first?.sender)

    // Another program on the bus sends the right id with another key, to the poster and to everyone.
    let spoofer = try Connection(.address(desktop.bus.address))
    for destination in [BusName(rawValue: poster), nil] {
      try spoofer.emit(
        path: NotificationsNames.path, interface: NotificationsInterface.name,
        member: MemberName("ActionInvoked"),
        destination: destination, id, "view")
    }
    // A round trip through the bus: the spoofed signals are delivered before the click is made.
    _ = try await spoofer.nameOwner(.bus)
    try await desktop.clickNotification(button: 2)
    let result = await waiting.finish()
    #expect(result.status == 0, "\(result.error)")
    let action = try JSONValue(
      parsing: try #require(result.output.split(separator: "\n").last.map(String.init)))
    #expect(action["event"] == "action")
    #expect(action["id"]?.integerValue == Int64(id))
    #expect(action["key"] == "default")
  }

  @Test func dunstKilledAndRestartedBetweenPostsIsNeverHandedAnOldID() async throws {
    let desktop = try await VirtualDesktop()
    let monitor = try await BusMonitor(address: desktop.bus.address)
    let post = ["notify", "Shielded", "--id", "shield-open", "--print-id"]
    let first = try await ShieldBridgeTool.run(post, environment: desktop.environment)
    #expect(first.status == 0, "\(first.error)")
    let oldOwner = try #require(desktop.serverOwner)
    try await desktop.stopDunst()
    try await desktop.startDunst()
    #expect(desktop.serverOwner != oldOwner)

    let second = try await ShieldBridgeTool.run(post, environment: desktop.environment)
    #expect(second.status == 0, "\(second.error)")
    let third = try await ShieldBridgeTool.run(post, environment: desktop.environment)
    #expect(third.status == 0, "\(third.error)")
    #expect(third.output == second.output)
    let calls = try await monitor.waitForNotifyCalls(3)
    #expect(
      calls.map(\.replacesID) == [
        0, 0, UInt32(second.output.trimmingCharacters(in: .newlines)) ?? 0,
      ])
    try await desktop.waitUntilDisplayed(1)
  }

  @Test func withoutANotificationServerNotifyExits69WithinTheTimeout() async throws {
    let desktop = try await VirtualDesktop(startDunst: false)
    let result = try await ShieldBridgeTool.run(
      ["notify", "Nobody listens", "--action", "default=Open", "--wait"],
      environment: desktop.environment)
    // NoServer, not a wait for the timeout (which says that nothing answered).
    #expect(result.status == 69)
    #expect(result.error.contains("no notification server"))
  }

  @Test func theEmbeddedServersControlCommandsRefuseToDriveDunst() async throws {
    let desktop = try await VirtualDesktop()
    let result = try await ShieldBridgeTool.run(
      ["notification-server", "list"], environment: desktop.environment)
    #expect(result.status == 69)
    #expect(result.error.contains("not shieldbridge's embedded server"))
  }
}
