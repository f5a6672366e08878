import DBus

/// The D-Bus names of ShieldBridge's shell extension that the GNOME Shell backend
/// uses (docs/reference/gnome-shell.md describes the extension's side). The shell's and
/// Mutter's interfaces are declared with their names in ``GnomeShellExtensionsInterface``,
/// ``MutterIdleMonitorInterface`` and ``GnomeScreenSaverInterface``.
///
/// They are fixed strings checked once here; the force unwraps cannot fail for
/// these literals and no input reaches them.
enum ShellNames {
  /// The extension's UUID: its folder under `gnome-shell/extensions/` and its
  /// entry in `org.gnome.shell enabled-extensions`.
  static let uuid = "shieldbridge@shieldbridge.org"

  /// `org.gnome.Shell`: owned by the shell's own connection, which also serves the extension's object.
  static let shell = GnomeShellExtensionsInterface.busName
  /// `/org/shieldbridge/ShellExtension`: the object the extension exports on the shell's
  /// connection, with ``ShellExtensionInterface``.
  static let extensionPath = ObjectPath(rawValue: "/org/shieldbridge/ShellExtension")!
  /// The contract version the extension's `Watch` answers; an older or newer one is refused.
  static let contractVersion: UInt32 = 1
}
