import DBus
import Testing

/// `NameOwnerChanged` as the bus daemon emits it, but sent by whoever calls this.
private func forgeNameOwnerChanged(
  from spoofer: Connection, to destination: BusName?, name: BusName, oldOwner: String, newOwner: String
) throws {
  try spoofer.emit(
    BusInterface.nameOwnerChanged, path: .bus, destination: destination, name.rawValue, oldOwner, newOwner)
}

@Suite("Signals that claim to come from the bus or a well-known name are checked against their sender")
struct ForgedSignalTests {
  let bus: BusDaemon
  let name = try! BusName("org.example.Forged")

  init() throws {
    bus = try BusDaemon()
  }

  @Test func aForgedNameOwnerChangedFromAThirdConnectionLeavesTheTrackedOwnerAlone() async throws {
    let owner = try Connection(.address(bus.address))
    let spoofer = try Connection(.address(bus.address))
    let watcher = try Connection(.address(bus.address))
    #expect(try await owner.requestName(name, flags: [.allowReplacement]) == .primaryOwner)
    let tracker = try await NameOwnerTracker.track(name, on: watcher)
    let genuine = owner.uniqueName
    #expect(tracker.owner == genuine)
    var changes = tracker.ownerChanges().makeAsyncIterator()

    let spooferName = spoofer.uniqueName
    for destination in [watcher.uniqueName, nil] {
      // "The name was released", and "the spoofer owns it now".
      try forgeNameOwnerChanged(
        from: spoofer, to: destination, name: name, oldOwner: genuine.rawValue, newOwner: "")
      try forgeNameOwnerChanged(
        from: spoofer, to: destination, name: name, oldOwner: genuine.rawValue, newOwner: spooferName.rawValue)
    }
    // A real change of owner after the forged ones: the first change the tracker reports must be this one.
    let successor = try Connection(.address(bus.address))
    #expect(try await successor.requestName(name, flags: [.replaceExisting]) == .primaryOwner)
    #expect(await changes.next() == successor.uniqueName)
    #expect(tracker.owner == successor.uniqueName)
  }

  @Test func aStreamOfTheBussOwnSignalsIgnoresTheSameSignalFromAThirdConnection() async throws {
    let spoofer = try Connection(.address(bus.address))
    let watcher = try Connection(.address(bus.address))
    let rule = BusInterface.nameOwnerChanged.rule(sender: .bus, arguments: [0: name.rawValue])
    let stream = try await watcher.signals(matching: rule)
    try forgeNameOwnerChanged(from: spoofer, to: watcher.uniqueName, name: name, oldOwner: "", newOwner: ":1.999")
    try forgeNameOwnerChanged(from: spoofer, to: nil, name: name, oldOwner: "", newOwner: ":1.999")
    let owner = try Connection(.address(bus.address))
    _ = try await owner.requestName(name)
    var iterator = stream.makeAsyncIterator()
    let first = try #require(await iterator.next())
    #expect(first.sender == .bus)
    #expect(try first.decode(String.self, String.self, String.self).2 == owner.uniqueName.rawValue)
  }

  @Test func aRuleWithAWellKnownSenderNeedsTheTrackerOfThatName() async throws {
    let watcher = try Connection(.address(bus.address))
    let rule = MatchRule(sender: name, member: try MemberName("Ping"))
    let unchecked = await #expect(throws: DBusError.self) {
      _ = try await watcher.signals(matching: rule)
    }
    #expect(unchecked?.is(.invalidArgs) == true)
    let other = try await NameOwnerTracker.track(try BusName("org.example.Other"), on: watcher)
    let mismatched = await #expect(throws: DBusError.self) {
      _ = try await watcher.signals(matching: rule, from: other)
    }
    #expect(mismatched?.is(.invalidArgs) == true)
    let tracker = try await NameOwnerTracker.track(name, on: watcher)
    _ = try await watcher.signals(matching: rule, from: tracker)
  }

  @Test func aForgedLocalDisconnectedLeavesTheConnectionOpen() async throws {
    let spoofer = try Connection(.address(bus.address))
    let listener = try Connection(.address(bus.address))
    // libdbus makes this signal itself when the socket closes; from a peer it must change nothing.
    for path in [try ObjectPath("/org/freedesktop/DBus/Local"), try ObjectPath("/org/example/Forged")] {
      try? spoofer.emit(
        path: path, interface: .local, member: try MemberName("Disconnected"), destination: listener.uniqueName)
    }
    _ = try? await spoofer.nameOwner(.bus)
    // A round trip of the listener's own, after anything forged was delivered to it.
    #expect(try await listener.nameOwner(.bus) == .bus)
    #expect(listener.isConnected)
  }
}
