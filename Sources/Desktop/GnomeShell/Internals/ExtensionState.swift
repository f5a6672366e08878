/// How far ShieldBridge's GNOME Shell extension is from serving the backend,
/// and what the user runs to get it there.
enum ExtensionState: Hashable, Sendable {
  /// Not asked yet: the event stream has not started.
  case starting
  /// GNOME Shell has no owner on the session bus.
  case noShell
  /// The shell owns its name but has not exported its extension manager yet.
  case shellStarting
  /// The shell left the bus after it was seen: it restarts, or the session ends.
  case shellRestarting
  /// The shell knows no extension of this UUID.
  case notInstalled
  /// Installed, not enabled (or user extensions are switched off).
  case disabled
  /// GNOME Shell could not load or enable it; the shell's error, when it tells one.
  case failed(String?)
  /// Its `shell-version` does not name the running shell.
  case outOfDate
  /// It answers, but with another contract version than this build speaks.
  case otherVersion(UInt32)
  /// Enabled, but its object does not answer (it is starting, or it broke).
  case notAnswering(String)
  /// It refused `Watch`: it serves only the process that owns the service's name (this one does not,
  /// or not yet), or that process has too many watchers; the extension's reason.
  case refused(String)
  /// It answered `Watch`: focus is seen.
  case watching

  /// What to tell the user, `nil` while watching.
  var attention: String? {
    let name = "the GNOME Shell extension \(ShellNames.uuid)"
    let enable = "gnome-extensions enable \(ShellNames.uuid)"
    switch self {
    case .watching, .starting:
      return nil
    case .noShell:
      return "GNOME Shell is not on the session bus (yet), so no focus is seen: waiting for it"
    case .shellStarting:
      return "GNOME Shell is starting, so no focus is seen yet: waiting for its extensions"
    case .shellRestarting:
      return "GNOME Shell left the session bus (it restarts, or the session ends): waiting for it and its extension"
    case .notInstalled:
      return "\(name) is not installed, so no focus is seen: run 'make install', log out and in again "
        + "(GNOME Shell on Wayland finds new extensions only at login), then '\(enable)'"
    case .disabled:
      return "\(name) is installed but not enabled, so no focus is seen: run '\(enable)' "
        + "(and check that 'gsettings get org.gnome.shell disable-user-extensions' says false)"
    case .failed(let error):
      return "\(name) failed in GNOME Shell\(error.map { " (\($0))" } ?? ""), so no focus is seen: "
        + "see 'gnome-extensions info \(ShellNames.uuid)', reinstall it with 'make install' and log in again"
    case .outOfDate:
      return "\(name) does not support this GNOME Shell version, so no focus is seen: reinstall it with "
        + "'make install' (it picks the variant for the installed shell) and log in again"
    case .otherVersion(let version):
      return "\(name) speaks version \(version) of its D-Bus contract, this ShieldBridge speaks "
        + "\(ShellNames.contractVersion), so no focus is seen: reinstall it with 'make install' and log in again"
    case .refused(let why):
      return "\(name) refuses this process (\(why)), so no focus is seen: it takes orders only from the "
        + "ShieldBridge service, so 'shieldbridge status' tells what the service sees; asking again every second"
    case .notAnswering(let why):
      return "\(name) is enabled but does not answer (\(why)), so no focus is seen: "
        + "run 'gnome-extensions disable \(ShellNames.uuid)' and '\(enable)'"
    }
  }

  /// The state GNOME Shell's `GetExtensionInfo` reports (`state` is a double
  /// there): 1 enabled (GNOME 45: active), 2 disabled, 3 error, 4 out of date,
  /// 6 initialized, 7 and 8 disabling and enabling (GNOME 45 and later), 99
  /// uninstalled; an empty answer: not installed.
  init(info state: Double?, error: String?) {
    switch state {
    case nil, 99?: self = .notInstalled
    case 3?: self = .failed(error.flatMap { $0.isEmpty ? nil : String($0.prefix(300)) })
    case 4?: self = .outOfDate
    case 1?, 8?: self = .notAnswering("it has not exported its object")
    default: self = .disabled
    }
  }
}
