import DBus
import JSON
import ShieldBridge
import TestSupport
import Testing

@Suite("shieldbridge native-host ignores the service's signals from any other connection")
struct NativeHostForgedSignalTests {
  @Test("LimitReached and Unlocked from a third connection make the host push no state")
  func forgedSignalsPushNoState() async throws {
    let harness = try await SiteHarness()
    let host = try harness.host()
    try host.focus("instagram.com")
    _ = try await host.state("instagram.com")
    let hostName = try await harness.uniqueName(ofProcess: host.process.pid)

    // The service's two signals, with the service's path and interface, unicast to the host and broadcast.
    let spoofer = try SignalSpoofer(address: harness.bus.address)
    let mark = host.received.count
    for destination in [hostName, nil] {
      try spoofer.connection.emit(
        path: ServiceNames.path, interface: ServiceInterface.name, member: ServiceInterface.limitReached.name,
        destination: destination, "social", "Instagram")
      try spoofer.connection.emit(
        path: ServiceNames.path, interface: ServiceInterface.name, member: ServiceInterface.unlocked.name,
        destination: destination, "social", UInt32(5))
    }
    try await spoofer.barrier()

    // The bus routed the forged signals first, so the host reads them before
    // the reply to the next SiteFocus; had it taken them, it would ask again
    // for example.org and push a second state before youtube.com's.
    try host.focus("example.org")
    _ = try await host.state("example.org", after: mark)
    try host.focus("youtube.com")
    _ = try await host.state("youtube.com", after: mark)
    let states = host.received.events[mark...].filter { $0["type"] == "state" }
    #expect(states.compactMap { $0["site"]?.stringValue } == ["example.org", "youtube.com"], "\(states)")
    #expect(!host.standardError.contains("error"), "\(host.standardError)")
    try host.closeInput()
    #expect(await host.exitStatus() == 0)
  }
}

extension SiteHarness {
  /// The unique name of the connection that process `pid` holds on this bus.
  func uniqueName(ofProcess pid: Int32) async throws -> BusName {
    let connection = try Connection(.address(bus.address))
    defer { connection.close() }
    return try await poll("a connection of process \(pid) on the bus") {
      let all = try await connection.call(BusInterface.listNames, destination: .bus, path: .bus, timeout: .seconds(10))
      for name in all where name.hasPrefix(":") {
        guard let busName = BusName(rawValue: name),
          let owner = try? await connection.call(
            BusInterface.getConnectionUnixProcessID, destination: .bus, path: .bus, name, timeout: .seconds(10)),
          Int32(bitPattern: owner) == pid
        else { continue }
        return busName
      }
      return nil
    }
  }
}
