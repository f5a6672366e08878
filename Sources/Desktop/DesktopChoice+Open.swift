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
  ///    root window names one in `I3_SOCKET_PATH`; idle and the screen saver
  ///    then come from the X11 backend on the same display;
  /// 3. X11, when `$DISPLAY` names a display with an EWMH window manager;
  /// 4. the running processes.
  ///
  /// Whatever the backend, the identities it reports, and those its `hide`
  /// and `close` predicates see, are completed with the names `/proc` knows
  /// for their pid (executable, `comm`, `argv[0]`, systemd scope), so a rule
  /// matches one complete identity whichever way the desktop is watched.
  ///
  /// - Parameters:
  ///   - environment: The variables to read (`SWAYSOCK`, `I3SOCK`, `DISPLAY`).
  ///   - covers: Whether an app is covered by a rule: the process fallback
  ///     watches only those.
  /// - Returns: The backend, or `nil` for ``DesktopChoice/off``.
  /// - Throws: ``DesktopError`` when a forced backend cannot be opened.
  public func open(
    environment: [String: String], covers: @escaping @Sendable (AppIdentity) -> Bool
  ) throws(DesktopError) -> (any DesktopBackend)? {
    let table = ProcessTable()
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
      guard let path = nonEmpty(environment["I3SOCK"]) else {
        throw DesktopError("\"desktop\" is \"i3\" but $I3SOCK is not set (is i3 running?)")
      }
      return EnrichedDesktop(try I3Desktop(socketPath: path, kind: .i3), table: table)
    case .x11:
      throw DesktopError("the X11 backend is not part of this build yet")
    case .auto:
      if let path = nonEmpty(environment["SWAYSOCK"]), let sway = try? I3Desktop(socketPath: path, kind: .sway) {
        return EnrichedDesktop(sway, table: table)
      }
      if let path = nonEmpty(environment["I3SOCK"]), let i3 = try? I3Desktop(socketPath: path, kind: .i3) {
        return EnrichedDesktop(i3, table: table)
      }
      return ProcessesDesktop(covers: covers, table: table)
    }
  }
}

/// `value`, or `nil` when it is unset or empty.
private func nonEmpty(_ value: String?) -> String? {
  guard let value, !value.isEmpty else { return nil }
  return value
}
