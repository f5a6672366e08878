import DBus
import Synchronization
import TestSupport
import Testing

@Suite("watchDeparture tells once that a peer left the bus, and only the bus can tell it")
struct DepartureTests {
  let bus: BusDaemon

  init() throws {
    bus = try BusDaemon()
  }

  @Test func aPeerThatClosesIsToldOnceAndAForgedSignalIsNot() async throws {
    let watcher = try Connection(.address(bus.address))
    let peer = try Connection(.address(bus.address))
    let spoofer = try Connection(.address(bus.address))
    let calls = Calls()
    let subscription = try await watcher.watchDeparture(of: peer.uniqueName) { calls.add() }
    try spoofer.emit(
      BusInterface.nameOwnerChanged, path: .bus, destination: watcher.uniqueName, peer.uniqueName.rawValue,
      peer.uniqueName.rawValue, "")
    // A call on the watcher's connection comes back after the forged signal was dispatched.
    _ = try await watcher.nameOwner(.bus)
    #expect(calls.count == 0)
    peer.close()
    _ = try await poll("the departure") { calls.count == 1 ? true : nil }
    _ = try await watcher.nameOwner(.bus)
    #expect(calls.count == 1)
    subscription.cancel()
  }

  @Test func aPeerAlreadyGoneIsToldAtOnce() async throws {
    let watcher = try Connection(.address(bus.address))
    let peer = try Connection(.address(bus.address))
    let name = peer.uniqueName
    peer.close()
    _ = try await poll("the peer gone") { try await watcher.nameOwner(name) == nil ? true : nil }
    let calls = Calls()
    _ = try await watcher.watchDeparture(of: name) { calls.add() }
    #expect(calls.count == 1)
  }

  @Test func aWellKnownNameIsRefused() async throws {
    let watcher = try Connection(.address(bus.address))
    let error = await #expect(throws: DBusError.self) {
      _ = try await watcher.watchDeparture(of: try BusName("org.example.Service")) {}
    }
    #expect(error?.is(.invalidArgs) == true)
  }
}

/// How many times a departure was told.
private final class Calls: Sendable {
  private let value = Mutex(0)

  var count: Int { value.withLock { $0 } }

  func add() { value.withLock { $0 += 1 } }
}
