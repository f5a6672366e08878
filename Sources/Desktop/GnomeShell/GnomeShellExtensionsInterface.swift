public import DBus

/// `org.gnome.Shell.Extensions` at `/org/gnome/Shell` of `org.gnome.Shell`, declared
/// once: GNOME Shell's extension manager, which tells whether our extension is
/// installed, enabled and running.
///
/// The helper service of the same name (which `gnome-extensions` starts)
/// serves this interface too, at `/org/gnome/Shell/Extensions`, and re-emits
/// the shell's signal from there; the backend listens at the shell's path only.
///
/// The force unwraps cannot fail for these literals and no input reaches them.
public enum GnomeShellExtensionsInterface {
  /// `org.gnome.Shell`: the shell's own connection.
  public static let busName = BusName(rawValue: "org.gnome.Shell")!
  /// `/org/gnome/Shell`.
  public static let path = ObjectPath(rawValue: "/org/gnome/Shell")!
  public static let name = InterfaceName(rawValue: "org.gnome.Shell.Extensions")!

  /// `GetExtensionInfo(s uuid) → a{sv} info`: empty for an extension the shell does not know.
  public static let getExtensionInfo = MethodContract<(String) -> [String: Variant]>(
    name, "GetExtensionInfo", inputs: ["uuid"], outputs: ["info"])!

  /// `ExtensionStateChanged(s uuid, a{sv} state)`.
  public static let extensionStateChanged = SignalContract<String, [String: Variant]>(
    name, "ExtensionStateChanged", arguments: ["uuid", "state"])!

  public static let contract = InterfaceContract(
    name, methods: [getExtensionInfo.declaration], signals: [extensionStateChanged.declaration])
}
