public import Model

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
///
/// A browser's windows share the browser's class, so for them the class
/// would add the whole browser: an app window of a site (`chromium
/// --app=URL`, ``Model/AppIdentity/appWindowSite``) is added as that site
/// (without a leading `www.`),
/// and an installed web app's window (Chromium's instance `crx_…`) by its
/// instance, which names that web app alone.
public enum PickedApp {
  /// The app to add, or `nil` when the window gave no name to match.
  public static func app(for identity: AppIdentity) -> RuleApp? {
    if let site = identity.appWindowSite {
      // `www.` left out: the extension reports a tab of the site as `instagram.com`, which `www.` would not cover.
      let name =
        site.name.hasPrefix("www.") && site.name.dropFirst(4).contains(".") ? String(site.name.dropFirst(4)) : site.name
      return RuleApp(name: name, sites: [name])
    }
    if let instance = usable(identity.instance), instance.hasPrefix("crx_"),
      let windowClass = identity.windowClass,
      AppIdentity.appWindowBrowserClasses.contains(windowClass.lowercased())
    {
      return RuleApp(name: instance, classes: [instance])
    }
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
