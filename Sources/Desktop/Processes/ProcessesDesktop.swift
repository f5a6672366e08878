public import Model
import Posix
import Spawn

/// The fallback without a window system: the covered apps that run, found in `/proc` (Timekpr's way).
///
/// It sees no windows and no focus: a covered app counts while it runs
/// (``CountingSource/running``). It scans at most once every
/// ``scanInterval`` (one wake-up per scan: 0.5 a second at most) and reports
/// ``DesktopEvent/running(_:)`` only when the set of covered processes
/// changes, the first time with the set found at the start. Only the user's
/// own processes are looked at.
public final class ProcessesDesktop: DesktopBackend {
  public let kind = DesktopKind.processes
  public let countingSource = CountingSource.running
  public let limitations = [
    "counts the time a covered app runs, not the time it is in front (no window system is watched)",
    "does not see input idle or the screen saver (with an X display and a window manager the X11 backend is used instead, which sees them)",
  ]

  /// The shortest time between two scans of `/proc`.
  public static let scanInterval = Duration.seconds(2)

  private let covers: @Sendable (AppIdentity) -> Bool
  private let table: ProcessTable
  private let userID: UInt32
  /// Stops the scanning thread.
  private let scanner = StopSignal()

  /// - Parameters:
  ///   - covers: Whether a process belongs to an app some rule covers (the service's matching).
  ///   - table: Where the processes are read (`/proc`).
  ///   - userID: Whose processes count: this process's user unless told (`nil`).
  public init(
    covers: @escaping @Sendable (AppIdentity) -> Bool, table: ProcessTable = ProcessTable(), userID: UInt32? = nil
  ) {
    self.covers = covers
    self.table = table
    self.userID = userID ?? CurrentProcess.userID
  }

  deinit {
    stop()
  }

  /// Scans on a thread of its own that sleeps in `poll` on a wake pipe between
  /// scans: one wake-up per scan, none for the handing over of a result that
  /// did not change (a timer task would wake the executor's threads each time).
  public func events(idleAfter: Duration) -> AsyncStream<DesktopEvent> {
    let (covers, table, userID) = (self.covers, self.table, self.userID)
    return scanner.events { wake, continuation in
      var last: [AppIdentity]?
      while true {
        let running = table.identities(ownedBy: userID).filter(covers)
        if running != last {
          continuation.yield(.running(running))
          last = running
        }
        // Ready: stop() wrote its byte, or the pipe failed; either way the scans end.
        guard let ready = try? Poll.readable([wake], timeout: Self.scanInterval), ready.isEmpty else { return }
      }
    }
  }

  /// Cannot hide: without a window system there is no window to hide.
  ///
  /// - Throws: Always a ``DesktopError`` saying so; the caller closes the app instead.
  public func hide(where matches: @escaping @Sendable (AppIdentity) -> Bool) async throws(DesktopError) -> Int {
    throw DesktopError(
      "the process fallback cannot hide an app: no window system is watched, so there is no window to hide")
  }

  /// Sends SIGTERM to every process of the user whose identity matches.
  ///
  /// - Returns: The pids that were sent SIGTERM (one that ended meanwhile is left out).
  public func close(where matches: @escaping @Sendable (AppIdentity) -> Bool) async throws(DesktopError) -> [Int32] {
    let (table, userID) = (self.table, self.userID)
    return await onOwnThread {
      table.identities(ownedBy: userID).filter(matches).compactMap { identity in
        guard let pid = identity.pid, pid != CurrentProcess.id else { return nil }
        return (try? Signal.terminate.send(to: pid)) != nil ? pid : nil
      }
    }
  }

  public func stop() {
    scanner.fire()
  }
}
