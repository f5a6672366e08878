public import Model

/// Which way the desktop is watched; `config.json`'s `"desktop"`.
public enum DesktopKind: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
  case x11
  case i3
  case sway
  /// KDE's KWin, through a script of ours (``KWinDesktop``).
  case kwin
  case processes
  /// GNOME Shell, through ShieldBridge's shell extension.
  case gnome

  public var description: String { rawValue }
}

/// What counts as using an app with a backend.
public enum CountingSource: String, Hashable, Sendable {
  /// The app has the focused window.
  case focus
  /// The app runs (the process fallback sees no windows).
  case running
}

/// One desktop: which app is in front, idle and screen state, and what can be done to an app's windows.
///
/// Each backend is event driven where its desktop allows (no wake-ups while
/// nothing changes), never crashes or hangs on what the desktop sends, and
/// ends its stream with ``DesktopEvent/lost(_:)`` when the desktop goes away.
public protocol DesktopBackend: AnyObject, Sendable {
  var kind: DesktopKind { get }
  var countingSource: CountingSource { get }
  /// What the backend cannot see (for `status` and `shieldbridge desktop`), such as
  /// "input idle is not visible under sway".
  var limitations: [String] { get }
  /// Why the backend does not see the desktop now, and what the user must
  /// do about it if anything: "the GNOME Shell extension is not enabled:
  /// run …", or "KWin left the session bus: waiting …" while a compositor
  /// restarts; `nil` while it sees the desktop.
  ///
  /// It changes while the backend runs (an extension enabled or disabled, a
  /// compositor gone and back); each change is also reported as a
  /// ``DesktopEvent/notice(_:)``. `status` and `shieldbridge desktop` show it
  /// as "to do".
  var attention: String? { get }

  /// The events, starting with the current state. Called once; `idleAfter` is
  /// how long without input counts as idle.
  func events(idleAfter: Duration) -> AsyncStream<DesktopEvent>

  /// The events of ``events(idleAfter:)``, each with the moment it happened
  /// where the source tells it. Called once, instead of ``events(idleAfter:)``.
  ///
  /// A backend whose source gives no times need not implement it: the
  /// default passes its events on without stamps.
  func stampedEvents(idleAfter: Duration) -> AsyncStream<StampedDesktopEvent>

  /// Whether every change of the state the meter counts by (focus, idle, the
  /// screen) comes stamped by ``stampedEvents(idleAfter:)``: then a span the
  /// process did not run is booked from the stamps; otherwise it is unknown.
  var stampsChanges: Bool { get }

  /// Hides (minimises, or moves to the scratchpad) every window whose app matches.
  ///
  /// - Returns: How many windows were hidden.
  func hide(where matches: @escaping @Sendable (AppIdentity) -> Bool) async throws(DesktopError) -> Int

  /// Asks every window whose app matches to close (`WM_DELETE_WINDOW`, i3's
  /// `kill`, SIGTERM for processes).
  ///
  /// - Returns: The pids behind those windows, for the caller's SIGTERM and
  ///   SIGKILL after the grace periods.
  func close(where matches: @escaping @Sendable (AppIdentity) -> Bool) async throws(DesktopError) -> [Int32]

  /// Stops watching; the event stream ends.
  func stop()
}

extension DesktopBackend {
  /// Nothing to do: the backends that need no help from the desktop.
  public var attention: String? { nil }

  /// The events, none stamped: the source gives no times.
  public func stampedEvents(idleAfter: Duration) -> AsyncStream<StampedDesktopEvent> {
    events(idleAfter: idleAfter).withoutStamps()
  }

  /// The backends whose sources give no times.
  public var stampsChanges: Bool { false }
}

/// Why the desktop could not be watched or could not do what was asked.
public struct DesktopError: Error, Hashable, Sendable, CustomStringConvertible {
  public var message: String

  public init(_ message: String) {
    self.message = message
  }

  public var description: String { message }
}
