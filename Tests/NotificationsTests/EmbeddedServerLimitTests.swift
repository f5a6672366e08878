import DBus
import Foundation
import JSON
import Notifications
import Spawn
import TestSupport
import Testing

/// Calls `Notify` on the embedded server with any content, as a hostile client could.
private func notify(
  _ connection: Connection, summary: String = "big", body: String, actions: [String] = [],
  hints: [(String, DBusValue)] = [], timeout: Duration = .seconds(10)
) async throws -> UInt32 {
  let message = try Message.methodCall(
    destination: NotificationsNames.busName, path: NotificationsNames.path,
    interface: NotificationsNames.interface, member: MemberName("Notify"))
  try message.append(values: [
    .string("tests"), .uint32(0), .string(""), .string(summary), .string(body),
    .array(element: .string, actions.map(DBusValue.string)),
    .dictionary(key: .string, value: .variant, hints.map { .init(.string($0.0), .variant($0.1)) }),
    .int32(-1),
  ])
  return try await connection.call(message, timeout: timeout).decode(UInt32.self)
}

/// Whether the server still answers on the bus.
private func answers(_ connection: Connection) async -> Bool {
  let reply = try? await connection.call(
    NotificationsNames.busName, NotificationsNames.path, NotificationsNames.interface,
    MemberName("GetServerInformation"), timeout: .seconds(5))
  return reply != nil
}

/// The size of a notification as the server writes it in JSON.
private func jsonSize(_ value: JSONValue) -> Int { value.serialized.utf8.count }

@Suite("The embedded server keeps bounded memory and stays on the bus whatever a client sends")
struct EmbeddedServerLimitTests {
  @Test func manyLargeNotificationsThenListStillWorksAndTheServerStaysOnTheBus() async throws {
    let bus = try BusDaemon()
    let server = try BackgroundProcess(
      shieldbridge: ["notification-server", "--address", bus.address])
    _ = try await server.waitForLine(containing: "serving org.freedesktop.Notifications")
    let connection = try Connection(.address(bus.address))
    // A control character takes six bytes in JSON: 25 MB of them listed whole
    // would be 150 MB, past the 128 MiB the bus accepts in one message.
    let body = String(repeating: "\u{1}", count: 1_000_000)
    var ids: [UInt32] = []
    for index in 0..<25 {
      ids.append(try await notify(connection, summary: "n\(index)", body: body))
    }
    let listed = try ShieldBridgeTool.run(
      ["notification-server", "list", "--json", "--address", bus.address],
      environment: ["DBUS_SESSION_BUS_ADDRESS": ""])
    #expect(listed.status == 0, "\(listed.error)")
    #expect(server.process.exitStatus == nil, "the server left: \(server.standardError)")
    #expect(await answers(connection))
    let list = try JSONValue(parsing: listed.output.trimmingCharacters(in: .newlines)).arrayValue ?? []
    let listedIDs = list.compactMap { $0["id"]?.integerValue }.map { UInt32($0) }
    // The newest are kept, oldest first, each once.
    #expect(!listedIDs.isEmpty)
    #expect(listedIDs == Array(ids.suffix(listedIDs.count)))
    #expect(list.reduce(0) { $0 + jsonSize($1) } <= 16 << 20)
    #expect(list.allSatisfy { $0["truncated"] == true })
    let retention = try await NotificationServerControl(connection: connection).retention()
    #expect(retention.count == list.count)
    #expect(retention.bytes <= retention.byteLimit)
    #expect(retention.byteLimit == 16 << 20)
  }

  @Test func anOversizedBodyIsAcceptedAndKeptTruncated() async throws {
    let fixture = try await EmbeddedServer()
    let connection = try fixture.connection()
    let body = String(repeating: "é", count: 500_000)
    let id = try await notify(connection, body: body)
    let kept = try #require(fixture.server.notification(id))
    #expect(kept.body.utf8.count <= 64 << 10)
    #expect(kept.body.utf8.count > 60 << 10)
    #expect(body.hasPrefix(kept.body))
    #expect(kept.truncated)
    #expect(kept.json["truncated"] == true)
    #expect(await answers(connection))
  }

  @Test func theKeptNotificationsStayWithinTheByteBudget() async throws {
    let fixture = try await EmbeddedServer()
    let connection = try fixture.connection()
    // 60 KB of JSON each (a control character takes six), 18 MB in all.
    let body = String(repeating: "\u{2}", count: 10_000)
    var ids: [UInt32] = []
    for index in 0..<300 {
      ids.append(try await notify(connection, summary: "n\(index)", body: body))
    }
    let kept = fixture.server.notifications
    // Each takes more than 60,000 bytes of JSON: 16 MiB holds at most 279 of them.
    #expect(kept.count <= (16 << 20) / 60_000)
    #expect(kept.map(\.id) == Array(ids.suffix(kept.count)))
    #expect(kept.allSatisfy { !$0.truncated && $0.body == body })
    let retention = fixture.server.retention
    #expect(retention.count == kept.count)
    #expect(retention.bytes > kept.count * 60_000)
    #expect(retention.bytes <= retention.byteLimit)
    // One more cannot be kept without dropping the oldest.
    #expect(retention.bytes + 60_000 > retention.byteLimit)
  }

  @Test func hugeHintsNestedVariantsAndThousandsOfActionsAreKeptWithinTheLimits() async throws {
    let fixture = try await EmbeddedServer()
    let connection = try fixture.connection()
    var nested = DBusValue.string("core")
    for _ in 0..<30 { nested = .variant(nested) }
    let actions = (0..<10_000).flatMap { ["key\($0)", "label \($0)"] }
    let id = try await notify(
      connection, body: "hints",
      actions: ["default", "Open"] + actions,
      hints: [
        ("urgency", .byte(2)),
        ("image-data", .array(element: .byte, Array(repeating: .byte(7), count: 1_000_000))),
        ("x-nested", nested),
        ("x-long", .string(String(repeating: "\"", count: 300_000))),
      ])
    let kept = try #require(fixture.server.notification(id))
    #expect(jsonSize(kept.json) <= 512 << 10)
    #expect(kept.actions.first?.key == "default")
    #expect(kept.hint("urgency") == .byte(2))
    #expect(kept.hint("x-nested") != nil)
    #expect(!kept.hints.contains { $0.name == "image-data" })
    #expect(kept.truncated)
    try fixture.server.click(id)
    #expect(await answers(connection))
  }

  /// An error names what the caller and the poster sent in short: echoed
  /// whole, 60 MB of action keys and an 80 MB key would make an error past
  /// the 128 MiB the bus accepts (1 MB of each shows it here).
  @Test func aClickWithAHugeKeyIsAShortErrorReplyAndTheServerStaysOnTheBus() async throws {
    let fixture = try await EmbeddedServer()
    let connection = try fixture.connection()
    let key = String(repeating: "k", count: 500_000)
    let id = try await notify(
      connection, body: "keys", actions: ["default", "Open", key, "A", key + "2", "B"])
    let control = try Message.methodCall(
      destination: NotificationsNames.busName, path: NotificationsNames.path,
      interface: NotificationsNames.controlInterface, member: MemberName("Click"))
    try control.append(values: [.uint32(id), .string(String(repeating: "m", count: 1_000_000))])
    let error = await #expect(throws: DBusError.self) {
      _ = try await connection.call(control, timeout: .seconds(10))
    }
    #expect(error?.name == "org.shieldbridge.NotificationServer1.Error.InvalidArgument")
    #expect((error?.message.utf8.count ?? .max) < 4096)
    #expect(await answers(connection))
  }
}
