public import DBus

/// The bus names, paths, interfaces and members of the notification service.
///
/// They are fixed strings checked once here; the force unwraps cannot fail for
/// these literals and no input reaches them.
public enum NotificationsNames {
  /// `org.freedesktop.Notifications`: the name the server owns, and its interface.
  public static let busName = BusName(rawValue: "org.freedesktop.Notifications")!
  public static let path = ObjectPath(rawValue: "/org/freedesktop/Notifications")!
  public static let interface = InterfaceName(rawValue: "org.freedesktop.Notifications")!
  /// The embedded server's control interface, beside the standard one.
  public static let controlInterface = InterfaceName(
    rawValue: "org.shieldbridge.NotificationServer1")!

  static let notify = MemberName(rawValue: "Notify")!
  static let closeNotification = MemberName(rawValue: "CloseNotification")!
  static let getCapabilities = MemberName(rawValue: "GetCapabilities")!
  static let getServerInformation = MemberName(rawValue: "GetServerInformation")!
  static let actionInvoked = MemberName(rawValue: "ActionInvoked")!
  static let notificationClosed = MemberName(rawValue: "NotificationClosed")!
  static let activationToken = MemberName(rawValue: "ActivationToken")!
  static let notificationReplied = MemberName(rawValue: "NotificationReplied")!
}
