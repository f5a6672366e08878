public import DBus

/// A connection of its own that sends what the bus daemon or the notification
/// server would send, as any program on the bus can: each signal unicast to a
/// target and broadcast.
///
/// The bus stamps every signal with the spoofer's unique name; a listener that
/// checks the sender ignores them, one that does not is fooled.
public struct SignalSpoofer: Sendable {
  public let connection: Connection
  private static let notifications = "org.freedesktop.Notifications"

  /// Connects to the bus at `address`.
  public init(address: String) throws {
    connection = try Connection(.address(address))
  }

  /// The spoofer's unique name.
  public var uniqueName: BusName { connection.uniqueName }

  /// `NameOwnerChanged` for `org.freedesktop.Notifications`, as the bus daemon would emit it.
  public func nameOwnerChanged(to target: BusName?, oldOwner: BusName?, newOwner: BusName?) throws {
    for destination in [target, nil] {
      try connection.emit(
        BusInterface.nameOwnerChanged, path: .bus, destination: destination, Self.notifications,
        oldOwner?.rawValue ?? "", newOwner?.rawValue ?? "")
    }
  }

  /// Every signal a notification server sends about notification `id`:
  /// a token, a click on `default`, an inline reply with `reply`, and a close.
  public func everyEvent(about id: UInt32, reply: String = "spoofed reply", to target: BusName?) throws {
    for destination in [target, nil] {
      try notificationSignal("ActivationToken", to: destination, id, "spoofed-token")
      try notificationSignal("ActionInvoked", to: destination, id, "default")
      try notificationSignal("NotificationReplied", to: destination, id, reply)
      // Reason 4, undefined.
      try notificationSignal("NotificationClosed", to: destination, id, UInt32(4))
    }
  }

  /// One signal of the notification interface, from `/org/freedesktop/Notifications`.
  public func notificationSignal<each A: DBusArgument>(
    _ member: String, to destination: BusName?, _ arguments: repeat each A
  ) throws {
    try connection.emit(
      path: try ObjectPath("/org/freedesktop/Notifications"), interface: try InterfaceName(Self.notifications),
      member: try MemberName(member), destination: destination, repeat each arguments)
  }

  /// Returns once the bus has routed everything sent before: a round trip through it.
  public func barrier() async throws {
    _ = try await connection.nameOwner(.bus)
  }
}
