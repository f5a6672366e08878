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
    let records = try await connection.signals(
      matching: MatchRule(interface: ServiceInterface.name, member: ServiceInterface.dispatched.name))
    let dispatched = self.dispatched
    collector = Task {
      for await message in records {
        if let text = try? message.decode(String.self), let record = try? JSONValue(parsing: text) {
          dispatched.append(record)
        }
      }
    }
    let changes = try await connection.signals(
      matching: MatchRule(interface: ServiceInterface.name, member: ServiceInterface.glanceChanged.name))
    let glances = self.glances
    glanceCollector = Task {
      for await message in changes {
        if let text = try? message.decode(String.self), let glance = try? JSONValue(parsing: text) {
          glances.append(glance)
        }
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
