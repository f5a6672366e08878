public import Model

/// What one browser says: the site of its active tab, its own process, and
/// whether it believes its window has the focus.
///
/// The service keeps one per native-messaging host (one per browser) and
/// gives them all to the core. The desktop is the authority on which window
/// is in front, the browser on which site its tab shows: where the backend
/// reports the focused window, the core counts ``site`` only while that
/// window belongs to ``browserPID``, whatever ``windowFocused`` says; only
/// where the backend sees no focus (the process fallback) does
/// ``windowFocused`` decide.
public struct SiteReport: Hashable, Sendable {
  /// The site of the active tab of the browser's last focused window that is not minimized.
  public var site: Site
  /// The browser's process: the parent of the host that reported the site.
  public var browserPID: Int32
  /// Whether the browser says that window has the focus (its own view, which
  /// some window managers leave stale; see docs/using/websites.md).
  public var windowFocused: Bool

  public init(site: Site, browserPID: Int32, windowFocused: Bool) {
    self.site = site
    self.browserPID = browserPID
    self.windowFocused = windowFocused
  }
}
