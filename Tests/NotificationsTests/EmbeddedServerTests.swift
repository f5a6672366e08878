import DBus
import Foundation
import JSON
import Notifications
import TestSupport
import Testing

/// Calls the embedded server's standard interface directly, as any client would.
private func callServer(
  _ connection: Connection, _ member: String, _ arguments: [DBusValue] = []
) async throws -> Message {
  let message = try Message.methodCall(
    destination: NotificationsNames.busName, path: NotificationsNames.path,
    interface: NotificationsInterface.name,
    member: MemberName(member))
  try message.append(values: arguments)
  return try await connection.call(message, timeout: HangBound.answer)
}

/// The eight `Notify` arguments.
private func notifyArguments(
  summary: String, replacesID: UInt32 = 0, actions: [String] = [],
  hints: [(String, DBusValue)] = [],
  expireTimeout: Int32 = -1
) -> [DBusValue] {
  [
    .string("tests"), .uint32(replacesID), .string("dialog-information"), .string(summary),
    .string("body"),
    .array(element: .string, actions.map(DBusValue.string)),
    .dictionary(key: .string, value: .variant, hints.map { .init(.string($0.0), .variant($0.1)) }),
    .int32(expireTimeout),
  ]
}

/// The signals of the notification interface that reach `connection`.
private func notificationSignals(_ connection: Connection) async throws -> SignalStream {
  try await connection.signals(matching: MatchRule(interface: NotificationsInterface.name))
}

@Suite("The embedded server answers every method of the specification")
struct EmbeddedServerMethodTests {
  @Test func notifyReturnsDistinctIdsThatAreNeverZero() async throws {
    let fixture = try await EmbeddedServer()
    let connection = try fixture.connection()
    var ids: [UInt32] = []
    for index in 0..<5 {
      let reply = try await callServer(connection, "Notify", notifyArguments(summary: "n\(index)"))
      ids.append(try reply.decode(UInt32.self))
    }
    #expect(!ids.contains(0))
    #expect(Set(ids).count == 5)
    #expect(fixture.server.notifications.map(\.summary) == ["n0", "n1", "n2", "n3", "n4"])
  }

  @Test func replacesIDReturnsTheSameIDAndReplacesTheContent() async throws {
    let fixture = try await EmbeddedServer()
    let connection = try fixture.connection()
    let original = try await callServer(connection, "Notify", notifyArguments(summary: "first"))
      .decode(UInt32.self)
    let second = try await callServer(
      connection, "Notify", notifyArguments(summary: "second", replacesID: original)
    )
    .decode(UInt32.self)
    #expect(second == original)
    #expect(fixture.server.notifications.count == 1)
    #expect(fixture.server.notification(original)?.summary == "second")
    #expect(fixture.server.notification(original)?.replacesID == original)
  }

  @Test func aReplacesIDThatIsNotOpenGetsAFreshID() async throws {
    let fixture = try await EmbeddedServer()
    let connection = try fixture.connection()
    let original = try await callServer(connection, "Notify", notifyArguments(summary: "first"))
      .decode(UInt32.self)
    _ = try await callServer(connection, "CloseNotification", [.uint32(original)])
    let again = try await callServer(
      connection, "Notify", notifyArguments(summary: "again", replacesID: original)
    )
    .decode(UInt32.self)
    #expect(again != original)
    #expect(again != 0)
  }

  @Test func getCapabilitiesReturnsTheConfiguredListInOrder() async throws {
    let capabilities: [Capability] = ["body", "actions", "inline-reply", "x-custom"]
    let fixture = try await EmbeddedServer(capabilities: capabilities)
    let reply = try await callServer(try fixture.connection(), "GetCapabilities")
    #expect(try reply.decode([String].self) == capabilities.map(\.rawValue))
  }

  @Test func getServerInformationNamesShieldBridgeAndSpecification13() async throws {
    let fixture = try await EmbeddedServer()
    let reply = try await callServer(try fixture.connection(), "GetServerInformation")
    let (name, vendor, _, spec) = try reply.decode(
      String.self, String.self, String.self, String.self)
    #expect(name == "shieldbridge")
    #expect(vendor == "ShieldBridge")
    #expect(spec == "1.3")
  }

  @Test func closeNotificationSendsNotificationClosedWithReason3ToThePoster() async throws {
    let fixture = try await EmbeddedServer()
    let connection = try fixture.connection()
    let signals = try await notificationSignals(connection)
    let id = try await callServer(connection, "Notify", notifyArguments(summary: "close me"))
      .decode(UInt32.self)
    _ = try await callServer(connection, "CloseNotification", [.uint32(id)])
    let closed = try await first("NotificationClosed", in: signals) {
      $0.member?.rawValue == "NotificationClosed"
    }
    let (closedID, reason) = try closed.decode(UInt32.self, UInt32.self)
    #expect(closedID == id)
    #expect(reason == 3)
    #expect(closed.destination == connection.uniqueName)
    #expect(fixture.server.notification(id) == nil)
  }

  @Test func closeNotificationOfAnUnknownIDIsAnError() async throws {
    let fixture = try await EmbeddedServer()
    await #expect(throws: DBusError.self) {
      _ = try await callServer(try fixture.connection(), "CloseNotification", [.uint32(4711)])
    }
  }

  @Test func aNotificationWithAnExpiryClosesWithReason1() async throws {
    let fixture = try await EmbeddedServer()
    let connection = try fixture.connection()
    let signals = try await notificationSignals(connection)
    let id = try await callServer(
      connection, "Notify", notifyArguments(summary: "brief", expireTimeout: 50)
    )
    .decode(UInt32.self)
    let closed = try await first("expiry", in: signals) {
      $0.member?.rawValue == "NotificationClosed"
    }
    #expect(try closed.decode(UInt32.self, UInt32.self) == (id, UInt32(1)))
  }

  @Test func introspectionDescribesBothInterfacesAndTheFourSignals() async throws {
    let fixture = try await EmbeddedServer()
    let xml = try await fixture.connection().call(
      IntrospectableInterface.introspect, destination: NotificationsNames.busName, path: NotificationsNames.path)
    for name in [
      "org.freedesktop.Notifications", "org.shieldbridge.NotificationServer1", "Notify",
      "CloseNotification",
      "GetCapabilities", "GetServerInformation", "NotificationClosed", "ActionInvoked",
      "ActivationToken",
      "NotificationReplied",
    ] {
      #expect(xml.contains("\"\(name)\""), "\(name) is missing from the introspection data")
    }
  }

  @Test func aSecondServerCannotTakeTheName() async throws {
    let fixture = try await EmbeddedServer()
    let error = await #expect(throws: NotificationError.self) {
      _ = try await EmbeddedServer.startServer(on: fixture.bus)
    }
    #expect(error?.code == .nameTaken)
  }
}

@Suite("The embedded server acts as a user would: click, close, reply")
struct EmbeddedServerActionTests {
  @Test func clickSendsActivationTokenThenActionInvokedThenClosedToThePosterOnly() async throws {
    let fixture = try await EmbeddedServer()
    let poster = try fixture.connection()
    let bystander = try fixture.connection()
    let posterSignals = try await notificationSignals(poster)
    let bystanderSignals = try await notificationSignals(bystander)
    let id = try await callServer(
      poster, "Notify", notifyArguments(summary: "click", actions: ["default", "Open"])
    )
    .decode(UInt32.self)
    let token = try fixture.server.click(id)
    let received = try await collect(3, "three signals", from: posterSignals)
    #expect(
      received.map { $0.member?.rawValue } == [
        "ActivationToken", "ActionInvoked", "NotificationClosed",
      ])
    #expect(try received[0].decode(UInt32.self, String.self) == (id, token))
    #expect(try received[1].decode(UInt32.self, String.self) == (id, "default"))
    #expect(try received[2].decode(UInt32.self, UInt32.self) == (id, UInt32(2)))
    // A broadcast would have reached the bystander too; a round trip proves nothing is on its way.
    _ = try await bystander.nameOwner(.bus)
    let leaked = try? await first(
      "a leaked signal", in: bystanderSignals, timeout: .milliseconds(100))
    #expect(leaked == nil)
  }

  @Test func aResidentNotificationStaysAfterAClick() async throws {
    let fixture = try await EmbeddedServer()
    let id = try await callServer(
      try fixture.connection(), "Notify",
      notifyArguments(
        summary: "stay", actions: ["default", "Open"], hints: [("resident", .boolean(true))])
    ).decode(UInt32.self)
    try fixture.server.click(id)
    #expect(fixture.server.notification(id) != nil)
  }

  @Test func clickingAnActionTheNotificationDoesNotHaveIsRefused() async throws {
    let fixture = try await EmbeddedServer()
    let id = try await callServer(
      try fixture.connection(), "Notify", notifyArguments(summary: "x", actions: ["view", "View"])
    ).decode(UInt32.self)
    #expect(throws: NotificationError.self) { try fixture.server.click(id, action: "default") }
    #expect(throws: NotificationError.self) { try fixture.server.click(id + 100) }
  }

  @Test func withoutTheActionsCapabilityNothingCanBeClicked() async throws {
    let fixture = try await EmbeddedServer(capabilities: ["body"])
    let id = try await callServer(
      try fixture.connection(), "Notify",
      notifyArguments(summary: "x", actions: ["default", "Open"])
    ).decode(UInt32.self)
    let error = #expect(throws: NotificationError.self) { try fixture.server.click(id) }
    #expect(error?.code == .actionsUnsupported)
  }

  @Test func replySendsNotificationRepliedWithInlineReply() async throws {
    let fixture = try await EmbeddedServer(capabilities: ["actions", "body", "inline-reply"])
    let poster = try fixture.connection()
    let signals = try await notificationSignals(poster)
    let id = try await callServer(
      poster, "Notify", notifyArguments(summary: "answer", actions: ["inline-reply", "Reply"])
    ).decode(UInt32.self)
    try fixture.server.reply(id, text: "42")
    let replied = try await first("NotificationReplied", in: signals) {
      $0.member?.rawValue == "NotificationReplied"
    }
    #expect(try replied.decode(UInt32.self, String.self) == (id, "42"))
  }

  @Test func replyNeedsTheInlineReplyCapability() async throws {
    let fixture = try await EmbeddedServer()
    let id = try await callServer(
      try fixture.connection(), "Notify",
      notifyArguments(summary: "x", actions: ["inline-reply", "Reply"])
    ).decode(UInt32.self)
    let error = #expect(throws: NotificationError.self) { try fixture.server.reply(id, text: "no") }
    #expect(error?.code == .inlineReplyUnsupported)
  }

  @Test func closeWithAReasonSendsThatReason() async throws {
    let fixture = try await EmbeddedServer()
    let poster = try fixture.connection()
    let signals = try await notificationSignals(poster)
    let id = try await callServer(poster, "Notify", notifyArguments(summary: "x")).decode(
      UInt32.self)
    try fixture.server.close(id, reason: .dismissed)
    let closed = try await first("NotificationClosed", in: signals)
    #expect(try closed.decode(UInt32.self, UInt32.self) == (id, UInt32(2)))
  }

  @Test func theControlInterfaceDrivesTheServerFromAnotherConnection() async throws {
    let fixture = try await EmbeddedServer(capabilities: ["actions", "body", "inline-reply"])
    let poster = try fixture.connection()
    let signals = try await notificationSignals(poster)
    let control = NotificationServerControl(connection: try fixture.connection())
    let one = try await callServer(
      poster, "Notify", notifyArguments(summary: "one", actions: ["default", "Go"])
    )
    .decode(UInt32.self)
    let second = try await callServer(
      poster, "Notify", notifyArguments(summary: "two", actions: ["inline-reply", "R"])
    )
    .decode(UInt32.self)
    let list = try await control.list()
    #expect(list.arrayValue?.compactMap { $0["summary"]?.stringValue } == ["one", "two"])
    let token = try await control.click(one)
    #expect(!token.isEmpty)
    try await control.reply(second, text: "hello")
    let received = try await collect(5, "five signals", from: signals)
    #expect(
      received.map { $0.member?.rawValue }
        == [
          "ActivationToken", "ActionInvoked", "NotificationClosed", "NotificationReplied",
          "NotificationClosed",
        ])
    let error = await #expect(throws: NotificationError.self) {
      try await control.close(one, reason: .closed)
    }
    #expect(error?.code == .unknownNotification)
  }

  @Test func theControlInterfaceSaysWhenTheServerIsNotOurs() async throws {
    let bus = try BusDaemon()
    let impostor = try Connection(.address(bus.address))
    _ = try await impostor.requestName(NotificationsNames.busName)
    try impostor.export(
      [
        try Interface(
          "org.freedesktop.Notifications",
          methods: [
            try Method("GetCapabilities", outputs: "as") { _ in [.array(element: .string, [])] }
          ])
      ],
      at: NotificationsNames.path)
    let control = NotificationServerControl(connection: try Connection(.address(bus.address)))
    let error = await #expect(throws: NotificationError.self) { _ = try await control.list() }
    #expect(error?.code == .notEmbeddedServer)
  }
}

@Suite("The embedded server records every notification and close, and keeps bounded memory")
struct EmbeddedServerRecordTests {
  @Test func everyNotificationAndCloseIsOneJSONLineWithAllFields() async throws {
    let directory = try TemporaryDirectory()
    let record = directory.file("record.jsonl")
    let fixture = try await EmbeddedServer(recordPath: record)
    let connection = try fixture.connection()
    let id = try await callServer(
      connection, "Notify",
      notifyArguments(
        summary: "Time's up", actions: ["default", "Solve"],
        hints: [("urgency", .byte(1)), ("x-dunst-stack-tag", .string("shield-open"))],
        expireTimeout: 0)
    ).decode(UInt32.self)
    _ = try await callServer(connection, "CloseNotification", [.uint32(id)])
    let lines = try readLines(record)
    #expect(lines.count == 2)
    // Notifications can be private: the record is for its owner alone.
    let permissions = try FileManager.default.attributesOfItem(atPath: record)[.posixPermissions] as? Int
    #expect(permissions == 0o600)
    let notify = try JSONValue(parsing: lines[0])
    #expect(
      notify.objectValue?.map(\.0) == [
        "event", "id", "replaces_id", "sender", "app_name", "app_icon", "summary", "body",
        "actions", "hints",
        "expire_timeout", "time",
      ])
    #expect(notify["event"] == "notify")
    #expect(notify["id"]?.integerValue == Int64(id))
    #expect(notify["sender"]?.stringValue == connection.uniqueName.rawValue)
    #expect(notify["summary"] == "Time's up")
    #expect(notify["app_icon"] == "dialog-information")
    #expect(notify["actions"] == [.object([("key", "default"), ("label", "Solve")])])
    #expect(
      notify["hints"]
        == .object([
          ("urgency", .object([("signature", "y"), ("value", 1)])),
          ("x-dunst-stack-tag", .object([("signature", "s"), ("value", "shield-open")])),
        ]))
    #expect(notify["expire_timeout"] == 0)
    let closed = try JSONValue(parsing: lines[1])
    #expect(closed["event"] == "closed")
    #expect(closed["id"]?.integerValue == Int64(id))
    #expect(closed["reason"] == "closed")
    #expect(closed["reason_code"] == 3)
  }

  @Test func theTimeIsAUTCTimestampWithMillisecondsAndNumbersKeepTheirSign() async throws {
    let directory = try TemporaryDirectory()
    let record = directory.file("record.jsonl")
    let fixture = try await EmbeddedServer(recordPath: record)
    let before = Date()
    _ = try await callServer(
      try fixture.connection(), "Notify",
      notifyArguments(summary: "when", hints: [("n", .int64(-1_234_567_890_123))], expireTimeout: -1))
    let after = Date()
    let line = try #require(try readLines(record).first)
    let json = try JSONValue(parsing: line)
    #expect(json["expire_timeout"] == -1)
    #expect(
      json["hints"] == .object([("n", .object([("signature", "x"), ("value", .integer(-1_234_567_890_123))]))]))
    let time = try #require(json["time"]?.stringValue)
    #expect(time.wholeMatch(of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/) != nil, "\(time)")
    let parsed = try #require(
      try? Date(time, strategy: .iso8601.year().month().day().time(includingFractionalSeconds: true)))
    // The record keeps milliseconds: the time lies between the two clock readings, to the millisecond.
    #expect(parsed.timeIntervalSince(before) > -0.001)
    #expect(after.timeIntervalSince(parsed) > -0.001)
  }

  @Test func anyTextAndAnyHintTypeIsRecordedAsValidJSON() async throws {
    let directory = try TemporaryDirectory()
    let record = directory.file("record.jsonl")
    let fixture = try await EmbeddedServer(recordPath: record)
    let summary = "Tom \"&\" Jerry \\ tab\t line\n é 漢 \u{1F600} \u{2028} \u{7F} end"
    let hints: [(String, DBusValue)] = [
      ("b", .boolean(true)), ("d", .double(0.5)), ("n", .int16(-3)), ("u", .uint64(.max)),
      ("o", .objectPath(try ObjectPath("/a/b"))),
      ("ay", .array(element: .byte, [.byte(1), .byte(2)])),
      ("s", .structure([.int32(1), .string("x")])),
      ("m", .dictionary(key: .string, value: .int32, [.init(.string("k\""), .int32(1))])),
      ("i", .dictionary(key: .int32, value: .string, [.init(.int32(4), .string("four"))])),
    ]
    let id = try await callServer(
      try fixture.connection(), "Notify", notifyArguments(summary: summary, hints: hints)
    ).decode(UInt32.self)
    let line = try #require(try readLines(record).first)
    let json = try JSONValue(parsing: line)
    #expect(json["summary"]?.stringValue == summary)
    // Each hint with its signature; the uint64 is exact in the text (JSONValue reads it as a double).
    #expect(line.contains(#""u":{"signature":"t","value":18446744073709551615}"#))
    func typed(_ signature: String, _ value: JSONValue) -> JSONValue {
      .object([("signature", .string(signature)), ("value", value)])
    }
    #expect(
      json["hints"]
        == .object([
          ("b", typed("b", true)), ("d", typed("d", 0.5)), ("n", typed("n", -3)),
          ("u", typed("t", .number(Double(UInt64.max)))), ("o", typed("o", "/a/b")),
          ("ay", typed("ay", [1, 2])),
          ("s", typed("(is)", [1, "x"])), ("m", typed("a{si}", .object([("k\"", 1)]))),
          ("i", typed("a{is}", .object([("4", "four")]))),
        ]))
    #expect(fixture.server.notification(id)?.json["summary"]?.stringValue == summary)
  }

  @Test func onlyTheMostRecentNotificationsStayInMemoryButAllAreRecorded() async throws {
    let directory = try TemporaryDirectory()
    let record = directory.file("record.jsonl")
    let fixture = try await EmbeddedServer(recordPath: record, retainedLimit: 10)
    let connection = try fixture.connection()
    var ids: [UInt32] = []
    for index in 0..<50 {
      ids.append(
        try await callServer(connection, "Notify", notifyArguments(summary: "n\(index)")).decode(
          UInt32.self))
    }
    #expect(fixture.server.notifications.map(\.id) == Array(ids.suffix(10)))
    #expect(fixture.server.notification(ids[0]) == nil)
    #expect(try readLines(record).count == 50)
    // An id that left memory is no longer open: replacing it gives a fresh id.
    let fresh = try await callServer(
      connection, "Notify", notifyArguments(summary: "again", replacesID: ids[0])
    )
    .decode(UInt32.self)
    #expect(fresh != ids[0])
  }
}

private func readLines(_ path: String) throws -> [String] {
  try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
}
