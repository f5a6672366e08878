import DBus
import TestSupport
import Testing

/// Two connections on a private bus: one exports an echo method for a signature, the other calls it.
struct EchoPair {
  let bus: BusDaemon
  let server: Connection
  let client: Connection
  let path: ObjectPath
  let interface: InterfaceName

  init(signatures: [String]) throws {
    bus = try BusDaemon()
    server = try Connection(.address(bus.address))
    client = try Connection(.address(bus.address))
    path = try ObjectPath("/org/example/Echo")
    interface = try InterfaceName("org.example.Echo")
    let methods = try signatures.enumerated().map { index, signature in
      try Method("Echo\(index)", inputs: signature, outputs: signature) { call in try call.message.values() }
    }
    try server.export([try Interface(interface.rawValue, methods: methods)], at: path)
  }

  /// Calls `Echo<index>` with `values` and returns the reply's values.
  func echo(_ index: Int, _ values: [DBusValue]) async throws -> Message {
    let message = try Message.methodCall(
      destination: server.uniqueName, path: path, interface: interface,
      member: try MemberName("Echo\(index)"))
    try message.append(values: values)
    return try await client.call(message, timeout: HangBound.answer)
  }
}

@Suite("Every D-Bus type survives a round trip through a real bus")
struct TypeRoundTripTests {
  static let samples: [(String, [DBusValue])] = [
    ("y", [.byte(0)]), ("y", [.byte(255)]),
    ("b", [.boolean(true)]), ("b", [.boolean(false)]),
    ("n", [.int16(.min)]), ("q", [.uint16(.max)]),
    ("i", [.int32(.min)]), ("u", [.uint32(.max)]),
    ("x", [.int64(.min)]), ("t", [.uint64(.max)]),
    ("d", [.double(-1.5e300)]), ("d", [.double(0)]),
    ("s", [.string("")]), ("s", [.string("Grüße, 世界 👋🏽 שלום")]),
    ("o", [.objectPath(try! ObjectPath("/org/freedesktop/Notifications"))]),
    ("g", [.signature(try! Signature("a{sv}(ii)"))]),
    ("v", [.variant(.uint32(7))]),
    ("v", [.variant(.variant(.string("nested")))]),
    ("as", [.array(element: .string, [])]),
    ("as", [.array(element: .string, [.string("a"), .string("b")])]),
    ("ay", [.array(element: .byte, (0...255).map { .byte(UInt8($0)) })]),
    ("aai", [.array(element: .array(.int32), [.array(element: .int32, [.int32(1)]), .array(element: .int32, [])])]),
    (
      "a{sv}",
      [
        .dictionary(
          key: .string, value: .variant,
          [
            .init(.string("urgency"), .variant(.byte(1))), .init(.string("x"), .variant(.int32(-4))),
          ])
      ]
    ),
    ("a{us}", [.dictionary(key: .uint32, value: .string, [])]),
    ("(isd)", [.structure([.int32(1), .string("two"), .double(3)])]),
    (
      "a(sa{sv})",
      [
        .array(
          element: .structure([.string, .dictionary(key: .string, value: .variant)]),
          [
            .structure([
              .string("s"), .dictionary(key: .string, value: .variant, [.init(.string("k"), .variant(.boolean(true)))]),
            ])
          ])
      ]
    ),
    (
      "susssasa{sv}i",
      [
        .string("app"), .uint32(0), .string("icon"), .string("Summary"), .string("Body"),
        .array(element: .string, [.string("default"), .string("Open")]),
        .dictionary(key: .string, value: .variant, [.init(.string("urgency"), .variant(.byte(1)))]), .int32(-1),
      ]
    ),
  ]

  @Test("dynamic values come back equal", arguments: 0..<samples.count)
  func dynamicValues(index: Int) async throws {
    let (signature, values) = Self.samples[index]
    let pair = try EchoPair(signatures: [signature])
    let reply = try await pair.echo(0, values)
    #expect(reply.signature == signature)
    #expect(try reply.values() == values)
  }

  @Test func typedArgumentsDecodeDirectly() async throws {
    let pair = try EchoPair(signatures: ["ybnqiuxtdsog", "asa{su}", "av"])
    let message = try Message.methodCall(
      destination: pair.server.uniqueName, path: pair.path, interface: pair.interface,
      member: try MemberName("Echo0"))
    try message.append(
      UInt8(9), true, Int16(-3), UInt16(4), Int32(-5), UInt32(6), Int64(-7), UInt64(8), 9.5, "ten",
      try ObjectPath("/eleven"), try Signature("a{sv}"))
    let reply = try await pair.client.call(message)
    let (y, b, n, q, i, u, x, t, d, s, o, g) = try reply.decode(
      UInt8.self, Bool.self, Int16.self, UInt16.self, Int32.self, UInt32.self, Int64.self, UInt64.self,
      Double.self, String.self, ObjectPath.self, Signature.self)
    #expect(y == 9 && b && n == -3 && q == 4 && i == -5 && u == 6 && x == -7 && t == 8 && d == 9.5)
    #expect(s == "ten" && o.rawValue == "/eleven" && g.rawValue == "a{sv}")

    let second = try Message.methodCall(
      destination: pair.server.uniqueName, path: pair.path, interface: pair.interface,
      member: try MemberName("Echo1"))
    try second.append(["a", "b"], ["one": UInt32(1), "two": UInt32(2)])
    let (strings, numbers) = try await pair.client.call(second).decode([String].self, [String: UInt32].self)
    #expect(strings == ["a", "b"])
    #expect(numbers == ["one": 1, "two": 2])

    let third = try Message.methodCall(
      destination: pair.server.uniqueName, path: pair.path, interface: pair.interface,
      member: try MemberName("Echo2"))
    try third.append([Variant(.string("s")), Variant(.array(element: .int32, [.int32(1)]))])
    let variants = try await pair.client.call(third).decode([Variant].self)
    #expect(variants.map(\.value) == [.string("s"), .array(element: .int32, [.int32(1)])])
  }

  @Test func decodingWithTheWrongTypesIsAnErrorNamingBothSignatures() async throws {
    let pair = try EchoPair(signatures: ["su"])
    let reply = try await pair.echo(0, [.string("a"), .uint32(1)])
    let error = #expect(throws: DBusError.self) { try reply.decode(String.self, String.self) }
    #expect(error?.is(.invalidArgs) == true)
    #expect(error?.message.contains("'ss'") == true)
    #expect(error?.message.contains("'su'") == true)
  }
}

@Suite("Blocking calls and the loop share the connection")
struct BlockingAndLoopTests {
  @Test func signalsKeepArrivingWhileAnotherThreadMakesBlockingCalls() async throws {
    let pair = try EchoPair(signatures: ["s"])
    let emitter = try Connection(.address(pair.bus.address))
    let stream = try await pair.client.signals(Ping.self)
    let message = try Message.methodCall(
      destination: pair.server.uniqueName, path: pair.path, interface: pair.interface,
      member: try MemberName("Echo0"))
    try message.append("payload")
    let client = pair.client
    let calls = Task.detached {
      for _ in 0..<300 { _ = try client.callBlocking(try message.copy()).decode(String.self) }
    }
    for index in 0..<50 {
      try emitter.emit(
        path: try ObjectPath("/org/example/Signals"), interface: Ping.interface, member: Ping.member, "\(index)")
    }
    var received: [String] = []
    for await ping in stream {
      received.append(ping.text)
      if received.count == 50 { break }
    }
    try await calls.value
    #expect(received == (0..<50).map(String.init))
    // After the blocking calls, the loop alone serves the connection again.
    try emitter.emit(
      path: try ObjectPath("/org/example/Signals"), interface: Ping.interface, member: Ping.member, "last")
    var iterator = stream.makeAsyncIterator()
    #expect(await iterator.next()?.text == "last")
  }
}
