import DBus
import Foundation
import JSON
import Notifications
import Spawn
import TestSupport
import Testing
import Version

/// `shieldbridge notification-server` running on a private bus, ready when this returns.
private final class RunningServer: Sendable {
  let bus: BusDaemon
  let process: BackgroundProcess

  init(_ options: [String] = [], bus: BusDaemon? = nil) async throws {
    let bus = try bus ?? BusDaemon()
    self.bus = bus
    process = try BackgroundProcess(
      shieldbridge: ["notification-server", "--address", bus.address] + options)
    _ = try await process.waitForLine(containing: "serving org.freedesktop.Notifications")
  }

  /// Runs a control command (or notify) against this server and returns what it printed.
  func run(_ arguments: [String]) async throws -> Subprocess.Result {
    try await ShieldBridgeTool.run(
      arguments + ["--address", bus.address], environment: ["DBUS_SESSION_BUS_ADDRESS": ""])
  }

  /// Posts with `notify` and `arguments` and returns it once posted: with actions
  /// it waits for them (as notify-send does), so it runs in the background.
  func post(_ arguments: [String]) async throws -> BackgroundProcess {
    let process = try BackgroundProcess(
      shieldbridge: ["notify"] + arguments + ["--print-id", "--address", bus.address],
      environment: ["DBUS_SESSION_BUS_ADDRESS": ""])
    _ = try await process.waitForFirstLine()
    return process
  }

  /// The open notifications, as `list --json` prints them.
  func list() async throws -> [JSONValue] {
    let result = try await run(["notification-server", "list", "--json"])
    return try JSONValue(parsing: result.output.trimmingCharacters(in: .newlines)).arrayValue ?? []
  }
}

@Suite("shieldbridge notification-server runs the embedded server and drives it")
struct NotificationServerCommandTests {
  @Test func itServesRecordsAndStopsWithStatus0OnSIGTERM() async throws {
    let directory = try TemporaryDirectory()
    let record = directory.file("record.jsonl")
    let server = try await RunningServer(["--record", record])
    let posted = try await server.run(["notify", "Hello", "World", "--print-id"])
    #expect(posted.status == 0, "\(posted.error)")
    let id = posted.output.trimmingCharacters(in: .newlines)
    let closed = try await server.run(["notification-server", "close", id, "expired"])
    #expect(closed.status == 0, "\(closed.error)")
    server.process.process.signal(SIGTERM)
    let result = await server.process.finish()
    #expect(result.status == 0, "\(result.error)")
    let lines = try String(contentsOfFile: record, encoding: .utf8).split(separator: "\n")
    #expect(lines.count == 2)
    #expect(try JSONValue(parsing: String(lines[0]))["summary"] == "Hello")
    #expect(try JSONValue(parsing: String(lines[1]))["reason"] == "expired")
  }

  @Test func clickMakesAWaitingNotifyPrintTheKeyAndPrintsTheToken() async throws {
    let server = try await RunningServer()
    let waiting = try BackgroundProcess(
      shieldbridge: [
        "notify", "Pick", "--action", "default=Open", "--action", "view=View", "--wait", "--json",
        "--print-id",
        "--address", server.bus.address,
      ], environment: ["DBUS_SESSION_BUS_ADDRESS": ""])
    let posted = try JSONValue(parsing: try await waiting.waitForLine(containing: "posted"))
    let id = try #require(posted["id"]?.integerValue)
    let click = try await server.run(["notification-server", "click", String(id), "view"])
    #expect(click.status == 0, "\(click.error)")
    let token = click.output.trimmingCharacters(in: .newlines)
    #expect(!token.isEmpty)
    let result = await waiting.finish()
    #expect(result.status == 0)
    let action = try JSONValue(parsing: String(result.output.split(separator: "\n").last ?? ""))
    #expect(
      action
        == .object([
          ("event", "action"), ("id", .integer(id)), ("key", "view"),
          ("activation_token", .string(token)),
        ]))
  }

  @Test func listShowsTheOpenNotificationsAsTextAndJSON() async throws {
    let server = try await RunningServer()
    await #expect(try server.run(["notification-server", "list"]).output == "no open notifications\n")
    let first = try await server.post(["First", "--action", "default=Open", "--app-name", "Tests"])
    _ = try await server.run(["notify", "Second"])
    let text = try await server.run(["notification-server", "list"])
    #expect(text.status == 0)
    #expect(text.output == "1\tTests\tFirst\t[default]\n2\tshieldbridge\tSecond\n")
    let json = try await server.list()
    #expect(json.map { $0["summary"] } == ["First", "Second"])
    #expect(json.first?["actions"] == [.object([("key", "default"), ("label", "Open")])])
    await #expect(try server.run(["notification-server", "click", "1"]).status == 0)
    #expect(await first.finish().output == "1\ndefault\n")
  }

  @Test func replyNeedsInlineReplyInTheCapabilities() async throws {
    let plain = try await RunningServer()
    let waiting = try await plain.post(["x", "--action", "inline-reply=Answer"])
    let refused = try await plain.run(["notification-server", "reply", "1", "91"])
    #expect(refused.status == 69)
    #expect(refused.error.contains("inline-reply"))
    _ = waiting

    let kde = try await RunningServer(["--capabilities", "actions,body,inline-reply"])
    let capabilities = try await kde.run(["doctor", "--json"])
    #expect(
      try JSONValue(parsing: capabilities.output)["capabilities"] == [
        "actions", "body", "inline-reply",
      ])
    let replied = try await kde.post(["x", "--action", "inline-reply=Answer"])
    await #expect(try kde.run(["notification-server", "reply", "1", "91"]).status == 0)
    #expect(await replied.finish().status == 0)
    await #expect(try kde.list().isEmpty)
  }

  @Test func anUnknownIDOrActionExits65() async throws {
    let server = try await RunningServer()
    let waiting = try await server.post(["x", "--action", "default=Open"])
    let unknownID = try await server.run(["notification-server", "click", "99"])
    #expect(unknownID.status == 65)
    #expect(unknownID.error.contains("no open notification with id 99"))
    let unknownAction = try await server.run(["notification-server", "click", "1", "missing"])
    #expect(unknownAction.status == 65)
    #expect(unknownAction.error.contains("has no action 'missing'"))
    _ = waiting
  }

  @Test func aSecondServerOnTheSameBusExits69() async throws {
    let server = try await RunningServer()
    let second = try await server.run(["notification-server"])
    #expect(second.status == 69)
    #expect(second.error.contains("another notification server"))
  }

  @Test func controlCommandsWithoutAServerExit69() async throws {
    let bus = try BusDaemon()
    let result = try await ShieldBridgeTool.run(
      ["notification-server", "list", "--address", bus.address],
      environment: ["DBUS_SESSION_BUS_ADDRESS": ""])
    #expect(result.status == 69)
    #expect(result.error.contains("no notification server"))
  }

  @Test(arguments: [
    ["notification-server", "wave"], ["notification-server", "click"],
    ["notification-server", "click", "0"],
    ["notification-server", "close", "1", "tired"], ["notification-server", "reply", "1"],
    ["notification-server", "list", "--record", "x"], ["notification-server", "--json"],
    ["notification-server", "--capabilities", "a b"],
  ])
  func badUsageExits64(arguments: [String]) async throws {
    let result = try await ShieldBridgeTool.run(arguments + ["--address", "unix:path=/nonexistent"])
    #expect(result.status == 64, "\(result.error)")
  }

  @Test func aRecordFileThatCannotBeCreatedExits73() async throws {
    let bus = try BusDaemon()
    let result = try await ShieldBridgeTool.run([
      "notification-server", "--address", bus.address, "--record", "/nonexistent-dir/record.jsonl",
    ])
    #expect(result.status == 73)
    #expect(result.error.contains("/nonexistent-dir/record.jsonl"))
  }
}

@Suite("shieldbridge doctor reports the bus, the server and the presentation")
struct DoctorCommandTests {
  @Test func withAServerItReportsEverythingAndExits0() async throws {
    let server = try await RunningServer([
      "--capabilities", "actions,body,body-markup,x-dunst-stack-tag",
    ])
    let text = try await server.run(["doctor"])
    #expect(text.status == 0, "\(text.error)")
    #expect(text.output.contains("bus: \(server.bus.address)"))
    #expect(text.output.contains("server: shieldbridge \(shieldBridgeVersion) by ShieldBridge, specification 1.3"))
    #expect(text.output.contains("capabilities: actions, body, body-markup, x-dunst-stack-tag"))
    #expect(
      text.output.contains(
        "presentation: actions, body markup (values escaped), stack tags: x-dunst-stack-tag"))
    let json = try await JSONValue(parsing: try server.run(["doctor", "--json"]).output)
    #expect(json["server"] == true)
    #expect(json["information"]?["name"] == "shieldbridge")
    #expect(json["information"]?["spec_version"] == "1.3")
    #expect(json["presentation"]?["style"] == "actions")
    #expect(json["presentation"]?["body_markup"] == true)
    #expect(json["presentation"]?["stack_tag_hints"] == ["x-dunst-stack-tag"])
    #expect(json["problem"] == .null)
  }

  @Test func withoutAServerItSaysSoAndExits69() async throws {
    let bus = try BusDaemon()
    let result = try await ShieldBridgeTool.run(["doctor", "--address", bus.address])
    #expect(result.status == 69)
    #expect(result.output.contains("server: none"))
    #expect(result.output.contains("problem: no notification server"))
    let json = try JSONValue(
      parsing: try await ShieldBridgeTool.run(["doctor", "--json", "--address", bus.address]).output)
    #expect(json["server"] == false)
    #expect(json["problem"]?["code"] == "no-server")
  }

  @Test func withoutABusItSaysSoAndExits69() async throws {
    let result = try await ShieldBridgeTool.run(
      ["doctor", "--json"],
      environment: ["DBUS_SESSION_BUS_ADDRESS": "", "XDG_RUNTIME_DIR": "/nonexistent"])
    #expect(result.status == 69)
    let json = try JSONValue(parsing: result.output)
    #expect(json["bus"] == .null)
    #expect(json["problem"]?["code"] == "no-bus")
  }
}
