import DBus

/// `org.shieldbridge.KWinScript1`, declared once: the callbacks our KWin
/// scripts make with `callDBus`. ``KWinDesktop`` exports it, and
/// ``KWinScript`` writes the scripts' calls from the same names.
///
/// The force unwraps cannot fail for these literals and no input reaches them.
enum KWinScriptInterface {
  static let name = InterfaceName(rawValue: "org.shieldbridge.KWinScript1")!

  /// `Activated(s resourceClass, s resourceName, s desktopFileName, i pid, s internalId)`:
  /// the window in front; an empty `internalId` when none is.
  static let activated = MethodContract<(String, String, String, Int32, String) -> Void>(
    name, "Activated", inputs: ["resourceClass", "resourceName", "desktopFileName", "pid", "internalId"])!
  /// `Windows(s request, s windows) → s chosen`: a one-shot script's window list (JSON);
  /// the answer names the ids to act on, separated by spaces.
  static let windows = MethodContract<(String, String) -> String>(
    name, "Windows", inputs: ["request", "windows"], outputs: ["chosen"])!
  /// `Done(s request, i acted)`: how many windows the one-shot script hid or closed.
  static let done = MethodContract<(String, Int32) -> Void>(name, "Done", inputs: ["request", "acted"])!

  static let contract = InterfaceContract(
    name, methods: [activated.declaration, windows.declaration, done.declaration])
}
