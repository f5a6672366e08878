public import Brake

/// What one browser says is in front: the site of its focused tab, and its own process.
///
/// The service keeps one per native-messaging host (one per browser) and
/// gives them all to the core, which counts a site only when the desktop
/// agrees that the browser is in front: the focused window belongs to
/// ``browserPID``, or the backend sees no focus at all (the process fallback).
public struct SiteReport: Hashable, Sendable {
  public var site: Site
  /// The browser's process: the parent of the host that reported the site.
  public var browserPID: Int32

  public init(site: Site, browserPID: Int32) {
    self.site = site
    self.browserPID = browserPID
  }
}
