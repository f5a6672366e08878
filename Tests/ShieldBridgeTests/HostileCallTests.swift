import DBus
import JSON
import ShieldBridge
import TestSupport
import Testing

@Suite("Calls with wrong, huge or deeply nested arguments get an error, and serve keeps answering")
struct HostileCallServeTests {
  /// Calls serve's object from a connection of its own, as any program on the bus can.
  private func call(
    _ running: RunningService, on connection: Connection, _ interface: InterfaceName?, _ member: String,
    _ arguments: [DBusValue]
  ) async throws -> Result<Message, DBusError> {
    try await HostileCalls.call(
      connection, destination: ServiceNames.busName, path: ServiceNames.path, interface: interface,
      member: MemberName(member), arguments)
  }

  /// serve still owns its name, runs, and answers a real `Status`.
  private func expectStillServing(_ running: RunningService) async throws {
    #expect(running.serve.process.process.exitStatus == nil, "\(running.serve.process.standardError)")
    #expect(running.watcher.owner.owner == running.serve.uniqueName)
    let status = try JSONValue(
      parsing: try await running.watcher.call(ServiceInterface.status.name).decode(String.self))
    #expect(status["rules"] != nil, "\(status)")
  }

  @Test func everyMethodRefusesEveryOtherSignatureWithInvalidArgs() async throws {
    let running = try await RunningService()
    let hostile = try Connection(.address(running.desk.bus.address))
    let methods: [(InterfaceName?, String, [DBusValue])] = [
      (ServiceInterface.name, "Shield", [.string("Instagram")]),
      (ServiceInterface.name, "Open", [.string("shieldbridge://view?app=Instagram&view=feed")]),
      (ServiceInterface.name, "Status", []),
      // Without an interface the method is found by its name alone.
      (nil, "Shield", [.string("Instagram")]),
      (.introspectable, "Introspect", []),
      (.peer, "Ping", []),
      (.peer, "GetMachineId", []),
    ]
    for (interface, member, valid) in methods {
      for arguments in HostileCalls.wrongSignatures(for: valid) {
        let result = try await call(running, on: hostile, interface, member, arguments.values)
        guard case .failure(let error) = result else {
          Issue.record("\(member) with \(arguments.label) was answered")
          continue
        }
        #expect(error.is(.invalidArgs), "\(member) with \(arguments.label): \(error)")
        #expect(error.message.utf8.count <= Message.errorTextLimit)
      }
    }
    #expect(hostile.isConnected)
    // Nothing reached the service: no notification, no dispatch.
    #expect(running.desk.server.notifications.isEmpty)
    #expect(running.watcher.dispatched.count == 0)
    try await expectStillServing(running)
  }

  @Test func aMultiMegabyteAppOrLinkIsRefusedWithAShortError() async throws {
    let running = try await RunningService()
    let hostile = try Connection(.address(running.desk.bus.address))
    let huge = HostileCalls.hugeString()
    let calls: [(String, String, String)] = [
      ("Shield", huge, ServiceNames.Error.notCovered),
      ("Open", huge, ServiceNames.Error.badLink),
      ("Open", "shieldbridge://view?app=Instagram&view=" + huge, ServiceNames.Error.badLink),
    ]
    for (member, argument, expected) in calls {
      let result = try await call(running, on: hostile, ServiceInterface.name, member, [.string(argument)])
      guard case .failure(let error) = result else {
        Issue.record("\(member) with \(argument.utf8.count) bytes was answered")
        continue
      }
      #expect(error.name == expected, "\(member): \(error.name)")
      // The reply quotes at most a few kilobytes of what it was sent.
      #expect(error.message.utf8.count <= Message.errorTextLimit, "\(member): \(error.message.utf8.count) bytes")
    }
    #expect(running.desk.server.notifications.isEmpty)
    try await expectStillServing(running)
  }
}
