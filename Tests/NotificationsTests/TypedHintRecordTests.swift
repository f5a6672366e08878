import DBus
import Foundation
import JSON
import Notifications
import Spawn
import TestSupport
import Testing

/// The record's lines, once there are `count` of them.
private func recordLines(_ path: String, count: Int) async throws -> [String] {
  try await poll("\(count) line(s) in the record") {
    let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    let lines = text.split(separator: "\n").map(String.init)
    return lines.count >= count ? lines : nil
  }
}

/// `{"signature":SIGNATURE,"value":VALUE}` as the record writes a hint.
private func typed(_ signature: String, _ value: JSONValue) -> JSONValue {
  .object([("signature", .string(signature)), ("value", value)])
}

@Suite("The embedded server records every hint with its signature and exact value")
struct TypedHintRecordTests {
  @Test func notifySendsHintsOfEveryTypeAreRecordedExactly() async throws {
    let notifySend = try requiredTool("notify-send", package: "libnotify-bin")
    let directory = try TemporaryDirectory()
    let record = directory.file("record.jsonl")
    let fixture = try await EmbeddedServer(recordPath: record)
    let sent = try Subprocess.run(
      [
        notifySend, "typed",
        "--hint", "int:x-int:42", "--hint", "double:x-double:2.0", "--hint", "byte:x-byte:255",
        "--hint", "boolean:x-bool:true", "--hint", "string:x-string:2.0",
        "--hint", "variant:x-big:uint64 18446744073709551615",
        "--hint", "variant:x-names:@a{is} {7: 'seven', -1: 'minus one'}",
        "--hint", "variant:x-pair:(int16 -3, @ay [1, 2])",
      ],
      environment: ShieldBridgeTool.mergedEnvironment(["DBUS_SESSION_BUS_ADDRESS": fixture.bus.address]),
      timeout: .seconds(10))
    #expect(sent.status == 0, "\(sent.error)")
    let line = try #require(try await recordLines(record, count: 1).first)
    // The text itself: JSONValue would read the uint64 back as a double.
    #expect(line.contains(#""x-big":{"signature":"t","value":18446744073709551615}"#), "\(line)")
    #expect(line.contains(#""x-double":{"signature":"d","value":2.0}"#), "\(line)")
    let hints = try #require(try JSONValue(parsing: line)["hints"])
    #expect(hints["x-int"] == typed("i", 42))
    #expect(hints["x-double"]?["value"] == .number(2.0))
    #expect(hints["x-byte"] == typed("y", 255))
    #expect(hints["x-bool"] == typed("b", true))
    #expect(hints["x-string"] == typed("s", "2.0"))
    #expect(hints["x-names"] == typed("a{is}", .object([("7", "seven"), ("-1", "minus one")])))
    #expect(hints["x-pair"] == typed("(nay)", [-3, [1, 2]]))
    // notify-send adds its own sender-pid and urgency hints, typed as it sent them.
    #expect(hints["urgency"] == typed("y", 1))
    #expect(hints["sender-pid"]?["signature"] == "x")
  }

  @Test func aClientsVariantsDoublesAndKeysOfEveryTypeKeepTheirTypes() async throws {
    let directory = try TemporaryDirectory()
    let record = directory.file("record.jsonl")
    let fixture = try await EmbeddedServer(recordPath: record)
    let hints: [(String, DBusValue)] = [
      ("x-nested", .variant(.variant(.uint16(7)))),
      ("x-doubles", .array(element: .double, [.double(2), .double(0.1), .double(-0.0), .double(1e300)])),
      ("x-odd", .array(element: .double, [.double(.nan), .double(.infinity), .double(-.infinity)])),
      ("x-bools", .dictionary(key: .boolean, value: .variant, [.init(.boolean(true), .variant(.string("yes")))])),
      ("x-max", .dictionary(key: .uint64, value: .int64, [.init(.uint64(.max), .int64(.min))])),
      ("x-path", .objectPath(try ObjectPath("/a/b"))),
      ("x-sig", .signature(try Signature("a{sv}"))),
    ]
    let client = try fixture.connection()
    let message = try Message.methodCall(
      destination: NotificationsNames.busName, path: NotificationsNames.path,
      interface: NotificationsInterface.name, member: MemberName("Notify"))
    try message.append(values: [
      .string("tests"), .uint32(0), .string(""), .string("typed"), .string(""),
      .array(element: .string, []),
      .dictionary(key: .string, value: .variant, hints.map { .init(.string($0.0), .variant($0.1)) }),
      .int32(-1),
    ])
    _ = try await client.call(message, timeout: HangBound.answer)
    let line = try #require(try await recordLines(record, count: 1).first)
    #expect(
      line.contains(
        #""x-nested":{"signature":"v","value":{"signature":"v","value":{"signature":"q","value":7}}}"#),
      "\(line)")
    #expect(line.contains(#""x-doubles":{"signature":"ad","value":[2.0,0.1,-0.0,1e+300]}"#), "\(line)")
    #expect(line.contains(#""x-odd":{"signature":"ad","value":["NaN","Infinity","-Infinity"]}"#), "\(line)")
    #expect(
      line.contains(
        #""x-bools":{"signature":"a{bv}","value":{"true":{"signature":"s","value":"yes"}}}"#), "\(line)")
    #expect(
      line.contains(
        #""x-max":{"signature":"a{tx}","value":{"18446744073709551615":-9223372036854775808}}"#),
      "\(line)")
    let hintsJSON = try #require(try JSONValue(parsing: line)["hints"])
    #expect(hintsJSON["x-path"] == typed("o", "/a/b"))
    #expect(hintsJSON["x-sig"] == typed("g", "a{sv}"))
    // list --json (the control interface's pages) has the same shape as the record.
    let kept = try #require(fixture.server.notifications.first)
    #expect(kept.json["hints"]?["x-path"] == typed("o", "/a/b"))
  }
}
