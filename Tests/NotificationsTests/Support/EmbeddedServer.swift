import DBus
import Notifications
import TestSupport

/// A private bus with ShieldBridge's embedded notification server on it.
final class EmbeddedServer: Sendable {
  let bus: BusDaemon
  let server: NotificationServer

  init(
    capabilities: [Capability] = NotificationServer.Configuration.defaultCapabilities,
    recordPath: String? = nil,
    retainedLimit: Int = 1000,
    answersZeroIDs: Bool = false
  ) async throws {
    bus = try BusDaemon()
    server = try await EmbeddedServer.startServer(
      on: bus, capabilities: capabilities, recordPath: recordPath, retainedLimit: retainedLimit,
      answersZeroIDs: answersZeroIDs)
  }

  /// Starts another server on the same bus (after the first was stopped).
  static func startServer(
    on bus: BusDaemon,
    capabilities: [Capability] = NotificationServer.Configuration.defaultCapabilities,
    recordPath: String? = nil, retainedLimit: Int = 1000, answersZeroIDs: Bool = false
  ) async throws -> NotificationServer {
    let connection = try Connection(.address(bus.address))
    let server = try NotificationServer(
      connection: connection,
      configuration: .init(
        capabilities: capabilities, recordPath: recordPath, retainedLimit: retainedLimit,
        answersZeroIDs: answersZeroIDs))
    try await server.start()
    return server
  }

  /// A client on the same bus.
  func client(store: any NotificationIDStore = MemoryIDStore(), timeout: Duration = HangBound.answer)
    async throws
    -> NotificationClient
  {
    try await NotificationClient.connect(to: .address(bus.address), timeout: timeout, store: store)
  }

  /// A plain connection on the same bus.
  func connection() throws -> Connection {
    try Connection(.address(bus.address))
  }
}
