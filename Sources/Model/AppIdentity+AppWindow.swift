import Text

extension AppIdentity {
  /// The `WM_CLASS` classes of the browsers whose app windows name their site in the
  /// instance, compared without case.
  ///
  /// `chromium --app=https://www.instagram.com/` opens a window of class `Chromium`
  /// whose instance is `www.instagram.com` (a longer address adds `__` and its path);
  /// Chrome, Brave, Edge and Vivaldi do the same. Firefox has no app windows of its
  /// own, but `firefox --name www.instagram.com` names one as well.
  public static let appWindowBrowserClasses: Set<String> = [
    "chromium", "chromium-browser", "google-chrome", "google-chrome-beta", "google-chrome-unstable",
    "brave-browser", "microsoft-edge", "vivaldi-stable", "opera", "firefox", "firefox-esr", "librewolf",
  ]

  /// The prefix of the Wayland `app_id` of a Chromium app window:
  /// `chrome-www.instagram.com__-Default`.
  static let chromiumAppIDPrefix = "chrome-"

  /// The site a browser's app window shows: the host name in the instance of a window of
  /// a known browser class (``appWindowBrowserClasses``), or in a Chromium app window's
  /// Wayland `app_id`; `nil` for every other window.
  ///
  /// The name is a host name with at least one dot, cut at its first `_` (where Chromium
  /// appends the address's path): `Navigator`, Firefox's own instance, and `crx_…`, an
  /// installed web app's, are no site. The whole host is kept, not only the registrable
  /// domain the extension reports: a rule's site covers its subdomains, so every rule
  /// that covers the extension's `instagram.com` covers `www.instagram.com` too.
  public var appWindowSite: Site? {
    if let windowClass, Self.appWindowBrowserClasses.contains(windowClass.lowercased()), let instance,
      let site = Self.site(named: Substring(instance))
    {
      return site
    }
    if let appID, appID.hasPrefix(Self.chromiumAppIDPrefix), appID.includes("__") {
      return Self.site(named: appID.dropFirst(Self.chromiumAppIDPrefix.count))
    }
    return nil
  }

  private static func site(named name: Substring) -> Site? {
    let host = name.prefix { $0 != "_" }
    guard host.contains("."), let site = Site(String(host)) else { return nil }
    return site
  }
}
