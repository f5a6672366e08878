import DBus
import Foundation
import JSON
import Posix
import TestSupport
import Testing

@testable import ShieldBridge

/// `SiteFocus(site, pid, focused)` from `connection`, as a forger on the bus calls it.
private func siteFocus(_ connection: Connection, _ site: String, pid: Int32) async throws -> JSONValue {
  let state = try await connection.call(
    ServiceInterface.siteFocus, destination: ServiceNames.busName, path: ServiceNames.path, site, UInt32(pid), true,
    timeout: .seconds(30))
  return try JSONValue(parsing: state)
}

/// Whether `error` is the service's refusal of a caller that is no browser's host.
private func isAccessDenied(_ error: any Error) -> Bool {
  (error as? DBusError)?.name == DBusError.Name.accessDenied.rawValue
}

@Suite("SiteFocus only from a browser's own host, with serve started by D-Bus activation")
struct SiteCallerTrustTests {
  @Test("The host a stand-in browser started is accepted; a forger naming that browser is refused, and said so")
  func aForgerIsRefused() async throws {
    let harness = try await SiteHarness()
    let environment = harness.sandbox.serviceEnvironment(address: harness.bus.address)
    let host = try NativeHostProcess(environment: environment, browser: "wait")
    try host.send(json(["type": "hello", "version": 1, "language": "en-US"]))
    try host.focus("instagram.com")
    #expect(try await host.state("instagram.com")["covered"] == true)

    // The test's own connection: the stand-in browser's parent, not its child.
    let forger = try Connection(.address(harness.bus.address))
    defer { forger.close() }
    let refusedPIDs: [Int32] = [host.process.pid, CurrentProcess.id, 1]
    for pid in refusedPIDs {
      await #expect(performing: { _ = try await siteFocus(forger, "instagram.com", pid: pid) }, throws: isAccessDenied)
    }
    _ = try await poll("the refusal in the service's log") {
      harness.serviceLog.contains("refused SiteFocus from") ? true : nil
    }
    // The error says why.
    do {
      _ = try await siteFocus(forger, "example.org", pid: host.process.pid)
      Issue.record("a forger's SiteFocus was answered")
    } catch let error as DBusError {
      #expect(error.message.contains("was not started by process \(host.process.pid)"))
    }
    // The host's site still stands: a state with the site covered for a new focus.
    let after = host.received.count
    try host.focus("www.instagram.com")
    #expect(try await host.state("www.instagram.com", after: after)["covered"] == true)
    try host.closeInput()
    #expect(await host.exitStatus() == 0)
  }

  @Test("Refused callers take no place: after more forgers than places, a browser's host is still accepted")
  func forgersTakeNoPlace() async throws {
    let harness = try await SiteHarness()
    let environment = harness.sandbox.serviceEnvironment(address: harness.bus.address)
    let first = try NativeHostProcess(environment: environment, browser: "wait")
    try first.focus("example.org")
    _ = try await first.state("example.org")

    var forgers: [Connection] = []
    defer { for forger in forgers { forger.close() } }
    for _ in 0...ShieldService.siteCallersKept {
      let forger = try Connection(.address(harness.bus.address))
      forgers.append(forger)
      await #expect(
        performing: { _ = try await siteFocus(forger, "example.org", pid: first.process.pid) }, throws: isAccessDenied)
    }
    let second = try NativeHostProcess(environment: environment, browser: "wait")
    try second.focus("instagram.com")
    let state = try await second.state("instagram.com")
    #expect(state["covered"] == true)
    #expect(state["type"] == "state")
    for host in [first, second] { try host.closeInput() }
    for host in [first, second] { #expect(await host.exitStatus() == 0) }
  }
}
