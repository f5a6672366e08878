import DBus
import Testing

@Suite struct Smoke {
  @Test func echoRoundTrip() async throws {
    let bus = try BusDaemon()
    let server = try Connection(.address(bus.address))
    let client = try Connection(.address(bus.address))
    try server.export(
      [try Interface("org.example.Echo", methods: [try Method("Echo", inputs: "s", outputs: "s") { call in
        let (text) = try call.decode(String.self)
        return [.string(text)]
      }])], at: try ObjectPath("/org/example"))
    let reply = try await client.call(
      try BusName(server.uniqueName), try ObjectPath("/org/example"), try InterfaceName("org.example.Echo"),
      try MemberName("Echo"), "hello")
    #expect(try reply.decode(String.self) == "hello")
    let blocking = try Message.methodCall(destination: try BusName(server.uniqueName), path: try ObjectPath("/org/example"), interface: try InterfaceName("org.example.Echo"), member: try MemberName("Echo"))
    try blocking.append("world")
    let r2 = try await Task.detached { try client.callBlocking(blocking) }.value
    #expect(try r2.decode(String.self) == "world")
  }
}
