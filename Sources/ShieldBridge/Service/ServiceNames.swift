public import DBus

/// The names under which the ShieldBridge service is reached on the session bus;
/// its interface is ``ServiceInterface``.
///
/// They are fixed strings checked once here; the force unwraps cannot fail for
/// these literals and no input reaches them.
public enum ServiceNames {
  /// `org.shieldbridge.ShieldBridge`: the well-known name `serve` owns.
  public static let busName = BusName(rawValue: "org.shieldbridge.ShieldBridge")!
  /// `/org/shieldbridge/ShieldBridge1`.
  public static let path = ObjectPath(rawValue: "/org/shieldbridge/ShieldBridge1")!
  /// The service's own D-Bus error names.
  public enum Error {
    /// A link that does not parse or resolve; the message carries the code and the offset.
    public static let badLink = "org.shieldbridge.ShieldBridge1.Error.BadLink"
    /// No rule covers the app (or no app was named and several rules exist).
    public static let notCovered = "org.shieldbridge.ShieldBridge1.Error.NotCovered"
    /// The ledger could not be read or written.
    public static let state = "org.shieldbridge.ShieldBridge1.Error.State"
    /// No notification server, or it failed.
    public static let notifications = "org.shieldbridge.ShieldBridge1.Error.Notifications"
    /// The service is stopping: it takes no new `Shield` or `Open` call.
    public static let stopping = "org.shieldbridge.ShieldBridge1.Error.Stopping"
  }
}
