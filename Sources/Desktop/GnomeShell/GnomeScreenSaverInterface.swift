public import DBus

/// `org.gnome.ScreenSaver` at `/org/gnome/ScreenSaver`, declared once: GNOME Shell's
/// screen shield (the lock screen) as the GNOME Shell backend calls it.
///
/// The freedesktop `org.freedesktop.ScreenSaver` is not called: its idle
/// inhibitors are kept by the desktop, and no backend sees them (docs/using/meter.md).
///
/// The force unwraps cannot fail for these literals and no input reaches them.
public enum GnomeScreenSaverInterface {
  /// `org.gnome.ScreenSaver`, owned by GNOME Shell's connection.
  public static let busName = BusName(rawValue: "org.gnome.ScreenSaver")!
  /// `/org/gnome/ScreenSaver`.
  public static let path = ObjectPath(rawValue: "/org/gnome/ScreenSaver")!
  public static let name = InterfaceName(rawValue: "org.gnome.ScreenSaver")!

  /// `GetActive() → b active`: whether the screen is locked.
  public static let getActive = MethodContract<() -> Bool>(name, "GetActive", outputs: ["active"])!

  /// `ActiveChanged(b new_value)`: the screen was locked (true) or unlocked.
  public static let activeChanged = SignalContract<Bool>(name, "ActiveChanged", arguments: ["new_value"])!

  public static let contract = InterfaceContract(
    name, methods: [getActive.declaration], signals: [activeChanged.declaration])
}
