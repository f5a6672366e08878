import DBus
import Foundation
import JSON
import Notifications
import Spawn
import TestSupport
import Testing

/// A private `dbus-daemon` that takes messages of at most `maximumMessageSize`
/// bytes: a reply too large for it shows in megabytes what the 128 MiB of the
/// specification (``BusDaemon``'s limit, and a session bus's) takes 22 MB of
/// notifications and many seconds to show.
private final class SmallMessageBus: Sendable {
  let address: String
  private let directory: TemporaryDirectory
  private let daemon: BackgroundProcess

  init(maximumMessageSize: Int) async throws {
    directory = try TemporaryDirectory(prefix: "shieldbridge-small-bus")
    let configuration = directory.file("bus.conf")
    try """
    <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
     "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
    <busconfig>
      <type>session</type>
      <listen>unix:path=\(directory.file("bus"))</listen>
      <auth>EXTERNAL</auth>
      <policy context="default">
        <allow send_destination="*" eavesdrop="true"/>
        <allow eavesdrop="true"/>
        <allow own="*"/>
      </policy>
      <limit name="max_message_size">\(maximumMessageSize)</limit>
    </busconfig>
    """.write(toFile: configuration, atomically: false, encoding: .utf8)
    daemon = try BackgroundProcess([
      "dbus-daemon", "--config-file=\(configuration)", "--nofork", "--nopidfile", "--print-address=1",
    ])
    address = try await daemon.waitForLine(containing: "unix:")
  }
}

/// `shieldbridge notification-server` on a private bus, with a connection to post from.
///
/// The server runs in a process of its own: what it keeps (up to 16 MiB) and
/// what it reads must not count in this process, where other suites measure memory.
private struct ServerProcess {
  /// The bus (a ``BusDaemon`` or a ``SmallMessageBus``), kept while the server runs.
  let bus: any Sendable
  let address: String
  let process: BackgroundProcess
  let connection: Connection

  init(smallMessagesOf maximumMessageSize: Int? = nil) async throws {
    if let maximumMessageSize {
      let bus = try await SmallMessageBus(maximumMessageSize: maximumMessageSize)
      (self.bus, address) = (bus, bus.address)
    } else {
      let bus = try BusDaemon()
      (self.bus, address) = (bus, bus.address)
    }
    process = try BackgroundProcess(shieldbridge: ["notification-server", "--address", address])
    _ = try await process.waitForLine(containing: "serving org.freedesktop.Notifications")
    connection = try Connection(.address(address))
  }

  var control: NotificationServerControl {
    NotificationServerControl(connection: connection, timeout: HangBound.answer)
  }

  /// Calls `Notify` with any content, as a hostile client could.
  func notify(
    summary: String = "big", body: String, actions: [String] = [], hints: [(String, DBusValue)] = []
  ) async throws -> UInt32 {
    let message = try Message.methodCall(
      destination: NotificationsNames.busName, path: NotificationsNames.path,
      interface: NotificationsInterface.name, member: MemberName("Notify"))
    try message.append(values: [
      .string("tests"), .uint32(0), .string(""), .string(summary), .string(body),
      .array(element: .string, actions.map(DBusValue.string)),
      .dictionary(key: .string, value: .variant, hints.map { .init(.string($0.0), .variant($0.1)) }),
      .int32(-1),
    ])
    return try await connection.call(message, timeout: HangBound.answer).decode(UInt32.self)
  }

  /// The kept notification `id`, as the control interface lists it.
  func listed(_ id: UInt32) async throws -> JSONValue? {
    try await control.list().arrayValue?.first { $0["id"]?.integerValue == Int64(id) }
  }

  /// Whether the server is still running and answers on the bus.
  func stillServes() async -> Bool {
    let reply = try? await connection.call(
      NotificationsNames.busName, NotificationsNames.path, NotificationsInterface.name,
      MemberName("GetServerInformation"), timeout: HangBound.answer)
    return reply != nil && process.process.exitStatus == nil
  }
}

/// The size of a notification as the server writes it in JSON.
private func jsonSize(_ value: JSONValue) -> Int { value.serialized.utf8.count }

@Suite("The embedded server keeps bounded memory and stays on the bus whatever a client sends")
struct EmbeddedServerLimitTests {
  /// The issue's case, on a bus that takes 8 MiB a message: 70 bodies of
  /// 50,000 control characters (six bytes each in JSON) listed whole would be
  /// 21 MB, and the bus would drop the server for it.
  @Test func manyLargeNotificationsThenListStillWorksAndTheServerStaysOnTheBus() async throws {
    let server = try await ServerProcess(smallMessagesOf: 8 << 20)
    let body = String(repeating: "\u{1}", count: 50_000)
    var ids: [UInt32] = []
    for index in 0..<70 {
      ids.append(try await server.notify(summary: "n\(index)", body: body))
    }
    // The text form, one short line each; the CLI fetches the pages all the same.
    let listed = try await ShieldBridgeTool.run(
      ["notification-server", "list", "--address", server.address],
      environment: ["DBUS_SESSION_BUS_ADDRESS": ""])
    #expect(listed.status == 0, "\(listed.error)")
    #expect(await server.stillServes(), "the server left: \(server.process.standardError)")
    // Every one, oldest first, each once, cut to 64 KiB of JSON: five pages of at most 1 MiB.
    let listedIDs = listed.output.split(separator: "\n").compactMap { line in
      line.split(separator: "\t").first.flatMap { UInt32($0) }
    }
    #expect(listedIDs == ids)
    let retention = try await server.control.retention()
    #expect(retention.count == 70)
    #expect(retention.bytes > 4 << 20)
    #expect(retention.bytes <= 70 * (64 << 10 + 1024))
  }

  @Test func anOversizedBodyIsAcceptedAndKeptTruncated() async throws {
    let server = try await ServerProcess()
    let body = String(repeating: "é", count: 500_000)
    let id = try await server.notify(body: body)
    let kept = try #require(try await server.listed(id))
    let keptBody = try #require(kept["body"]?.stringValue)
    #expect(keptBody.utf8.count <= 64 << 10)
    #expect(keptBody.utf8.count > 60 << 10)
    #expect(body.hasPrefix(keptBody))
    #expect(kept["truncated"] == true)
    #expect(await server.stillServes())
  }

  @Test func theKeptNotificationsStayWithinTheByteBudget() async throws {
    let server = try await ServerProcess()
    // 60 KB of JSON each (a control character takes six), 18 MB in all.
    let body = String(repeating: "\u{2}", count: 10_000)
    var ids: [UInt32] = []
    for index in 0..<300 {
      ids.append(try await server.notify(summary: "n\(index)", body: body))
    }
    let retention = try await server.control.retention()
    // Each takes more than 60,000 bytes of JSON: 16 MiB holds at most 279 of them.
    #expect(retention.count <= (16 << 20) / 60_000)
    #expect(retention.bytes > retention.count * 60_000)
    #expect(retention.bytes <= retention.byteLimit)
    // One more cannot be kept without dropping the oldest.
    #expect(retention.bytes + 60_000 > retention.byteLimit)
    // The oldest went first: the first is no longer open, the last is.
    let error = await #expect(throws: NotificationError.self) {
      try await server.control.close(ids[0], reason: .closed)
    }
    #expect(error?.code == .unknownNotification)
    try await server.control.close(ids[299], reason: .closed)
  }

  @Test func hugeHintsNestedVariantsAndThousandsOfActionsAreKeptWithinTheLimits() async throws {
    let server = try await ServerProcess()
    var nested = DBusValue.string("core")
    for _ in 0..<30 { nested = .variant(nested) }
    let actions = (0..<10_000).flatMap { ["key\($0)", "label \($0)"] }
    let id = try await server.notify(
      body: "hints",
      actions: ["default", "Open"] + actions,
      hints: [
        ("urgency", .byte(2)),
        ("image-data", .array(element: .byte, Array(repeating: .byte(7), count: 200_000))),
        ("x-nested", nested),
        ("x-long", .string(String(repeating: "\"", count: 300_000))),
      ])
    let kept = try #require(try await server.listed(id))
    #expect(jsonSize(kept) <= 512 << 10)
    #expect(kept["actions"]?.arrayValue?.first?["key"] == "default")
    #expect(kept["hints"]?["urgency"]?["value"] == 2)
    // Each of the 30 variants around the string keeps its own signature.
    var nestedJSON = kept["hints"]?["x-nested"]
    var depth = 0
    while nestedJSON?["signature"] == "v" {
      nestedJSON = nestedJSON?["value"]
      depth += 1
    }
    #expect(depth == 30)
    #expect(nestedJSON == .object([("signature", "s"), ("value", "core")]))
    #expect(kept["hints"]?["image-data"] == nil)
    #expect(kept["truncated"] == true)
    _ = try await server.control.click(id)
    #expect(await server.stillServes())
  }

  /// An error names what the caller and the poster sent in short: echoed
  /// whole, 60 MB of action keys and an 80 MB key would make an error past
  /// the 128 MiB the bus accepts (1 MB of each shows it here).
  @Test func aClickWithAHugeKeyIsAShortErrorReplyAndTheServerStaysOnTheBus() async throws {
    let server = try await ServerProcess()
    let key = String(repeating: "k", count: 500_000)
    let id = try await server.notify(body: "keys", actions: ["default", "Open", key, "A", key + "2", "B"])
    let click = try Message.methodCall(
      destination: NotificationsNames.busName, path: NotificationsNames.path,
      interface: NotificationServerInterface.name, member: MemberName("Click"))
    try click.append(values: [.uint32(id), .string(String(repeating: "m", count: 1_000_000))])
    let error = await #expect(throws: DBusError.self) {
      _ = try await server.connection.call(click, timeout: HangBound.answer)
    }
    #expect(error?.name == "org.shieldbridge.NotificationServer1.Error.InvalidArgument")
    #expect((error?.message.utf8.count ?? .max) < 4096)
    #expect(await server.stillServes())
  }
}
