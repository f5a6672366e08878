public import Brake

/// The app `shieldbridge rules pick` adds for the window it was shown: the
/// narrowest name that identifies it, as `shieldbridge desktop` reports it.
///
/// The X11 class when the window has one (every window of the app has it,
/// and no other app's), else the Wayland app id or desktop-file id, else the
/// executable's name; the instance, `comm`, `argv[0]` and the systemd scope
/// are left out, as they are broader (a terminal's instance is `xterm` for
/// every program run in it) or name a launcher. The app is named after the
/// name it is matched by, and written as an object with that one name, so
/// it matches nothing else.
public enum PickedApp {
  /// The app to add, or `nil` when the window gave no name to match.
  public static func app(for identity: AppIdentity) -> RuleApp? {
    if let windowClass = usable(identity.windowClass) {
      return RuleApp(name: windowClass, classes: [windowClass])
    }
    if let appID = usable(identity.appID) {
      return RuleApp(name: appID, appIDs: [appID])
    }
    if let executable = usable(identity.executable) {
      return RuleApp(name: executable, executables: [executable])
    }
    return nil
  }

  /// The names the window would be matched with, as lines, in the order `desktop` prints them.
  public static func names(of identity: AppIdentity) -> [String] {
    let fields: [(String, String?)] = [
      ("class", identity.windowClass), ("instance", identity.instance), ("app id", identity.appID),
      ("executable", identity.executable), ("comm", identity.command), ("argv[0]", identity.commandLineName),
      ("systemd scope", identity.scopeID),
    ]
    return fields.compactMap { label, value in value.map { "\(label): \($0)" } }
  }

  private static func usable(_ name: String?) -> String? {
    guard let name, !name.isEmpty, name.count <= 256,
      !name.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    else { return nil }
    return name
  }
}
