public import DBus

/// `org.kde.kwin.Scripting` at `/Scripting` of `org.kde.KWin`, declared once: the
/// methods of KWin's script loader that ``KWinDesktop`` calls (KWin 5.27 and 6 alike).
///
/// KWin's Qt adaptor exports `loadScript` twice, with and without the plugin name;
/// we call the one with it. We call no script object (`org.kde.kwin.Script` at
/// `/<id>` in 5.27): `start` runs what was loaded, and `unloadScript` by plugin
/// name ends it. KWin answers a refusal in the reply (`loadScript` → -1,
/// `unloadScript` → false), never with an error name of its own, so the
/// errors a call meets are the bus's (``DBusError/Name``).
///
/// The force unwraps cannot fail for these literals and no input reaches them.
public enum KWinScriptingInterface {
  /// `org.kde.KWin`: KWin's name on the session bus.
  public static let busName = BusName(rawValue: "org.kde.KWin")!
  /// `/Scripting`.
  public static let path = ObjectPath(rawValue: "/Scripting")!
  public static let name = InterfaceName(rawValue: "org.kde.kwin.Scripting")!

  /// `loadScript(s filePath, s pluginName) → i id`: -1 when KWin refuses the script or has the name already.
  public static let loadScript = MethodContract<(String, String) -> Int32>(
    name, "loadScript", inputs: ["filePath", "pluginName"], outputs: ["id"])!
  /// `start()`: runs the scripts loaded and not yet running.
  public static let start = MethodContract<() -> Void>(name, "start")!
  /// `isScriptLoaded(s pluginName) → b loaded`.
  public static let isScriptLoaded = MethodContract<(String) -> Bool>(
    name, "isScriptLoaded", inputs: ["pluginName"], outputs: ["loaded"])!
  /// `unloadScript(s pluginName) → b unloaded`: false when no script has that name.
  public static let unloadScript = MethodContract<(String) -> Bool>(
    name, "unloadScript", inputs: ["pluginName"], outputs: ["unloaded"])!

  public static let contract = InterfaceContract(
    name,
    methods: [loadScript.declaration, start.declaration, isScriptLoaded.declaration, unloadScript.declaration])
}
