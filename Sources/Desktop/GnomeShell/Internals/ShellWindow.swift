import DBus
import Model

/// A window as the extension describes it (an `a{sv}` of `FocusChanged`,
/// `Watch` and `ListWindows`): its id, the names of its app, and whether it is minimized.
///
/// The keys are `id` (`t`, Mutter's `get_id()`), `wmClass`,
/// `wmClassInstance`, `gtkApplicationId`, `sandboxedAppId` (`s`), `pid`
/// (`i`), `wayland` and `minimized` (`b`). Unknown keys are ignored, so that
/// a newer extension can add some; a title is never among them.
struct ShellWindow: Hashable, Sendable {
  var id: WindowID
  var app: AppIdentity
  var isMinimized: Bool

  /// Reads one description; `nil` when it has no `id` of type `t` (an empty one: no window).
  init?(_ fields: [String: Variant]) {
    guard case .uint64(let id)? = fields["id"]?.value else { return nil }
    let text = { (key: String) -> String? in
      guard case .string(let value)? = fields[key]?.value, !value.isEmpty else { return nil }
      return value
    }
    let wmClass = text("wmClass")
    let isWayland = fields["wayland"]?.value == .boolean(true)
    var pid: Int64?
    if case .int32(let value)? = fields["pid"]?.value { pid = Int64(value) }
    self.id = WindowID(id)
    // On Wayland the shell's WM_CLASS is the client's app_id, the name sway reports as the app id.
    app = AppIdentity(
      reportedInstance: text("wmClassInstance"), windowClass: wmClass,
      appID: text("sandboxedAppId") ?? text("gtkApplicationId") ?? (isWayland ? wmClass : nil), pid: pid)
    isMinimized = fields["minimized"]?.value == .boolean(true)
  }

  var focused: FocusedWindow { FocusedWindow(window: id, app: app) }
}
