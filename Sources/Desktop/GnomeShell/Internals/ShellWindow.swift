import DBus

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
    var app = AppIdentity()
    app.windowClass = wmClass
    app.instance = text("wmClassInstance")
    // On Wayland the shell's WM_CLASS is the client's app_id, the name sway reports as the app id.
    app.appID = text("sandboxedAppId") ?? text("gtkApplicationId") ?? (isWayland ? wmClass : nil)
    if case .int32(let pid)? = fields["pid"]?.value, pid > 0 { app.pid = pid }
    self.id = WindowID(id)
    self.app = app
    isMinimized = fields["minimized"]?.value == .boolean(true)
  }

  var focused: FocusedWindow { FocusedWindow(window: id, app: app) }
}
