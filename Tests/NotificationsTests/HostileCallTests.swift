import DBus
import Notifications
import TestSupport
import Testing

@Suite("The embedded server answers wrong, huge and deeply nested calls and stays on the bus")
struct HostileServerCallTests {
  /// The eight `Notify` arguments, with `hints` and the strings given.
  private static func notify(
    appName: String = "hostile", summary: String = "summary", body: String = "body", actions: [String] = [],
    hints: [(String, DBusValue)] = []
  ) -> [DBusValue] {
    [
      .string(appName), .uint32(0), .string("dialog-information"), .string(summary), .string(body),
      .array(element: .string, actions.map(DBusValue.string)),
      .dictionary(key: .string, value: .variant, hints.map { .init(.string($0.0), .variant($0.1)) }),
      .int32(-1),
    ]
  }

  private static let methods: [(String, [DBusValue])] = [
    ("Notify", notify()), ("CloseNotification", [.uint32(1)]), ("GetCapabilities", []),
    ("GetServerInformation", []),
  ]

  /// The server owns its name, its connection is open, and it answers `GetServerInformation`.
  private func expectStillServing(_ fixture: EmbeddedServer, from connection: Connection) async throws {
    #expect(fixture.server.connection.isConnected)
    #expect(try await connection.nameOwner(NotificationsNames.busName) == fixture.server.connection.uniqueName)
    let information = try await call(connection, "GetServerInformation", []).get()
    #expect(try information.decode(String.self, String.self, String.self, String.self).0 == "shieldbridge")
  }

  private func call(
    _ connection: Connection, _ member: String, _ arguments: [DBusValue]
  ) async throws -> Result<Message, DBusError> {
    try await HostileCalls.call(
      connection, destination: NotificationsNames.busName, path: NotificationsNames.path,
      interface: NotificationsInterface.name, member: MemberName(member), arguments)
  }

  @Test func everyMethodRefusesEveryOtherSignature() async throws {
    let fixture = try await EmbeddedServer()
    let hostile = try fixture.connection()
    for (member, valid) in Self.methods {
      for arguments in HostileCalls.wrongSignatures(for: valid) {
        let result = try await call(hostile, member, arguments.values)
        guard case .failure(let error) = result else {
          Issue.record("\(member) with \(arguments.label) was answered")
          continue
        }
        #expect(error.is(.invalidArgs), "\(member) with \(arguments.label): \(error)")
        #expect(error.message.utf8.count <= Message.errorTextLimit)
      }
    }
    #expect(hostile.isConnected)
    #expect(fixture.server.notifications.isEmpty)
    try await expectStillServing(fixture, from: hostile)
  }

  @Test func hugeAndDeeplyNestedNotificationsAreAnsweredOrRefused() async throws {
    let fixture = try await EmbeddedServer()
    let hostile = try fixture.connection()
    let huge = HostileCalls.hugeString()
    // Inside `a{sv}` a hint's value starts two containers deep, in its own variant.
    let deepest = HostileCalls.totalDepthLimit - 3
    let calls: [(String, [DBusValue])] = [
      ("a huge app name", Self.notify(appName: huge)),
      ("a huge body", Self.notify(body: huge)),
      ("ten thousand actions", Self.notify(actions: (0..<10_000).map { "action \($0)" })),
      ("a huge hint", Self.notify(hints: [("x-hostile", .string(huge))])),
      (
        "a hint of variants nested to the limit",
        Self.notify(hints: [("x-deep", HostileCalls.nestedVariant(depth: deepest))])
      ),
      ("a hint of arrays nested to the limit", Self.notify(hints: [("x-deep", HostileCalls.nestedArrays(depth: 32))])),
      ("an image hint of the wrong type", Self.notify(hints: [("image-data", HostileCalls.nestedArrays(depth: 8))])),
      ("an urgency hint of the wrong type", Self.notify(hints: [("urgency", .string("very"))])),
    ]
    for (label, arguments) in calls {
      // Either is fine here (what the server keeps is bounded elsewhere): an id or an error, never silence.
      switch try await call(hostile, "Notify", arguments) {
      case .success(let reply):
        #expect(try reply.decode(UInt32.self) != 0, "Notify with \(label)")
      case .failure(let error):
        #expect(!error.is(.noReply) && !error.is(.disconnected), "Notify with \(label): \(error)")
        #expect(error.message.utf8.count <= Message.errorTextLimit)
      }
    }
    let close = try await call(hostile, "CloseNotification", [.uint32(UInt32.max)])
    #expect(throws: DBusError.self) { try close.get() }
    #expect(hostile.isConnected)
    try await expectStillServing(fixture, from: hostile)
  }
}
