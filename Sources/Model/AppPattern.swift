/// One app a rule covers: the name shown in notifications, and the names the
/// desktop knows it by.
///
/// A plain name (`"Instagram"` in config.json) is matched case-insensitively
/// against every name the desktop reports (the X11 `WM_CLASS`, the Wayland
/// `app_id`, the desktop-file id, the executable, the systemd scope). An
/// object names them explicitly (`{"name": "Telegram", "class":
/// "TelegramDesktop", "appId": "org.telegram.desktop", "exe":
/// ["telegram-desktop"]}`), and then only those are matched. An object may
/// also list the app's websites (`"sites": ["instagram.com"]`): time on them
/// in a browser counts against the same rule. An app with sites alone matches
/// no window; it is met only in the browser.
public struct AppPattern: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
  /// The app's display name; links, notifications and `shield --app` use it.
  public var name: String
  /// X11 `WM_CLASS` names (instance or class), i3's `window_properties.class`.
  public var classes: [String]
  /// Wayland `app_id`s and desktop-file ids.
  public var appIDs: [String]
  /// Executable names, as `/proc/PID/exe`, `comm` or the command line's first word name them.
  public var executables: [String]
  /// The app's websites; each covers itself and its subdomains.
  public var sites: [Site]

  public init(
    name: String, classes: [String] = [], appIDs: [String] = [], executables: [String] = [], sites: [Site] = []
  ) {
    self.name = name
    self.classes = classes
    self.appIDs = appIDs
    self.executables = executables
    self.sites = sites
  }

  public init(stringLiteral name: String) {
    self.init(name: name)
  }

  /// Whether only the name is given, so it is matched against every name the desktop reports.
  ///
  /// An app that lists sites is no plain name, also without classes: a
  /// website's name ("Instagram") must not match a window that happens to carry it.
  public var isPlainName: Bool { classes.isEmpty && appIDs.isEmpty && executables.isEmpty && sites.isEmpty }

  /// Whether one of the app's sites covers `site` (itself or a subdomain).
  public func covers(site: Site) -> Bool {
    sites.contains { $0.covers(site) }
  }

  public var description: String { name }
}
