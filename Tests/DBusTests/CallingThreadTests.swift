import DBus
import Foundation
import Spawn
import TestSupport
import Testing

@Suite("A connection without a thread of its own is driven by the threads that wait for replies")
struct CallingThreadTests {
  private static let slow = try! MemberName("Slow")

  /// An echo server whose `Slow` method answers after `delay`, telling `started` when it begins.
  private static func server(delay: Duration, started: @escaping @Sendable () -> Void = {}) throws -> EchoPair {
    let pair = try EchoPair(signatures: ["s"])
    let interface = try Interface(
      "org.example.Slow",
      methods: [
        try Method(
          "Slow", outputs: "s",
          async: { _ in
            started()
            try await Task.sleep(for: delay)
            return [.string("slow")]
          })
      ])
    try pair.server.export([interface], at: try ObjectPath("/org/example/Slow"))
    return pair
  }

  private static func slowCall(_ pair: EchoPair) throws(DBusError) -> Message {
    try Message.methodCall(
      destination: pair.server.uniqueName, path: try ObjectPath("/org/example/Slow"),
      interface: try InterfaceName("org.example.Slow"), member: slow)
  }

  private static func echoCall(_ pair: EchoPair, _ text: String) throws(DBusError) -> Message {
    let message = try Message.methodCall(
      destination: pair.server.uniqueName, path: pair.path, interface: pair.interface,
      member: try MemberName("Echo0"))
    try message.append(text)
    return message
  }

  @Test func callsAreAnsweredOnTheCallingThread() async throws {
    let pair = try Self.server(delay: .zero)
    let client = try Connection(.address(pair.bus.address), timeout: HangBound.answer, dispatching: .callingThread)
    #expect(client.dispatching == .callingThread)
    #expect(pair.client.dispatching == .ownThread)
    #expect(client.uniqueName.rawValue.hasPrefix(":"))
    let reply = try await client.call(try Self.echoCall(pair, "async"), timeout: HangBound.answer)
    #expect(try reply.decode(String.self) == "async")
    let blocking = try await onOwnThread {
      try client.callBlocking(try Self.echoCall(pair, "blocking"), timeout: HangBound.answer).decode(String.self)
    }
    #expect(blocking == "blocking")
  }

  @Test func aCallFromAnotherThreadIsSentAndAnsweredWhileOneThreadWaits() async throws {
    let (started, startedContinuation) = AsyncStream.makeStream(of: Void.self)
    let pair = try Self.server(delay: .milliseconds(500)) { startedContinuation.yield() }
    let client = try Connection(.address(pair.bus.address), timeout: HangBound.answer, dispatching: .callingThread)
    let order = EventLog<String>()
    let slow = try Self.slowCall(pair)
    async let waiting: Void = onOwnThread {
      _ = try client.callBlocking(slow, timeout: HangBound.answer)
      order.append("slow")
    }
    var iterator = started.makeAsyncIterator()
    _ = await iterator.next()
    // The waiting thread holds the connection: this call is queued, sent and answered by it.
    try client.call(try Self.echoCall(pair, "meanwhile"), timeout: HangBound.answer) { result in
      order.append((try? result.get().decode(String.self)).map { "echo \($0)" } ?? "echo failed")
    }
    try await waiting
    #expect(order.events == ["echo meanwhile", "slow"])
  }

  @Test func signalsArriveWhileAThreadWaitsForAReply() async throws {
    let bus = try BusDaemon()
    let emitter = try Connection(.address(bus.address))
    let listener = try Connection(.address(bus.address), timeout: HangBound.answer, dispatching: .callingThread)
    let stream = try await listener.signals(Ping.self)
    try emitter.emit(
      path: try ObjectPath("/org/example/Signals"), interface: Ping.interface, member: Ping.member, "one")
    // The bus forwards the signal before it answers the emitter's next call, and
    // answers the listener's call after the signal: waiting for that reply reads it.
    _ = try await emitter.call(BusInterface.getId, destination: .bus, path: .bus)
    _ = try await listener.call(BusInterface.getId, destination: .bus, path: .bus)
    var iterator = stream.makeAsyncIterator()
    #expect(await iterator.next()?.text == "one")
  }

  @Test(
    "a bus that never answers Hello is a NoReply after the timeout asked for",
    arguments: [Connection.Dispatching.ownThread, .callingThread])
  func aSilentBusIsANoReplyAfterTheTimeout(dispatching: Connection.Dispatching) async throws {
    let silent = try SilentSocket()
    let (error, took) = await onOwnThread { () -> (DBusError?, Duration) in
      let clock = ContinuousClock()
      let started = clock.now
      do throws(DBusError) {
        _ = try Connection(.address(silent.address), timeout: .seconds(30), dispatching: dispatching)
        return (nil, clock.now - started)
      } catch {
        return (error, clock.now - started)
      }
    }
    #expect(error?.is(.noReply) == true, "\(String(describing: error))")
    // The name tells the timeout from other failures; the lower bound tells the 30 s asked for
    // from libdbus's default of 25 s (an upper bound a busy machine could break). libdbus counts
    // in whole milliseconds: 100 ms of slack.
    #expect(took >= .seconds(30) - .milliseconds(100))
  }

  @Test func closingFailsTheCallsStillWaitingAndRefusesNewOnes() async throws {
    let pair = try Self.server(delay: .seconds(5))
    let client = try Connection(.address(pair.bus.address), timeout: HangBound.answer, dispatching: .callingThread)
    let outcomes = EventLog<String>()
    try client.call(try Self.slowCall(pair), timeout: .seconds(30)) { result in
      outcomes.append((try? result.get()) == nil ? "failed" : "answered")
    }
    client.close()
    #expect(try await outcomes.first("the waiting call's outcome", timeout: HangBound.answer) == "failed")
    #expect(!client.isConnected)
    let refused = await #expect(throws: DBusError.self) {
      _ = try await client.call(try Self.echoCall(pair, "late"), timeout: HangBound.answer)
    }
    #expect(refused?.is(.disconnected) == true)
  }
}
