public import DBus

/// The bus name and path of the notification service; its interfaces are
/// ``NotificationsInterface`` and, on the embedded server, ``NotificationServerInterface``.
///
/// They are fixed strings checked once here; the force unwraps cannot fail for
/// these literals and no input reaches them.
public enum NotificationsNames {
  /// `org.freedesktop.Notifications`: the name the server owns.
  public static let busName = BusName(rawValue: "org.freedesktop.Notifications")!
  public static let path = ObjectPath(rawValue: "/org/freedesktop/Notifications")!
}
