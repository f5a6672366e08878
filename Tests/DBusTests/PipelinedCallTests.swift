import DBus
import Synchronization
import Testing

@Suite("Calls with a completion handler, many in flight")
struct PipelinedCallTests {
  @Test func everyCallGetsItsOwnReplyInOrder() async throws {
    let bus = try BusDaemon()
    let server = try Connection(.address(bus.address))
    let path = try ObjectPath("/org/example")
    try server.export(
      [
        try Interface(
          "org.example.Echo",
          methods: [
            try Method("Echo", inputs: "u", outputs: "u") { call in
              [.uint32(try call.decode(UInt32.self))]
            }
          ])
      ], at: path)
    let client = try Connection(.address(bus.address))
    let replies = Mutex<[UInt32]>([])
    let (done, finished) = AsyncStream.makeStream(of: Void.self)
    let count: UInt32 = 500
    for value in 0..<count {
      let message = try Message.methodCall(
        destination: server.uniqueName, path: path,
        interface: try InterfaceName("org.example.Echo"),
        member: try MemberName("Echo"))
      try message.append(value)
      try client.call(message, timeout: .seconds(10)) { result in
        let answer = (try? result.get().decode(UInt32.self)) ?? .max
        let total = replies.withLock { replies in
          replies.append(answer)
          return replies.count
        }
        if total == Int(count) { finished.finish() }
      }
    }
    for await _ in done {}
    #expect(replies.withLock { $0 } == Array(0..<count))
  }

  @Test func aCallThatGetsNoReplyCompletesWithNoReply() async throws {
    let bus = try BusDaemon()
    let client = try Connection(.address(bus.address))
    let silent = try Connection(.address(bus.address))
    let path = try ObjectPath("/org/example")
    try silent.export(
      [
        try Interface(
          "org.example.Silent",
          methods: [
            try Method(
              "Wait",
              async: { _ in
                try await Task.sleep(for: .seconds(30))
                return []
              })
          ])
      ], at: path)
    let message = try Message.methodCall(
      destination: silent.uniqueName, path: path,
      interface: try InterfaceName("org.example.Silent"),
      member: try MemberName("Wait"))
    let (stream, continuation) = AsyncStream.makeStream(of: DBusError?.self)
    try client.call(message, timeout: .milliseconds(100)) { result in
      if case .failure(let error) = result {
        continuation.yield(error)
      } else {
        continuation.yield(nil)
      }
    }
    var first: DBusError?
    for await error in stream {
      first = error
      break
    }
    #expect(first?.is(.noReply) == true)
  }
}

@Suite("Copies of a message")
struct MessageCopyTests {
  @Test func aCopyHasTheSameArgumentsAndIsSentWithItsOwnSerial() async throws {
    let bus = try BusDaemon()
    let server = try Connection(.address(bus.address))
    let path = try ObjectPath("/org/example")
    try server.export(
      [
        try Interface(
          "org.example.Echo",
          methods: [
            try Method("Echo", inputs: "su", outputs: "su") { call in
              let (text, number) = try call.decode(String.self, UInt32.self)
              return [.string(text), .uint32(number)]
            }
          ])
      ], at: path)
    let client = try Connection(.address(bus.address))
    let template = try Message.methodCall(
      destination: server.uniqueName, path: path,
      interface: try InterfaceName("org.example.Echo"),
      member: try MemberName("Echo"))
    try template.append("hello", UInt32(7))
    let first = try template.copy()
    let second = try template.copy()
    #expect(first.serial == 0)
    let replies = [try await client.call(first), try await client.call(second)]
    #expect(first.serial != second.serial)
    for reply in replies {
      #expect(try reply.decode(String.self, UInt32.self) == ("hello", UInt32(7)))
    }
    #expect(template.serial == 0)
  }
}
