import DBus
import TestSupport
import Testing

/// An exported object and a third connection that calls it with what a hostile peer sends.
private struct Exported {
  let bus: BusDaemon
  let server: Connection
  let client: Connection
  static let path = ObjectPath(rawValue: "/org/example/hostile")!
  static let interface = InterfaceName(rawValue: "org.example.Hostile")!

  /// `Echo(s) → s`, and `Refuse(s)`, whose error quotes the whole argument.
  init() throws {
    bus = try BusDaemon()
    server = try Connection(.address(bus.address))
    client = try Connection(.address(bus.address))
    let interface = try Interface(
      Self.interface.rawValue,
      methods: [
        try Method("Echo", inputs: "s", outputs: "s") { call in [.string(try call.decode(String.self))] },
        try Method("Refuse", inputs: "s") { call in
          throw DBusError(.invalidArgs, "no such thing as '\(try call.decode(String.self))'")
        },
      ])
    try server.export([interface], at: Self.path)
  }

  func call(
    _ interface: InterfaceName?, _ member: String, _ arguments: [DBusValue], path: ObjectPath = Exported.path
  ) async throws -> Result<Message, DBusError> {
    try await HostileCalls.call(
      client, destination: server.uniqueName, path: path, interface: interface, member: MemberName(member), arguments)
  }
}

@Suite("Every method of an exported object refuses a call with other arguments")
struct HostileCallTests {
  @Test(arguments: [("Introspect", InterfaceName.introspectable), ("Ping", .peer), ("GetMachineId", .peer)])
  func theStandardInterfacesRefuseArgumentsTheyDoNotTake(member: String, interface: InterfaceName) async throws {
    let exported = try Exported()
    for arguments in HostileCalls.wrongSignatures(for: [], huge: false) {
      let result = try await exported.call(interface, member, arguments.values)
      guard case .failure(let error) = result else {
        Issue.record("\(member) with \(arguments.label) was answered")
        continue
      }
      #expect(error.is(.invalidArgs), "\(member) with \(arguments.label): \(error)")
    }
    // The right call is still answered: Peer on any path, as libdbus answers it.
    let paths = interface == .peer ? [Exported.path, .root, ObjectPath(rawValue: "/not/exported")!] : [Exported.path]
    for path in paths {
      let answer = try await exported.call(interface, member, [], path: path)
      #expect(throws: Never.self, "\(member) at \(path)") { try answer.get() }
    }
    let unknown = try await exported.call(.peer, "Pong", [])
    #expect(throws: DBusError.self) { try unknown.get() }
    #expect(exported.client.isConnected && exported.server.isConnected)
  }

  @Test func anExportedMethodRefusesEveryOtherSignature() async throws {
    let exported = try Exported()
    for interface in [Exported.interface, nil] {
      for arguments in HostileCalls.wrongSignatures(for: [.string("echo")], huge: false) {
        let result = try await exported.call(interface, "Echo", arguments.values)
        guard case .failure(let error) = result else {
          Issue.record("Echo with \(arguments.label) was answered")
          continue
        }
        #expect(error.is(.invalidArgs), "Echo with \(arguments.label): \(error)")
      }
    }
    let echo = try await exported.call(Exported.interface, "Echo", [.string("still here")]).get()
    #expect(try echo.decode(String.self) == "still here")
  }

  @Test func anErrorThatQuotesAHugeArgumentIsCutSoThatTheReplyStaysSmall() async throws {
    let exported = try Exported()
    // A quarter of a megabyte is plenty to cut; the multi-megabyte calls are serve's suite's.
    let length = 1 << 18
    let result = try await exported.call(Exported.interface, "Refuse", [.string(String(repeating: "é", count: length))])
    guard case .failure(let error) = result else {
      Issue.record("Refuse was answered")
      return
    }
    #expect(error.is(.invalidArgs))
    #expect(error.message.utf8.count <= Message.errorTextLimit)
    #expect(error.message.hasPrefix("no such thing as 'éé"))
    #expect(error.message.hasSuffix("(\(length * 2 + 19) bytes in all)"))
    // A short message is sent as it is.
    let short = try await exported.call(Exported.interface, "Refuse", [.string("thing")])
    #expect(throws: DBusError(.invalidArgs, "no such thing as 'thing'")) { try short.get() }
  }
}
