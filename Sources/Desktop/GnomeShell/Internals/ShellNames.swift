import DBus

/// The D-Bus names of GNOME Shell, Mutter and ShieldBridge's shell extension
/// that the GNOME Shell backend uses (docs/gnome-shell.md describes the extension's side).
///
/// They are fixed strings checked once here; the force unwraps cannot fail for
/// these literals and no input reaches them.
enum ShellNames {
  /// The extension's UUID: its folder under `gnome-shell/extensions/` and its
  /// entry in `org.gnome.shell enabled-extensions`.
  static let uuid = "shieldbridge@shieldbridge.org"

  /// `org.gnome.Shell`: owned by the shell's own connection, which also serves the extension's object.
  static let shell = BusName(rawValue: "org.gnome.Shell")!
  /// `/org/shieldbridge/ShellExtension`: the object the extension exports on the shell's
  /// connection, with ``ShellExtensionInterface``.
  static let extensionPath = ObjectPath(rawValue: "/org/shieldbridge/ShellExtension")!
  /// The contract version the extension's `Watch` answers; an older or newer one is refused.
  static let contractVersion: UInt32 = 1

  /// GNOME Shell's own extension manager, which tells whether ours is installed and enabled.
  static let shellPath = ObjectPath(rawValue: "/org/gnome/Shell")!
  static let extensionsInterface = InterfaceName(rawValue: "org.gnome.Shell.Extensions")!
  static let getExtensionInfo = MemberName(rawValue: "GetExtensionInfo")!
  static let extensionStateChanged = MemberName(rawValue: "ExtensionStateChanged")!

  /// Mutter's input idle monitor.
  static let idleMonitor = BusName(rawValue: "org.gnome.Mutter.IdleMonitor")!
  static let idleMonitorPath = ObjectPath(rawValue: "/org/gnome/Mutter/IdleMonitor/Core")!
  static let idleMonitorInterface = InterfaceName(rawValue: "org.gnome.Mutter.IdleMonitor")!
  static let getIdletime = MemberName(rawValue: "GetIdletime")!
  static let addIdleWatch = MemberName(rawValue: "AddIdleWatch")!
  static let addUserActiveWatch = MemberName(rawValue: "AddUserActiveWatch")!
  static let watchFired = MemberName(rawValue: "WatchFired")!

  /// The shell's screen shield (the lock screen).
  static let screenSaver = BusName(rawValue: "org.gnome.ScreenSaver")!
  static let screenSaverPath = ObjectPath(rawValue: "/org/gnome/ScreenSaver")!
  static let screenSaverInterface = InterfaceName(rawValue: "org.gnome.ScreenSaver")!
  static let getActive = MemberName(rawValue: "GetActive")!
  static let activeChanged = MemberName(rawValue: "ActiveChanged")!
}
