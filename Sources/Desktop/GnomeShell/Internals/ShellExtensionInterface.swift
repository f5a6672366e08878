import DBus

/// `org.shieldbridge.ShellExtension1`, declared once on this side: our GNOME
/// Shell extension (integrations/gnome-shell/core.js) exports it on the
/// shell's connection and the backend calls it from this declaration; a test
/// holds the extension's introspection XML to it.
///
/// The force unwraps cannot fail for these literals and no input reaches them.
enum ShellExtensionInterface {
  static let name = InterfaceName(rawValue: "org.shieldbridge.ShellExtension1")!

  /// `Watch() → (u version, a{sv} focus)`: follows focus for the caller; answers the
  /// contract version (``ShellNames/contractVersion``) and the window in front.
  static let watch = MethodContract<() -> (UInt32, [String: Variant])>(
    name, "Watch", outputs: ["version", "focus"])!
  /// `Unwatch()`: stops following focus for the caller.
  static let unwatch = MethodContract<() -> Void>(name, "Unwatch")!
  /// `ListWindows() → aa{sv} windows`: every normal window, never its title.
  static let listWindows = MethodContract<() -> [[String: Variant]]>(name, "ListWindows", outputs: ["windows"])!
  /// `Hide(at ids) → at hidden`: minimizes these windows; answers those it minimized.
  static let hide = MethodContract<([UInt64]) -> [UInt64]>(name, "Hide", inputs: ["ids"], outputs: ["hidden"])!
  /// `Close(at ids) → at closed`: closes these windows; answers those it closed.
  static let close = MethodContract<([UInt64]) -> [UInt64]>(name, "Close", inputs: ["ids"], outputs: ["closed"])!

  /// `FocusChanged(a{sv} focus)`: sent to each watcher alone.
  static let focusChanged = SignalContract<[String: Variant]>(name, "FocusChanged", arguments: ["focus"])!

  static let contract = InterfaceContract(
    name,
    methods: [watch.declaration, unwatch.declaration, listWindows.declaration, hide.declaration, close.declaration],
    signals: [focusChanged.declaration])
}
