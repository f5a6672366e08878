public import Model
import Posix

extension DesktopChoice {
  /// Opens the backend this choice names, or the one the environment shows for ``DesktopChoice/auto``.
  ///
  /// A method of the choice rather than of a `Desktop` type: a type named
  /// like its module would make `Desktop.DesktopError` unwritable.
  ///
  /// `auto` takes the first that answers of:
  /// 1. sway, when `$SWAYSOCK` names a socket that answers;
  /// 2. i3, when `$I3SOCK` names a socket that answers, or the X display's
  ///    root window names one in `I3_SOCKET_PATH`;
  /// 3. KWin, when `org.kde.KWin` has an owner on the session bus
  ///    (`$DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus`);
  /// 4. GNOME Shell, when `org.gnome.Shell` has an owner on that bus, whether
  ///    or not its extension is enabled yet (``DesktopBackend/attention`` says what to run);
  /// 5. X11, when `$DISPLAY` names a display with an EWMH window manager;
  /// 6. the running processes.
  ///
  /// KWin comes after sway and i3 (whose sockets name their session
  /// exactly) and before X11, since KWin is also an EWMH window manager and
  /// its script sees what X11 alone cannot: Wayland windows, and pids and
  /// desktop-file names on both.
  ///
  /// Under KWin on X11 (no `$WAYLAND_DISPLAY`, `$XDG_SESSION_TYPE` not
  /// `wayland`), input idle, idle inhibition and the screen saver come from
  /// the X11 backend on the same display, as under i3; on Wayland they are
  /// not seen (the backend's limitations say so).
  /// Under i3 with an X display, input idle, idle inhibition and the screen
  /// saver come from the X11 backend on the same display, and so do the
  /// pids of i3's windows (i3's tree names only their X11 window).
  /// Whatever the backend, the identities it reports, and those its `hide`
  /// and `close` predicates see, are completed with the names `/proc` knows
  /// for their pid (executable, `comm`, `argv[0]`, systemd scope), so a rule
  /// matches one complete identity whichever way the desktop is watched.
  /// Opening may block for a few seconds on a socket or display that does
  /// not answer (each wait is bounded).
  ///
  /// - Parameters:
  ///   - environment: The variables to read (`SWAYSOCK`, `I3SOCK`, `DISPLAY`,
  ///     `DBUS_SESSION_BUS_ADDRESS`, `XDG_RUNTIME_DIR`).
  ///   - covers: Whether an app is covered by a rule: the process fallback
  ///     watches only those.
  /// - Returns: The backend, or `nil` for ``DesktopChoice/off``.
  /// - Throws: ``DesktopError`` when a forced backend cannot be opened.
  public func open(
    environment: [String: String], covers: @escaping @Sendable (AppIdentity) -> Bool
  ) throws(DesktopError) -> (any DesktopBackend)? {
    let table = ProcessTable()
    let display = nonEmpty(environment["DISPLAY"])
    switch self {
    case .off:
      return nil
    case .processes:
      return ProcessesDesktop(covers: covers, table: table)
    case .sway:
      guard let path = nonEmpty(environment["SWAYSOCK"]) else {
        throw DesktopError("\"desktop\" is \"sway\" but $SWAYSOCK is not set (is sway running?)")
      }
      return EnrichedDesktop(try I3Desktop(socketPath: path, kind: .sway), table: table)
    case .i3:
      let x11 = display.flatMap { try? X11Desktop.connect(display: $0) }
      guard let path = nonEmpty(environment["I3SOCK"]) ?? x11?.i3SocketPath() else {
        throw DesktopError(
          "\"desktop\" is \"i3\" but neither $I3SOCK nor the X display's I3_SOCKET_PATH names i3's socket")
      }
      return try Self.i3(socketPath: path, x11: x11, table: table)
    case .x11:
      return EnrichedDesktop(try X11Desktop.connect(display: display), table: table)
    case .kwin:
      return try Self.kwin(environment: environment, display: display, table: table)
    case .gnome:
      guard let address = sessionBusAddress(environment) else {
        throw DesktopError(
          "\"desktop\" is \"gnome\" but neither $DBUS_SESSION_BUS_ADDRESS nor $XDG_RUNTIME_DIR names the session bus")
      }
      return EnrichedDesktop(try GnomeShellDesktop(address: address), table: table)
    case .auto:
      if let path = nonEmpty(environment["SWAYSOCK"]), let sway = try? I3Desktop(socketPath: path, kind: .sway) {
        return EnrichedDesktop(sway, table: table)
      }
      let x11 = display.flatMap { try? X11Desktop.connect(display: $0) }
      for path in [nonEmpty(environment["I3SOCK"]), x11?.i3SocketPath()].compactMap({ $0 }) {
        if let i3 = try? Self.i3(socketPath: path, x11: x11, table: table) { return i3 }
      }
      if let kwin = try? Self.kwin(environment: environment, display: display, table: table, x11: x11) {
        return kwin
      }
      if let address = sessionBusAddress(environment),
        let gnome = try? GnomeShellDesktop(address: address, requiringShell: true)
      {
        return EnrichedDesktop(gnome, table: table)
      }
      if let x11 { return EnrichedDesktop(x11, table: table) }
      return ProcessesDesktop(covers: covers, table: table)
    }
  }

  /// i3 at `socketPath`; with the X11 backend of its display for the pids, idle and the screen.
  private static func i3(socketPath: String, x11: X11Desktop?, table: ProcessTable) throws(DesktopError)
    -> any DesktopBackend
  {
    var xIdentity: (@Sendable (UInt32) -> AppIdentity?)?
    if let x11 {
      xIdentity = { @Sendable (window: UInt32) -> AppIdentity? in x11.identity(of: WindowID(UInt64(window))) }
    }
    let i3 = try I3Desktop(socketPath: socketPath, kind: .i3, xIdentity: xIdentity)
    guard let x11 else { return EnrichedDesktop(i3, table: table) }
    return EnrichedDesktop(CompositeDesktop(focus: i3, screen: x11), table: table)
  }
}

extension DesktopChoice {
  /// KWin on the session bus of `environment`; on X11 with the X11 backend of its display for idle and the screen.
  ///
  /// - Parameter x11: The display's X11 backend when the caller has opened it already.
  /// - Throws: ``DesktopError`` when the environment names no session bus or KWin is not on it.
  private static func kwin(
    environment: [String: String], display: String?, table: ProcessTable, x11: X11Desktop? = nil
  ) throws(DesktopError) -> any DesktopBackend {
    let runtime = nonEmpty(environment["XDG_RUNTIME_DIR"])
    guard let address = sessionBusAddress(environment) else {
      throw DesktopError(
        "\"desktop\" is \"kwin\" but the environment names no session bus (neither $DBUS_SESSION_BUS_ADDRESS "
          + "nor a socket $XDG_RUNTIME_DIR/bus)")
    }
    let wayland = nonEmpty(environment["WAYLAND_DISPLAY"]) != nil || environment["XDG_SESSION_TYPE"] == "wayland"
    let screen = wayland ? nil : x11 ?? display.flatMap { try? X11Desktop.connect(display: $0) }
    let limitations =
      screen == nil
      ? [
        "input idle, idle inhibition, the screen saver and the lock are not visible (KWin's scripts do not report "
          + "them, and no X11 display is watched beside it)"
      ] : ["input idle and the screen saver are seen through the X display (KWin's scripts do not report them)"]
    let kwin: KWinDesktop
    do {
      kwin = try KWinDesktop(busAddress: address, runtimeFolder: runtime ?? "/tmp", limitations: limitations)
    } catch {
      throw DesktopError("\"desktop\" is \"kwin\" but \(error.message)")
    }
    guard let screen else { return EnrichedDesktop(kwin, table: table) }
    return EnrichedDesktop(CompositeDesktop(focus: kwin, screen: screen), table: table)
  }
}

/// The session bus's address: `$DBUS_SESSION_BUS_ADDRESS`, else the socket
/// `$XDG_RUNTIME_DIR/bus` when it exists (as libdbus finds it).
private func sessionBusAddress(_ environment: [String: String]) -> String? {
  if let address = nonEmpty(environment["DBUS_SESSION_BUS_ADDRESS"]) { return address }
  guard let runtime = nonEmpty(environment["XDG_RUNTIME_DIR"]),
    (try? FileSystem.status(runtime + "/bus"))?.kind == .socket
  else { return nil }
  return "unix:path=" + runtime + "/bus"
}

/// `value`, or `nil` when it is unset or empty.
private func nonEmpty(_ value: String?) -> String? {
  guard let value, !value.isEmpty else { return nil }
  return value
}
