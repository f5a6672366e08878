/// What the desktop knows about the app behind a window or a process: the
/// names a rule's app is matched against.
///
/// Every field is optional: a window may have no `WM_CLASS`, no pid, and a
/// process may have no systemd scope. A window's title is never part of it
/// (titles are never stored or logged).
public struct AppIdentity: Hashable, Sendable, CustomStringConvertible {
  /// X11 `WM_CLASS`: the instance name (first string), such as `telegram-desktop`.
  public var instance: String?
  /// X11 `WM_CLASS`: the class name (second string), such as `TelegramDesktop`;
  /// under i3 `window_properties.class`.
  public var windowClass: String?
  /// The Wayland `app_id` (sway) or the desktop-file id, such as `org.telegram.desktop`.
  public var appID: String?
  /// The executable's file name (`/proc/PID/exe`), such as `telegram-desktop`.
  public var executable: String?
  /// The process's own name (`/proc/PID/comm`, at most 15 bytes).
  public var command: String?
  /// The file name of the command line's first word (`/proc/PID/cmdline`'s
  /// `argv[0]`), which a launcher script or a wrapper may set apart from the executable's.
  public var commandLineName: String?
  /// The app id from the process's systemd scope or service
  /// (`app-gnome-org.telegram.desktop-1234.scope` → `org.telegram.desktop`).
  public var scopeID: String?
  /// The process id, when the desktop tells it.
  public var pid: Int32?

  public init(
    instance: String? = nil, windowClass: String? = nil, appID: String? = nil, executable: String? = nil,
    command: String? = nil, commandLineName: String? = nil, scopeID: String? = nil, pid: Int32? = nil
  ) {
    self.instance = instance
    self.windowClass = windowClass
    self.appID = appID
    self.executable = executable
    self.command = command
    self.commandLineName = commandLineName
    self.scopeID = scopeID
    self.pid = pid
  }

  /// Every name of the app, for matching a plain app name against all of them.
  public var names: [String] {
    [instance, windowClass, appID, executable, command, commandLineName, scopeID].compactMap { $0 }
  }

  /// `class=TelegramDesktop instance=telegram-desktop pid=4242`: the known fields, never a title.
  public var description: String {
    let fields: [(String, String?)] = [
      ("class", windowClass), ("instance", instance), ("appId", appID), ("exe", executable),
      ("comm", command), ("argv0", commandLineName), ("scope", scopeID), ("pid", pid.map { String($0) }),
    ]
    let known = fields.compactMap { name, value in value.map { "\(name)=\($0)" } }
    return known.isEmpty ? "an app without names" : known.joined(separator: " ")
  }
}
