import DBus
import Spawn
import TestSupport
import Testing

@Suite("Calls that fail come back as one typed error with the D-Bus name")
struct ErrorTests {
  let bus: BusDaemon
  let server: Connection
  let client: Connection
  let path: ObjectPath
  let interface: InterfaceName

  init() throws {
    bus = try BusDaemon()
    server = try Connection(.address(bus.address))
    client = try Connection(.address(bus.address))
    path = try ObjectPath("/org/example/Errors")
    interface = try InterfaceName("org.example.Errors")
    try server.export(
      [
        try Interface(
          interface.rawValue,
          methods: [
            try Method("Plain") { _ in [] },
            try Method("Custom") { _ in throw DBusError(name: "org.example.Error.Custom", message: "it went wrong") },
            try Method("Foreign") { _ in throw CancellationError() },
            try Method("WrongReply", outputs: "u") { _ in [.string("not a number")] },
            try Method(
              "Silent",
              async: { _ in
                try await Task.sleep(for: .seconds(30))
                return []
              }),
            try Method("BlockingOnOwnThread") { [client = server] call in
              _ = try client.callBlocking(try BusInterface.getId.message(destination: .bus, path: .bus))
              return []
            },
          ])
      ], at: path)
  }

  func call(_ member: String, timeout: Duration = HangBound.answer, _ values: [DBusValue] = []) async throws(DBusError)
    -> Message
  {
    let message = try Message.methodCall(
      destination: server.uniqueName, path: path, interface: interface, member: try MemberName(member))
    try message.append(values: values)
    return try await client.call(message, timeout: timeout)
  }

  @Test func aServiceNobodyOwnsIsServiceUnknown() async throws {
    let message = try Message.methodCall(
      destination: try BusName("org.example.Nobody"), path: path, interface: interface, member: try MemberName("Plain"))
    // ServiceUnknown (not NoReply) means the bus answered at once instead of the timeout passing;
    // wall-clock bounds are left out, since parallel tests can keep this task waiting for a thread.
    let error = await #expect(throws: DBusError.self) { try await client.call(message, timeout: .seconds(10)) }
    #expect(error?.is(.serviceUnknown) == true)
  }

  @Test func aPeerThatNeverAnswersIsNoReplyAfterTheTimeout() async throws {
    let clock = ContinuousClock()
    let start = clock.now
    let error = await #expect(throws: DBusError.self) { try await call("Silent", timeout: .milliseconds(200)) }
    let elapsed = clock.now - start
    #expect(error?.is(.noReply) == true)
    #expect(elapsed >= .milliseconds(200))
  }

  @Test func aBlockingCallAlsoTimesOut() async throws {
    let message = try Message.methodCall(
      destination: server.uniqueName, path: path, interface: interface, member: try MemberName("Silent"))
    let client = self.client
    let error = await Task.detached {
      #expect(throws: DBusError.self) { try client.callBlocking(message, timeout: .milliseconds(200)) }
    }.value
    #expect(error?.is(.noReply) == true)
  }

  @Test func anUnknownMethodIsUnknownMethod() async throws {
    let error = await #expect(throws: DBusError.self) { try await call("Missing") }
    #expect(error?.is(.unknownMethod) == true)
  }

  @Test func anUnknownInterfaceAndObjectAreNamedAsSuch() async throws {
    let wrongInterface = try Message.methodCall(
      destination: server.uniqueName, path: path, interface: try InterfaceName("org.example.Other"),
      member: try MemberName("Plain"))
    let interfaceError = await #expect(throws: DBusError.self) { try await client.call(wrongInterface) }
    #expect(interfaceError?.is(.unknownInterface) == true)

    let wrongObject = try Message.methodCall(
      destination: server.uniqueName, path: try ObjectPath("/nowhere"), interface: interface,
      member: try MemberName("Plain"))
    let objectError = await #expect(throws: DBusError.self) { try await client.call(wrongObject) }
    #expect(objectError?.is(.unknownObject) == true)
  }

  @Test func argumentsOfTheWrongSignatureAreInvalidArgsWithoutReachingTheHandler() async throws {
    let error = await #expect(throws: DBusError.self) { try await call("Plain", [.string("unexpected")]) }
    #expect(error?.is(.invalidArgs) == true)
    #expect(error?.message.contains("'s'") == true)
  }

  @Test func aHandlersOwnErrorNameReachesTheCaller() async throws {
    let custom = await #expect(throws: DBusError.self) { try await call("Custom") }
    #expect(custom == DBusError(name: "org.example.Error.Custom", message: "it went wrong"))
    let foreign = await #expect(throws: DBusError.self) { try await call("Foreign") }
    #expect(foreign?.is(.failed) == true)
  }

  @Test func aHandlerReplyOfTheWrongTypeBecomesAnErrorNotABrokenReply() async throws {
    let error = await #expect(throws: DBusError.self) { try await call("WrongReply") }
    #expect(error?.is(.failed) == true)
    #expect(error?.message.contains("'s'") == true)
  }

  @Test func aBlockingCallOnTheDispatchThreadIsRefusedInsteadOfDeadlocking() async throws {
    let error = await #expect(throws: DBusError.self) { try await call("BlockingOnOwnThread") }
    #expect(error?.is(.failed) == true)
    #expect(error?.message.contains("would wait for itself") == true)
  }

  @Test func aCancelledCallEndsAtOnceWithCancelled() async throws {
    let task = Task { try await call("Silent", timeout: .seconds(30)) }
    task.cancel()
    let error = await #expect(throws: DBusError.self) { try await task.value }
    #expect(error?.is(.cancelled) == true)
  }

  @Test func everyCallSentWhileTheConnectionClosesGetsItsCompletion() async throws {
    // One thread sends calls that are never answered until sending fails (or
    // 5,000 were sent); meanwhile the connection closes. Every call that was
    // taken must complete, also one sent just as the connection's loop ended.
    let progress = EventLog<String>()
    let message = try Message.methodCall(
      destination: server.uniqueName, path: path, interface: interface, member: try MemberName("Silent"))
    let sender = Task { [client] in
      try await onOwnThread {
        var taken = 0
        while true {
          do throws(DBusError) {
            try client.call(message.copy(), timeout: .seconds(60)) { result in
              switch result {
              case .failure(let error) where error.is(.disconnected): progress.append("disconnected")
              default: progress.append("\(result)")
              }
            }
          } catch {
            guard error.is(.disconnected) else { throw error }
            return taken
          }
          taken += 1
          if taken == 100 { progress.append("sent 100") }
          if taken == 5_000 { return taken }
        }
      }
    }
    _ = try await progress.first("the first 100 calls sent") { $0 == "sent 100" }
    client.close()
    let taken = try await sender.value
    _ = try await progress.first("the completions of all \(taken) calls", after: taken)
    #expect(progress.events.filter { $0 != "sent 100" } == Array(repeating: "disconnected", count: taken))
  }

  @Test func callsOnAClosedConnectionFailWithDisconnected() async throws {
    client.close()
    #expect(!client.isConnected)
    let error = await #expect(throws: DBusError.self) { try await call("Plain") }
    #expect(error?.is(.disconnected) == true)
  }
}
