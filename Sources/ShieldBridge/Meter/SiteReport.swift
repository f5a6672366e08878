import Brake

/// What one browser says is in front: the site of its focused tab, and its own process.
///
/// The service keeps one per native-messaging host (one per browser) and
/// gives them all to the meter, which counts a site only when the desktop
/// agrees that the browser is in front: the focused window belongs to
/// ``browserPID``, or the backend sees no focus at all (the process fallback).
struct SiteReport: Hashable, Sendable {
  var site: Site
  /// The browser's process: the parent of the host that reported the site.
  var browserPID: Int32
}
