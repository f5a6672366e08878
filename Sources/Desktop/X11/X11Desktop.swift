import CXCB
public import Model
import Posix
import Spawn
import Synchronization

/// The desktop as an EWMH window manager on X11 shows it, through libxcb.
///
/// Focus comes from `PropertyNotify` on the root window's `_NET_ACTIVE_WINDOW`;
/// the app behind a window from its `WM_CLASS` and the pid the X server knows
/// for its client (X-Resource), else `_NET_WM_PID`; the screen saver's state
/// from MIT-SCREEN-SAVER; input idle from the SYNC extension's `IDLETIME`
/// counter, with alarms, so the backend's thread sleeps while nothing changes.
/// Window titles (`WM_NAME`, `_NET_WM_NAME`) are never requested.
public final class X11Desktop: DesktopBackend {
  public let kind = DesktopKind.x11
  public let countingSource = CountingSource.focus
  public let limitations: [String]
  /// The display this backend watches, as it was given.
  public let display: String

  private let commands: Mutex<XConnection>
  private let state: Mutex<State>

  private struct State: ~Copyable {
    /// The event loop's connection and what was found on it, until ``events(idleAfter:)`` hands it to the thread.
    var pending: (connection: XConnection, capabilities: XCapabilities, checkWindow: xcb_window_t)?
    /// Both ends stay open for the backend's life, so that a late `stop` never writes to a closed pipe.
    var wake: (reading: FileDescriptor, writing: FileDescriptor)?
    var stopped = false
  }

  private init(
    display: String, events: XConnection, capabilities: XCapabilities, checkWindow: xcb_window_t,
    commands: XConnection
  ) {
    self.display = display
    self.commands = Mutex(commands)
    self.state = Mutex(State(pending: (events, capabilities, checkWindow)))
    self.limitations = X11Desktop.limitations(capabilities: capabilities, clientPids: events.hasClientPids)
  }

  deinit {
    stop()
  }

  /// Connects to the X server at `display` and checks that an EWMH window manager runs there.
  ///
  /// - Parameter display: The X display, such as `:0` (the caller passes `$DISPLAY`); `nil`
  ///   or empty when there is none.
  /// - Throws: ``DesktopError`` when there is no display, no X server answers there, or no
  ///   window manager announces `_NET_SUPPORTING_WM_CHECK` with `_NET_ACTIVE_WINDOW` in
  ///   `_NET_SUPPORTED`.
  public static func connect(display: String?) throws(DesktopError) -> X11Desktop {
    guard let display, !display.isEmpty else { throw DesktopError("no X display: DISPLAY is not set") }
    let events = try XConnection.open(display: display)
    guard let check = events.windowManagerCheck() else {
      throw DesktopError(
        "no EWMH window manager on the X display \(display): the root window has no valid _NET_SUPPORTING_WM_CHECK")
    }
    guard events.supports(events.atoms.activeWindow) else {
      throw DesktopError(
        "the window manager on the X display \(display) does not announce _NET_ACTIVE_WINDOW in _NET_SUPPORTED")
    }
    let capabilities = events.probeCapabilities()
    let commands = try XConnection.open(display: display)
    return X11Desktop(
      display: display, events: events, capabilities: capabilities, checkWindow: check, commands: commands)
  }

  private static func limitations(capabilities: XCapabilities, clientPids: Bool) -> [String] {
    var notes: [String] = []
    if capabilities.idleCounter == nil {
      notes.append("input idle is not visible: the X server has no SYNC IDLETIME counter, so idle time counts")
    } else {
      notes.append(
        "idle inhibition is not visible on X11: a player that calls XResetScreenSaver (mpv, VLC, browsers) "
          + "resets the idle time, so watching a video counts; one that only holds an "
          + "org.freedesktop.ScreenSaver inhibitor (kept by the desktop, not the X server) is not seen, and its "
          + "video stops counting after the idle time; a disabled screen saver (xset s off) is not taken as "
          + "an inhibitor")
    }
    if capabilities.screenSaverEvent == nil {
      notes.append("the screen saver is not visible: the X server has no MIT-SCREEN-SAVER extension")
    } else {
      notes.append(
        "the screen counts as off only while the X server's screen saver runs; a display that DPMS powers "
          + "off by itself, or a desktop that blanks it its own way, is not seen")
    }
    notes.append(
      "locking is not visible on X11 (there is no lock signal): a locker that starts the screen saver is "
        + "reported as the saver; one that only covers the screen and grabs the keyboard (i3lock, slock) is "
        + "seen only as input idle")
    notes.append(
      clientPids
        ? "a window's pid comes from the X server (X-Resource) for local clients, else from the window's own "
          + "_NET_WM_PID, which a client can fake"
        : "a window's pid comes from its own _NET_WM_PID (the X server has no X-Resource 1.2), which a client "
          + "can fake")
    notes.append(
      "hide asks the window manager to iconify (ICCCM WM_CHANGE_STATE); a manager without an iconic state "
        + "(i3) ignores it")
    notes.append(
      "when the window manager goes away and no other takes over within 5 s, the backend reports itself lost")
    return notes
  }

  // MARK: Events

  public func events(idleAfter: Duration) -> AsyncStream<DesktopEvent> {
    stampedEvents(idleAfter: idleAfter).unstamped()
  }

  public func stampedEvents(idleAfter: Duration) -> AsyncStream<StampedDesktopEvent> {
    stampedEvents(idleAfter: idleAfter, watchingFocus: true)
  }

  /// Every change (focus, idle, the screen saver) comes with the X server's stamp.
  public var stampsChanges: Bool { true }

  /// The events, without the focus and the window manager when another backend tells them.
  func stampedEvents(idleAfter: Duration, watchingFocus: Bool) -> AsyncStream<StampedDesktopEvent> {
    let (stream, continuation) = AsyncStream.makeStream(of: StampedDesktopEvent.self, bufferingPolicy: .unbounded)
    let loop: XEventLoop? = state.withLock { state in
      guard !state.stopped, let pending = state.pending, let wake = try? FileDescriptor.pipe() else { return nil }
      state.pending = nil
      state.wake = wake
      return XEventLoop(
        connection: pending.connection, capabilities: pending.capabilities, checkWindow: pending.checkWindow,
        idleAfter: idleAfter, watchesFocus: watchingFocus, continuation: continuation, wake: wake.reading)
    }
    // A second call, or one after `stop`, gets an empty stream: the events went to the first.
    guard let loop else {
      continuation.finish()
      return stream
    }
    continuation.onTermination = { [weak self] _ in self?.stop() }
    detachThread { loop.run() }
    return stream
  }

  public func stop() {
    let writer: FileDescriptor? = state.withLock { state in
      guard !state.stopped else { return nil }
      state.stopped = true
      state.pending = nil
      return state.wake?.writing
    }
    // One byte, once: the loop reads nothing, it only wakes and ends.
    try? writer?.writeAll([1])
  }

  // MARK: Looking up

  /// What is known of the app behind `window`: `WM_CLASS` and the pid; `nil` when the window is gone.
  ///
  /// For other backends that see X windows (i3 names X windows by their id).
  public func identity(of window: WindowID) -> AppIdentity? {
    guard let id = xcb_window_t(exactly: window.rawValue), id != 0 else { return nil }
    return commands.withLock { $0.identity(of: id) }
  }

  /// The root window's `I3_SOCKET_PATH` (i3's IPC socket), or `nil` when i3 does not manage this display.
  public func i3SocketPath() -> String? {
    commands.withLock { $0.i3SocketPath() }
  }

  // MARK: Acting

  public func hide(where matches: @escaping @Sendable (AppIdentity) -> Bool) async throws(DesktopError) -> Int {
    try await onOwnThread { () throws(DesktopError) in
      try self.commands.withLock { connection throws(DesktopError) in
        var hidden = 0
        for (window, _) in try X11Desktop.windows(on: connection, matching: matches) {
          // ICCCM 4.1.4: WM_CHANGE_STATE with IconicState (3), as xdotool windowminimize sends it.
          let accepted = connection.sendClientMessage(
            to: connection.root, window: window, type: connection.atoms.wmChangeState, data: (3, 0, 0, 0, 0),
            eventMask: X11Desktop.toManager)
          if accepted { hidden += 1 }
        }
        try X11Desktop.check(connection)
        return hidden
      }
    }
  }

  public func close(where matches: @escaping @Sendable (AppIdentity) -> Bool) async throws(DesktopError) -> [Int32] {
    try await onOwnThread { () throws(DesktopError) in
      try self.commands.withLock { connection throws(DesktopError) in
        var pids: [Int32] = []
        for (window, app) in try X11Desktop.windows(on: connection, matching: matches) {
          let protocols = (try? connection.property(window, connection.atoms.wmProtocols, maxBytes: 4 * 64))?.words
          let accepted: Bool
          if protocols?.contains(connection.atoms.wmDeleteWindow) == true {
            // ICCCM 4.2.8.1: the client is asked, and may save its work first.
            accepted = connection.sendClientMessage(
              to: window, window: window, type: connection.atoms.wmProtocols,
              data: (connection.atoms.wmDeleteWindow, 0, 0, 0, 0), eventMask: 0)
          } else {
            // EWMH: the manager closes it; source 2 is a pager or other tool acting for the user.
            accepted = connection.sendClientMessage(
              to: connection.root, window: window, type: connection.atoms.closeWindow, data: (0, 2, 0, 0, 0),
              eventMask: X11Desktop.toManager)
          }
          if accepted, let pid = app.pid, !pids.contains(pid) { pids.append(pid) }
        }
        try X11Desktop.check(connection)
        return pids
      }
    }
  }

  /// A client message to the root that the window manager receives (SubstructureRedirect|SubstructureNotify).
  private static let toManager =
    XCB_EVENT_MASK_SUBSTRUCTURE_REDIRECT.rawValue | XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY.rawValue

  /// The managed windows whose app matches, with their identities (looked up together).
  private static func windows(
    on connection: XConnection, matching matches: (AppIdentity) -> Bool
  ) throws(DesktopError) -> [(xcb_window_t, AppIdentity)] {
    let requests = connection.clientList().map { connection.requestIdentity($0) }
    let found = requests.compactMap { request in
      (try? connection.identity(request)).map { (request.window, $0) }
    }
    try check(connection)
    return found.filter { matches($0.1) }
  }

  private static func check(_ connection: XConnection) throws(DesktopError) {
    if let failure = connection.failure {
      throw DesktopError("the X server on \(connection.display) went away: \(failure)")
    }
  }
}
