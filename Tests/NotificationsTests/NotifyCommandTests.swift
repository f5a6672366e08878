import DBus
import Foundation
import JSON
import Notifications
import TestSupport
import Testing

/// The environment of a CLI run: its own runtime directory, so that the identifier store is private to the test.
private func environment(_ runtime: TemporaryDirectory) -> [String: String] {
  ["XDG_RUNTIME_DIR": runtime.path, "DBUS_SESSION_BUS_ADDRESS": ""]
}

@Suite("shieldbridge notify posts what the command line says")
struct NotifyCommandPostingTests {
  @Test func everyOptionReachesTheServerAndPrintIDPrintsTheID() async throws {
    let fixture = try await EmbeddedServer()
    let runtime = try TemporaryDirectory()
    let result = try await ShieldBridgeTool.run(
      [
        "notify", "Instagram is shielded", "Solve a puzzle", "--address", fixture.bus.address,
        "--app-name", "Blocker",
        "--icon", "dialog-warning", "--urgency", "critical", "--expire-time", "0", "--hint",
        "string:category:x.y",
        "--hint", "int:x:5", "--hint", "int:y:6", "--hint", "variant:x-level:uint32 3",
        "--print-id",
      ], environment: environment(runtime))
    #expect(result.status == 0, "\(result.error)")
    #expect(result.error.isEmpty)
    let id = try #require(UInt32(result.output.trimmingCharacters(in: .whitespacesAndNewlines)))
    let received = try #require(fixture.server.notification(id))
    #expect(received.summary == "Instagram is shielded")
    #expect(received.body == "Solve a puzzle")
    #expect(received.appName == "Blocker")
    #expect(received.icon == "dialog-warning")
    #expect(received.expireTimeout == 0)
    #expect(received.hint("urgency") == .byte(2))
    #expect(received.hint("category") == .string("x.y"))
    #expect(received.hint("x") == .int32(5))
    #expect(received.hint("x-level") == .uint32(3))
  }

  @Test func withoutPrintIDOrJSONNothingIsPrinted() async throws {
    let fixture = try await EmbeddedServer()
    let result = try await ShieldBridgeTool.run(
      ["notify", "quiet", "--address", fixture.bus.address],
      environment: environment(try TemporaryDirectory()))
    #expect(result.status == 0)
    #expect(result.output.isEmpty)
    #expect(fixture.server.notifications.map(\.summary) == ["quiet"])
    #expect(fixture.server.notifications.first?.appName == "shieldbridge")
  }

  @Test func theBodyIsEscapedForAMarkupServerUnlessMarkupIsAskedFor() async throws {
    let fixture = try await EmbeddedServer()
    let runtime = try TemporaryDirectory()
    for arguments in [
      ["notify", "a", "<b>Tom</b> & Jerry"], ["notify", "b", "<b>Tom</b> &amp; Jerry", "--markup"],
    ] {
      let result = try await ShieldBridgeTool.run(
        arguments + ["--address", fixture.bus.address], environment: environment(runtime))
      #expect(result.status == 0, "\(result.error)")
    }
    #expect(
      fixture.server.notifications.map(\.body) == [
        "&lt;b&gt;Tom&lt;/b&gt; &amp; Jerry", "<b>Tom</b> &amp; Jerry",
      ])
  }

  @Test func fivePostsWithTheSameIDLeaveOneNotification() async throws {
    let fixture = try await EmbeddedServer()
    let runtime = try TemporaryDirectory()
    var ids: Set<String> = []
    for index in 0..<5 {
      let result = try await ShieldBridgeTool.run(
        [
          "notify", "tap \(index)", "--id", "shield-open", "--print-id", "--address",
          fixture.bus.address,
        ],
        environment: environment(runtime))
      #expect(result.status == 0, "\(result.error)")
      ids.insert(result.output)
    }
    #expect(ids.count == 1)
    #expect(fixture.server.notifications.map(\.summary) == ["tap 4"])
  }

  @Test func anIDFromAServerThatRestartedIsNeverSentToItsSuccessor() async throws {
    let fixture = try await EmbeddedServer()
    let runtime = try TemporaryDirectory()
    let arguments = ["notify", "x", "--id", "shield-open", "--address", fixture.bus.address]
    #expect(try await ShieldBridgeTool.run(arguments, environment: environment(runtime)).status == 0)
    await fixture.server.stop()
    fixture.server.connection.close()
    let successor = try await EmbeddedServer.startServer(on: fixture.bus)
    #expect(try await ShieldBridgeTool.run(arguments, environment: environment(runtime)).status == 0)
    #expect(successor.notifications.map(\.replacesID) == [0])
    #expect(try await ShieldBridgeTool.run(arguments, environment: environment(runtime)).status == 0)
    #expect(successor.notifications.count == 1)
    #expect(successor.notifications.first?.replacesID == successor.notifications.first?.id)
  }

  @Test func actionsImplyWaitAsInNotifySend() async throws {
    let fixture = try await EmbeddedServer()
    let activity = fixture.server.activity()
    let process = try BackgroundProcess(
      shieldbridge: ["notify", "x", "--action", "default=Open", "--address", fixture.bus.address],
      environment: environment(try TemporaryDirectory()))
    let notification = try await nextNotification(activity)
    #expect(notification.actions.map(\.key) == ["default"])
    try fixture.server.click(notification.id)
    let result = await process.finish()
    #expect(result.status == 0, "\(result.error)")
    #expect(result.output == "default\n")
    #expect(result.error.isEmpty)
  }

  @Test(arguments: [
    ["--urgency", "loud"], ["--hint", "int:x"], ["--hint", "float:x:1"], ["--id", "no spaces"],
    ["--action", "=Label"],
    ["--expire-time", "-2"], ["--replace-id", "0"], ["--bogus"],
  ])
  func badUsageExits64WithoutPosting(arguments: [String]) async throws {
    let fixture = try await EmbeddedServer()
    let result = try await ShieldBridgeTool.run(
      ["notify", "x"] + arguments + ["--address", fixture.bus.address],
      environment: environment(try TemporaryDirectory()))
    #expect(result.status == 64)
    #expect(result.error.contains("Usage:"))
    #expect(fixture.server.notifications.isEmpty)
  }
}

@Suite("shieldbridge notify --wait reports what became of the notification")
struct NotifyCommandWaitingTests {
  @Test func anActionPrintsItsKeyAndExits0() async throws {
    let fixture = try await EmbeddedServer()
    let activity = fixture.server.activity()
    let process = try BackgroundProcess(
      shieldbridge: [
        "notify", "Pick", "--action", "default=Open", "--action", "view=View", "--wait",
        "--address",
        fixture.bus.address,
      ], environment: environment(try TemporaryDirectory()))
    let notification = try await nextNotification(activity)
    try fixture.server.click(notification.id, action: "view")
    let result = await process.finish()
    #expect(result.status == 0, "\(result.error)")
    #expect(result.output == "view\n")
    #expect(result.error.isEmpty)
  }

  @Test func anActionInJSONCarriesTheActivationToken() async throws {
    let fixture = try await EmbeddedServer()
    let activity = fixture.server.activity()
    let process = try BackgroundProcess(
      shieldbridge: [
        "notify", "Pick", "--action", "default=Open", "--wait", "--json", "--address",
        fixture.bus.address,
      ],
      environment: environment(try TemporaryDirectory()))
    let notification = try await nextNotification(activity)
    let token = try fixture.server.click(notification.id)
    let result = await process.finish()
    #expect(result.status == 0, "\(result.error)")
    let json = try JSONValue(parsing: result.output.trimmingCharacters(in: .newlines))
    #expect(
      json
        == .object([
          ("event", "action"), ("id", .int(notification.id)), ("key", "default"),
          ("activation_token", .string(token)),
        ]))
  }

  @Test(arguments: [CloseReason.dismissed, .closed, .undefined])
  func aClosePrintsTheReasonAndExits0AsNotifySendDoes(reason: CloseReason) async throws {
    let fixture = try await EmbeddedServer()
    let activity = fixture.server.activity()
    let process = try BackgroundProcess(
      shieldbridge: ["notify", "x", "--wait", "--address", fixture.bus.address],
      environment: environment(try TemporaryDirectory()))
    let notification = try await nextNotification(activity)
    try fixture.server.close(notification.id, reason: reason)
    let result = await process.finish()
    #expect(result.status == 0)
    #expect(result.output == reason.name + "\n")
  }

  @Test func anExpiredNotificationPrintsExpiredAsJSON() async throws {
    let fixture = try await EmbeddedServer()
    let result = try await ShieldBridgeTool.run(
      [
        "notify", "x", "--wait", "--json", "--expire-time", "50", "--print-id", "--address",
        fixture.bus.address,
      ],
      environment: environment(try TemporaryDirectory()), timeout: .seconds(10))
    #expect(result.status == 0)
    let lines = result.output.split(separator: "\n").map(String.init)
    #expect(lines.count == 2)
    let posted = try JSONValue(parsing: lines[0])
    #expect(posted["event"] == "posted")
    let id = try #require(posted["id"])
    #expect(
      try JSONValue(parsing: lines[1])
        == .object([("event", "closed"), ("id", id), ("reason", "expired")]))
  }

  @Test func anInlineReplyPrintsTheText() async throws {
    let fixture = try await EmbeddedServer(capabilities: ["actions", "body", "inline-reply"])
    let activity = fixture.server.activity()
    let process = try BackgroundProcess(
      shieldbridge: [
        "notify", "7 × 13?", "--action", "inline-reply=Answer", "--hint",
        "string:x-kde-reply-placeholder-text:Answer",
        "--wait", "--address", fixture.bus.address,
      ], environment: environment(try TemporaryDirectory()))
    let notification = try await nextNotification(activity)
    try fixture.server.reply(notification.id, text: "91")
    let result = await process.finish()
    #expect(result.status == 0, "\(result.error)")
    #expect(result.output == "91\n")
  }
}

@Suite("shieldbridge notify fails clearly and quickly without a server")
struct NotifyCommandFaultTests {
  @Test func withoutANotificationServerItExits69WithinTheTimeout() async throws {
    let bus = try BusDaemon()
    let result = try await ShieldBridgeTool.run(
      ["notify", "x", "--wait", "--address", bus.address],
      environment: environment(try TemporaryDirectory()))
    // NoServer, not a wait for the timeout (which says that nothing answered).
    #expect(result.status == 69)
    #expect(result.error.contains("no notification server"))
  }

  @Test func aServerTheBusCannotStartIsNamedAsTheCauseWithExit69() async throws {
    let services = try TemporaryDirectory()
    try """
    [D-BUS Service]
    Name=org.freedesktop.Notifications
    Exec=/bin/false
    """.write(toFile: services.file("notifications.service"), atomically: true, encoding: .utf8)
    let bus = try BusDaemon(serviceDirectories: [services.path])
    let result = try await ShieldBridgeTool.run(
      ["notify", "x", "--address", bus.address], environment: environment(try TemporaryDirectory()))
    #expect(result.status == 69)
    #expect(result.error.contains("the bus could not start one"))
  }

  @Test func withoutABusItExits69() async throws {
    let result = try await ShieldBridgeTool.run(
      ["notify", "x", "--address", "unix:path=/nonexistent/shieldbridge-bus"],
      environment: environment(try TemporaryDirectory()))
    #expect(result.status == 69)
    #expect(result.error.contains("message bus"))
  }

  @Test func actionsAskedOfAServerWithoutActionsExit69AndPostNothing() async throws {
    let fixture = try await EmbeddedServer(capabilities: ["body", "body-markup"])
    let result = try await ShieldBridgeTool.run(
      ["notify", "x", "--action", "default=Open", "--wait", "--address", fixture.bus.address],
      environment: environment(try TemporaryDirectory()))
    #expect(result.status == 69)
    #expect(result.error.contains("shieldbridge does not support actions"))
    #expect(fixture.server.notifications.isEmpty)
  }
}
