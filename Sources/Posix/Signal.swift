#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A signal number, sent to another process with ``send(to:)``.
public struct Signal: RawRepresentable, Hashable, Sendable {
  /// The C value, such as `SIGTERM`.
  public var rawValue: Int32

  public init(rawValue: Int32) {
    self.rawValue = rawValue
  }

  /// `SIGTERM`: asks the process to end.
  public static let terminate = Signal(rawValue: SIGTERM)
  /// `SIGKILL`: ends the process; it cannot be caught.
  public static let kill = Signal(rawValue: SIGKILL)

  /// Sends the signal to the process `pid` (`kill`).
  ///
  /// Only a single process: `kill`'s other meanings (0 and negative numbers
  /// name process groups, -1 every process) are refused, so a pid read wrong
  /// never signals a whole session.
  ///
  /// - Throws: ``Errno``: `EINVAL` for a pid below 1, `ESRCH` when no such
  ///   process exists, `EPERM` when it is another user's.
  public func send(to pid: Int32) throws(Errno) {
    guard pid > 0 else { throw .invalidArgument }
    try nothingOrErrno { systemKill(pid, rawValue) }
  }
}

extension Signal {
  /// Whether a process numbered `pid` exists now (`kill(pid, 0)`): it does
  /// unless the answer is `ESRCH`, so another user's process exists too.
  public static func processExists(_ pid: Int32) -> Bool {
    guard pid > 0 else { return false }
    return systemKill(pid, 0) == 0 || errno != ESRCH
  }
}

// `kill` under a name of its own: inside `Signal` the static member shadows it.
private func systemKill(_ pid: Int32, _ signal: Int32) -> Int32 { kill(pid, signal) }
