/// When a call to `org.freedesktop.Notifications` may have the bus start a
/// notification server (D-Bus activation), and when it waits for the desktop's own.
///
/// A desktop starts its notification server itself, from its session
/// (xfce4-notifyd from Xfce's autostart, GNOME Shell and Plasma as part of the
/// shell). A call that reaches the bus before that, with the auto-start flag
/// set, has the bus start whichever server's service file it finds first
/// (dunst, when it is installed beside the desktop's), and the desktop's own
/// then finds the name taken and exits. A service that starts with the session
/// therefore calls without the flag for a while (``desktopWait``): a query
/// then fails at once when no server runs, and a post waits for the desktop's
/// server to take the name. Past the wait, or for a client that is not started
/// with the session (``always``), calls carry the flag as usual.
///
/// The decision is pure: the caller gives the time and whether a server owns
/// the name (docs/reference/notifications.md, "Which server").
public struct ServerActivation: Sendable {
  /// Until when calls carry no auto-start flag; `nil`: they always carry it.
  public let waitEnds: ContinuousClock.Instant?

  /// Calls always carry the auto-start flag (a command run by hand).
  public static let always = ServerActivation(waitEnds: nil)

  /// The bound a service started with the session gives the desktop's server:
  /// Xfce's and LXQt's autostart start theirs within a few seconds of the log-in, on
  /// a loaded machine within about ten.
  public static let desktopBound: Duration = .seconds(20)

  /// No auto-start flag until `bound` after `start`.
  public static func desktopWait(from start: ContinuousClock.Instant, bound: Duration = desktopBound)
    -> ServerActivation
  {
    ServerActivation(waitEnds: start + bound)
  }

  /// What a call does.
  public enum Step: Sendable {
    /// Call now, with the auto-start flag as given.
    case call(autoStart: Bool)
    /// Wait for a server to take the name, at most until the instant, then ask again.
    case waitForServer(until: ContinuousClock.Instant)
  }

  /// What kind of call it is.
  public enum Purpose: Sendable {
    /// A question (capabilities, server information, a close): with no server it fails.
    case query
    /// A notification that must go out: it waits for the desktop's server.
    case post
  }

  /// The step for a call made `now`, with `serverRuns` telling whether the name has an owner.
  public func step(now: ContinuousClock.Instant, serverRuns: Bool, purpose: Purpose) -> Step {
    guard let waitEnds, now < waitEnds else { return .call(autoStart: true) }
    switch purpose {
    case .query: return .call(autoStart: false)
    case .post: return serverRuns ? .call(autoStart: false) : .waitForServer(until: waitEnds)
    }
  }
}
