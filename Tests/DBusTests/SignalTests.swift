import DBus
import TestSupport
import Testing

/// A test signal with one string argument.
struct Ping: DBusSignal {
  static let interface = try! InterfaceName("org.example.Signals")
  static let member = try! MemberName("Ping")
  let text: String

  init(message: Message) throws(DBusError) {
    text = try message.decode(String.self)
  }
}

@Suite("Signals reach subscribers, and owner-filtered streams accept only the owner")
struct SignalTests {
  let bus: BusDaemon
  let path = try! ObjectPath("/org/example/Signals")

  init() throws {
    bus = try BusDaemon()
  }

  func emitPing(_ connection: Connection, _ text: String) throws {
    try connection.emit(path: path, interface: Ping.interface, member: Ping.member, text)
  }

  @Test func aSignalIsDeliveredToAMatchingStream() async throws {
    let emitter = try Connection(.address(bus.address))
    let listener = try Connection(.address(bus.address))
    let stream = try await listener.signals(Ping.self)
    try emitPing(emitter, "hello")
    var iterator = stream.makeAsyncIterator()
    let first = await iterator.next()
    #expect(first?.text == "hello")
  }

  @Test func aStreamFromATrackedNameIgnoresTheSameSignalFromAThirdConnection() async throws {
    let owner = try Connection(.address(bus.address))
    let spoofer = try Connection(.address(bus.address))
    let listener = try Connection(.address(bus.address))
    let name = try BusName("org.example.Owner")
    #expect(try await owner.requestName(name) == .primaryOwner)
    let tracker = try await NameOwnerTracker.track(name, on: listener)
    #expect(tracker.owner == owner.uniqueName)

    // An unfiltered stream proves the spoofed signal does reach this connection.
    let everything = try await listener.signals(Ping.self)
    let filtered = try await listener.signals(Ping.self, from: tracker)
    try emitPing(spoofer, "spoofed")
    try emitPing(owner, "genuine")

    var all = everything.makeAsyncIterator()
    #expect(await all.next()?.text == "spoofed")
    #expect(await all.next()?.text == "genuine")
    var accepted = filtered.makeAsyncIterator()
    #expect(await accepted.next()?.text == "genuine")
  }

  @Test func aSignalWithArgumentsOfTheWrongTypeIsSkippedByATypedStream() async throws {
    let emitter = try Connection(.address(bus.address))
    let listener = try Connection(.address(bus.address))
    let stream = try await listener.signals(Ping.self)
    try emitter.emit(path: path, interface: Ping.interface, member: Ping.member, UInt32(13))
    try emitPing(emitter, "well-formed")
    var iterator = stream.makeAsyncIterator()
    #expect(await iterator.next()?.text == "well-formed")
  }

  @Test func aCancelledStreamEndsAndReceivesNothingMore() async throws {
    let listener = try Connection(.address(bus.address))
    let stream = try await listener.signals(Ping.self)
    stream.cancel()
    var iterator = stream.makeAsyncIterator()
    #expect(await iterator.next() == nil)
  }

  @Test func streamsEndWhenTheBusGoesAway() async throws {
    let listener = try Connection(.address(bus.address))
    let stream = try await listener.signals(Ping.self)
    bus.stop()
    var iterator = stream.makeAsyncIterator()
    #expect(await iterator.next() == nil)
    let reason = await listener.disconnection()
    #expect(reason.is(.disconnected))
    #expect(!listener.isConnected)
  }
}

@Suite("The owner of a well-known name is tracked through changes")
struct OwnerTrackingTests {
  @Test func theTrackerFollowsRequestReplacementAndRelease() async throws {
    let bus = try BusDaemon()
    let first = try Connection(.address(bus.address))
    let second = try Connection(.address(bus.address))
    let watcher = try Connection(.address(bus.address))
    let name = try BusName("org.example.Tracked")
    let tracker = try await NameOwnerTracker.track(name, on: watcher)
    #expect(tracker.owner == nil)

    var changes = tracker.ownerChanges().makeAsyncIterator()
    #expect(try await first.requestName(name, flags: [.allowReplacement, .doNotQueue]) == .primaryOwner)
    #expect(await changes.next() == first.uniqueName)
    #expect(try await second.requestName(name, flags: [.replaceExisting, .doNotQueue]) == .primaryOwner)
    #expect(await changes.next() == second.uniqueName)
    #expect(try await second.releaseName(name) == .released)
    // `first` asked not to be queued, so losing the name to `second` dropped it for good.
    #expect(await changes.next() == nil as BusName?)
    #expect(tracker.owner == nil)
  }

  @Test func theOwnerClosingItsConnectionClearsTheOwner() async throws {
    let bus = try BusDaemon()
    let watcher = try Connection(.address(bus.address))
    let name = try BusName("org.example.Closing")
    let tracker = try await NameOwnerTracker.track(name, on: watcher)
    var changes = tracker.ownerChanges().makeAsyncIterator()
    do {
      let owner = try Connection(.address(bus.address))
      _ = try await owner.requestName(name)
      #expect(await changes.next() == owner.uniqueName)
      owner.close()
    }
    #expect(await changes.next() == nil as BusName?)
  }

  @Test func waitingForAnOwnerReturnsItOrNilAfterTheTimeout() async throws {
    let bus = try BusDaemon()
    let watcher = try Connection(.address(bus.address))
    let owner = try Connection(.address(bus.address))
    let name = try BusName("org.example.Later")
    let tracker = try await NameOwnerTracker.track(name, on: watcher)
    #expect(await tracker.waitForOwner(timeout: .milliseconds(100)) == nil)
    async let found = tracker.waitForOwner(timeout: HangBound.wait)
    _ = try await owner.requestName(name)
    #expect(await found == owner.uniqueName)
  }
}
