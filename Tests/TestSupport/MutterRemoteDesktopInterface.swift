public import DBus

/// `org.gnome.Mutter.RemoteDesktop` at `/org/gnome/Mutter/RemoteDesktop`, declared once:
/// how the GNOME sessions of the tests press keys and move the pointer (``GnomeShellSession/send(_:)``).
///
/// Only tests call it, so it is declared here and not in `Desktop`; the GNOME
/// tests hold it to what the real shell introspects.
///
/// The force unwraps cannot fail for these literals and no input reaches them.
public enum MutterRemoteDesktopInterface {
  public static let busName = BusName(rawValue: "org.gnome.Mutter.RemoteDesktop")!
  public static let path = ObjectPath(rawValue: "/org/gnome/Mutter/RemoteDesktop")!
  public static let name = InterfaceName(rawValue: "org.gnome.Mutter.RemoteDesktop")!

  /// `CreateSession() → o session_path`: a session object of ``MutterRemoteDesktopSessionInterface``.
  public static let createSession = MethodContract<() -> ObjectPath>(
    name, "CreateSession", outputs: ["session_path"])!

  public static let contract = InterfaceContract(name, methods: [createSession.declaration])
}

/// `org.gnome.Mutter.RemoteDesktop.Session`, declared once: one remote-desktop session's input.
///
/// The force unwraps cannot fail for these literals and no input reaches them.
public enum MutterRemoteDesktopSessionInterface {
  public static let name = InterfaceName(rawValue: "org.gnome.Mutter.RemoteDesktop.Session")!

  /// `Start()`: the session takes input from now on.
  public static let start = MethodContract<() -> Void>(name, "Start")!
  /// `NotifyKeyboardKeysym(u keysym, b state)`: a key by its X11 keysym, pressed (true) or released.
  public static let notifyKeyboardKeysym = MethodContract<(UInt32, Bool) -> Void>(
    name, "NotifyKeyboardKeysym", inputs: ["keysym", "state"])!
  /// `NotifyPointerMotionRelative(d dx, d dy)`.
  public static let notifyPointerMotionRelative = MethodContract<(Double, Double) -> Void>(
    name, "NotifyPointerMotionRelative", inputs: ["dx", "dy"])!
  /// `NotifyPointerButton(i button, b state)`: a button by its evdev code, pressed (true) or released.
  public static let notifyPointerButton = MethodContract<(Int32, Bool) -> Void>(
    name, "NotifyPointerButton", inputs: ["button", "state"])!

  public static let contract = InterfaceContract(
    name,
    methods: [
      start.declaration, notifyKeyboardKeysym.declaration, notifyPointerMotionRelative.declaration,
      notifyPointerButton.declaration,
    ])
}
