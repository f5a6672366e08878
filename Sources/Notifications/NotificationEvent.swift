public import DBus

/// Something the notification server reported about a notification.
public enum NotificationEvent: Sendable, Hashable {
  /// `ActionInvoked`: the user chose the action with this key (`default` for the notification itself).
  case action(id: UInt32, key: String)
  /// `NotificationClosed`.
  case closed(id: UInt32, reason: CloseReason)
  /// `ActivationToken` (spec 1.3): sent just before `ActionInvoked`, for the
  /// program the action starts (`XDG_ACTIVATION_TOKEN`, `DESKTOP_STARTUP_ID`).
  case activationToken(id: UInt32, token: String)
  /// KDE's `NotificationReplied`: the text typed into the inline reply field.
  case replied(id: UInt32, text: String)

  /// The server id of the notification the event is about.
  public var id: UInt32 {
    switch self {
    case .action(let id, _), .closed(let id, _), .activationToken(let id, _), .replied(let id, _):
      id
    }
  }

  /// Reads one of the four signals; `nil` for any other message or arguments of the wrong types.
  public init?(message: Message) {
    guard message.interface == NotificationsInterface.name else { return nil }
    switch message.member {
    case ActionInvokedSignal.member:
      guard let signal = try? ActionInvokedSignal(message: message) else { return nil }
      self = .action(id: signal.id, key: signal.key)
    case NotificationClosedSignal.member:
      guard let signal = try? NotificationClosedSignal(message: message) else { return nil }
      self = .closed(id: signal.id, reason: signal.reason)
    case ActivationTokenSignal.member:
      guard let signal = try? ActivationTokenSignal(message: message) else { return nil }
      self = .activationToken(id: signal.id, token: signal.token)
    case NotificationRepliedSignal.member:
      guard let signal = try? NotificationRepliedSignal(message: message) else { return nil }
      self = .replied(id: signal.id, text: signal.text)
    default:
      return nil
    }
  }
}

/// Why a notification was closed (the `reason` of `NotificationClosed`).
public enum CloseReason: UInt32, Sendable, Hashable, CaseIterable {
  /// 1: it expired.
  case expired = 1
  /// 2: the user dismissed it.
  case dismissed = 2
  /// 3: a `CloseNotification` call closed it.
  case closed = 3
  /// 4, or any code the specification does not define.
  case undefined = 4

  /// The reason for a code; unknown codes are `undefined`.
  public init(code: UInt32) {
    self = CloseReason(rawValue: code) ?? .undefined
  }

  /// `expired`, `dismissed`, `closed` or `undefined`: what `notify --wait` prints.
  public var name: String {
    switch self {
    case .expired: "expired"
    case .dismissed: "dismissed"
    case .closed: "closed"
    case .undefined: "undefined"
    }
  }

  /// The reason with this name, or `nil`.
  public init?(name: String) {
    guard let match = CloseReason.allCases.first(where: { $0.name == name }) else { return nil }
    self = match
  }
}

/// `org.freedesktop.Notifications.ActionInvoked(u id, s action_key)`.
public struct ActionInvokedSignal: DBusSignal, Hashable {
  public static var interface: InterfaceName { NotificationsInterface.name }
  public static var member: MemberName { NotificationsInterface.actionInvoked.name }
  public var id: UInt32
  public var key: String

  public init(message: Message) throws(DBusError) {
    (id, key) = try NotificationsInterface.actionInvoked.decode(message)
  }
}

/// `org.freedesktop.Notifications.NotificationClosed(u id, u reason)`.
public struct NotificationClosedSignal: DBusSignal, Hashable {
  public static var interface: InterfaceName { NotificationsInterface.name }
  public static var member: MemberName { NotificationsInterface.notificationClosed.name }
  public var id: UInt32
  public var reason: CloseReason

  public init(message: Message) throws(DBusError) {
    let (id, code) = try NotificationsInterface.notificationClosed.decode(message)
    self.id = id
    reason = CloseReason(code: code)
  }
}

/// `org.freedesktop.Notifications.ActivationToken(u id, s activation_token)` (spec 1.3).
public struct ActivationTokenSignal: DBusSignal, Hashable {
  public static var interface: InterfaceName { NotificationsInterface.name }
  public static var member: MemberName { NotificationsInterface.activationToken.name }
  public var id: UInt32
  public var token: String

  public init(message: Message) throws(DBusError) {
    (id, token) = try NotificationsInterface.activationToken.decode(message)
  }
}

/// KDE's `org.freedesktop.Notifications.NotificationReplied(u id, s text)`.
public struct NotificationRepliedSignal: DBusSignal, Hashable {
  public static var interface: InterfaceName { NotificationsInterface.name }
  public static var member: MemberName { NotificationsInterface.notificationReplied.name }
  public var id: UInt32
  public var text: String

  public init(message: Message) throws(DBusError) {
    (id, text) = try NotificationsInterface.notificationReplied.decode(message)
  }
}
