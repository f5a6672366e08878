import DBus
import JSON
import ShieldBridge
import TestSupport

/// A connection of its own that looks at the service from outside, as any
/// client on the bus could: who owns its name, and every `Dispatched` record.
final class ServiceWatcher: Sendable {
  let connection: Connection
  /// Follows the owner of `org.shieldbridge.ShieldBridge`.
  let owner: NameOwnerTracker
  /// Every `Dispatched` record, parsed, in the order the bus delivered them.
  let dispatched = EventLog<JSONValue>()
  /// Every `GlanceChanged` glance, parsed, in the order the bus delivered them.
  let glances = EventLog<JSONValue>()
  private let collector: Task<Void, Never>
  private let glanceCollector: Task<Void, Never>

  /// Connects to the bus at `address` and starts watching; returns once both are in place.
  init(address: String) async throws {
    connection = try Connection(.address(address))
    owner = try await NameOwnerTracker.track(ServiceNames.busName, on: connection)
    collector = try await Self.collect(ServiceInterface.dispatched.name, on: connection, into: dispatched)
    glanceCollector = try await Self.collect(ServiceInterface.glanceChanged.name, on: connection, into: glances)
  }

  /// Parses the JSON string of every `member` signal of the service's interface into `log`.
  private static func collect(
    _ member: MemberName, on connection: Connection, into log: EventLog<JSONValue>
  ) async throws -> Task<Void, Never> {
    let signals = try await connection.signals(matching: MatchRule(interface: ServiceInterface.name, member: member))
    return Task {
      for await message in signals {
        if let text = try? message.decode(String.self), let value = try? JSONValue(parsing: text) { log.append(value) }
      }
    }
  }

  deinit {
    collector.cancel()
    glanceCollector.cancel()
  }

  /// Calls one of the service's methods, as a client would.
  func call(_ member: MemberName, _ argument: String? = nil) async throws -> Message {
    let message = try Message.methodCall(
      destination: ServiceNames.busName, path: ServiceNames.path, interface: ServiceInterface.name, member: member)
    if let argument { try message.append(argument) }
    return try await connection.call(message, timeout: HangBound.answer)
  }

  /// The next `Dispatched` record after position `after`.
  func record(after: Int, _ what: String = "a dispatch") async throws -> JSONValue {
    try await dispatched.first(what, after: after)
  }
}

extension JSONValue {
  /// The `outcome` of a dispatch record.
  var outcome: String? { self["outcome"]?.stringValue }
}
