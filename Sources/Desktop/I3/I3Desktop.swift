import JSON
public import Model
import Posix
import Spawn
import Synchronization

/// i3 or sway, through their IPC socket (`$I3SOCK`, `$SWAYSOCK`): focus from
/// `window` and `workspace` events, hide with `move scratchpad`, close with `kill`.
///
/// Two connections: one subscribed to `window`, `workspace` and `shutdown`
/// events, read by a thread of its own that blocks in `poll` (with a pipe
/// that ``stop()`` writes to), so nothing wakes while nothing changes; and
/// one for commands and `GET_TREE`, used under a lock and made again when a
/// fault dropped it. sway speaks the same protocol; its tree tells each
/// window's `pid` and `app_id`, i3's tells the X11 window instead.
public final class I3Desktop: DesktopBackend {
  public let kind: DesktopKind
  public let countingSource = CountingSource.focus
  /// The IPC socket's path.
  public let socketPath: String

  public var limitations: [String] {
    kind == .sway
      ? [
        "input idle, the screen saver and the lock are not visible (sway's IPC does not report them)",
        "idle inhibition (a video playing) is not visible",
      ]
      : ["input idle and the screen saver are seen only through the X display (i3's IPC does not report them)"]
  }

  /// Finds the names i3 does not tell (the pid) from a window's X11 id; set once before ``events(idleAfter:)``.
  private let xIdentity: (@Sendable (UInt32) -> AppIdentity?)?
  private let commands: Mutex<I3Connection?>
  /// Stops the event thread.
  private let reader = StopSignal()

  /// Connects to the IPC socket at `socketPath` and checks that it answers `GET_VERSION`.
  ///
  /// - Parameters:
  ///   - kind: ``DesktopKind/i3`` or ``DesktopKind/sway`` (the same protocol).
  ///   - xIdentity: Under i3, the names of the app behind an X11 window (its
  ///     pid from `_NET_WM_PID` or the X-Resource extension), which i3's tree lacks.
  /// - Throws: ``DesktopError`` when nothing answers there.
  public init(
    socketPath: String, kind: DesktopKind = .i3, xIdentity: (@Sendable (UInt32) -> AppIdentity?)? = nil
  ) throws(DesktopError) {
    self.socketPath = socketPath
    self.kind = kind
    self.xIdentity = xIdentity
    let connection = try I3Connection(path: socketPath)
    let version = try connection.request(.getVersion)
    guard version["major"]?.integerValue != nil else {
      connection.close()
      throw DesktopError("the IPC socket \(socketPath) answered GET_VERSION without a version")
    }
    commands = Mutex(connection)
  }

  deinit {
    stop()
    commands.withLock { $0?.close() }
  }

  // MARK: Commands

  /// Sends a request on the command connection (connecting again if a fault dropped it).
  ///
  /// Any fault drops the connection, so that a half-read reply never lingers into the next request.
  func request(_ type: I3MessageType, _ payload: String = "") throws(DesktopError) -> JSONValue {
    let result: Result<JSONValue, DesktopError> = commands.withLock { connection in
      do throws(DesktopError) {
        if connection == nil { connection = try I3Connection(path: socketPath) }
        guard let live = connection else { throw DesktopError("no IPC connection") }
        return .success(try live.request(type, payload))
      } catch {
        connection?.close()
        connection = nil
        return .failure(error)
      }
    }
    return try result.get()
  }

  /// The tree's windows and focus, each window's names completed through ``xIdentity``.
  func tree() throws(DesktopError) -> I3Tree {
    var tree = I3Tree(try request(.getTree))
    if let xIdentity {
      let complete = { (window: I3Window) -> I3Window in
        guard let id = window.xWindow, let found = xIdentity(id) else { return window }
        var window = window
        window.app = window.app.filling(from: found)
        return window
      }
      tree.windows = tree.windows.map(complete)
      tree.focused = tree.focused.map(complete)
    }
    return tree
  }

  /// Runs one command and checks every result's `success`.
  func run(_ command: String) throws(DesktopError) {
    let reply = try request(.runCommand, command)
    guard let results = reply.arrayValue, !results.isEmpty else {
      throw DesktopError("'\(command)' got a reply that is not a list of results")
    }
    for result in results where result["success"]?.boolValue != true {
      let why = result["error"]?.stringValue ?? "no reason given"
      throw DesktopError("'\(command)' failed: \(why)")
    }
  }

  public func hide(where matches: @escaping @Sendable (AppIdentity) -> Bool) async throws(DesktopError) -> Int {
    try await onOwnThread { () throws(DesktopError) -> Int in
      let windows = try self.tree().windows.filter { !$0.isInScratchpad && matches($0.app) }
      for window in windows { try self.run("[con_id=\(window.containerID)] move scratchpad") }
      return windows.count
    }
  }

  public func close(where matches: @escaping @Sendable (AppIdentity) -> Bool) async throws(DesktopError) -> [Int32] {
    try await onOwnThread { () throws(DesktopError) -> [Int32] in
      let windows = try self.tree().windows.filter { matches($0.app) }
      for window in windows { try self.run("[con_id=\(window.containerID)] kill") }
      var pids: [Int32] = []
      for pid in windows.compactMap(\.app.pid) where !pids.contains(pid) { pids.append(pid) }
      return pids
    }
  }

  // MARK: Events

  public func events(idleAfter: Duration) -> AsyncStream<DesktopEvent> {
    reader.events { [self] wake, continuation in
      if let reason = watch(wake: wake, continuation: continuation) { continuation.yield(.lost(reason)) }
    }
  }

  /// How long i3 may take to answer on its socket again after `restart`.
  static let restartTimeout = Duration.seconds(10)

  /// How a run of ``readEvents(from:wake:focus:)`` ended.
  private enum End {
    case stopped
    case lost(String)
    /// i3 restarts in place (`restart`): its socket comes back.
    case restarting
  }

  /// Connects the event connection, subscribes, reports the focus and then
  /// every change; connects again after i3 restarts in place.
  ///
  /// - Returns: Why the desktop was lost, or `nil` when it was stopped.
  private func watch(wake: FileDescriptor, continuation: AsyncStream<DesktopEvent>.Continuation) -> String? {
    var focus = FocusTracker(continuation: continuation)
    // Set while i3 restarts: until then a failure to connect or subscribe is tried again.
    var restartDeadline: ContinuousClock.Instant?
    while true {
      let end: End
      do throws(DesktopError) {
        let events = try I3Connection(path: socketPath)
        defer { events.close() }
        let reply = try events.request(.subscribe, #"["window","workspace","shutdown"]"#)
        guard reply["success"]?.boolValue == true else {
          throw DesktopError("the IPC socket \(socketPath) refused the subscription to window events")
        }
        // A window closed while no connection listened would be remembered for ever.
        focus.forgetAll()
        // Subscribed before the tree is read: a change in between arrives as an event, not lost.
        focus.report(try tree().focused)
        restartDeadline = nil
        end = try readEvents(from: events, wake: wake, focus: &focus)
      } catch {
        guard let deadline = restartDeadline else { return error.message }
        guard ContinuousClock.now < deadline else {
          return "\(kind) restarted, but its socket did not answer again within 10 s: \(error.message)"
        }
        // The one place that retries on a timer: i3 gives no sign when it is back, and it is
        // back within moments; outside a restart nothing here runs.
        if let ready = try? Poll.readable([wake], timeout: .milliseconds(50)), !ready.isEmpty { return nil }
        continue
      }
      switch end {
      case .stopped: return nil
      case .lost(let reason): return reason
      case .restarting: restartDeadline = ContinuousClock.now + Self.restartTimeout
      }
    }
  }

  /// Reads events until the socket fails or closes, i3 shuts down, or ``stop()`` wakes it.
  private func readEvents(
    from events: I3Connection, wake: FileDescriptor, focus: inout FocusTracker
  ) throws(DesktopError) -> End {
    while true {
      guard case .message(let type, let payload) = try events.receive(wake: wake, deadline: nil) else {
        return .stopped
      }
      let event = try I3Connection.parse(payload, from: socketPath)
      switch type {
      case .windowEvent:
        try windowEvent(event, focus: &focus)
      case .workspaceEvent:
        // Onto an empty workspace no window event follows; the tree says what has the focus.
        if event["change"]?.stringValue == "focus" { focus.report(try tree().focused) }
      case .shutdownEvent:
        let change = event["change"]?.stringValue ?? "exit"
        if change == "restart" { return .restarting }
        return .lost("\(kind) is shutting down (\(change))")
      default:
        continue
      }
    }
  }

  private func windowEvent(_ event: JSONValue, focus: inout FocusTracker) throws(DesktopError) {
    guard let container = event["container"] else { return }
    switch event["change"]?.stringValue {
    case "focus":
      guard var window = I3Window(container: container, workspace: nil) else { return }
      if let xIdentity, let id = window.xWindow {
        let key = FocusTracker.WindowKey(container: window.containerID, xWindow: id)
        if let found = focus.xIdentities[key] ?? xIdentity(id) {
          focus.remember(found, for: key)
          window.app = window.app.filling(from: found)
        }
      }
      focus.report(window)
    case "close":
      if let id = container["id"]?.integerValue { focus.forget(container: id) }
      if container["id"]?.integerValue == focus.last??.containerID { focus.report(try tree().focused) }
    case "move", "floating":
      // The focused window went away or to the scratchpad: what has the focus now may send no event.
      if container["id"]?.integerValue == focus.last??.containerID { focus.report(try tree().focused) }
    default:
      // `title` and `mark` change nothing the meter sees; `new` is followed by `focus`.
      break
    }
  }

  public func stop() {
    reader.fire()
  }
}

/// Reports a focus only when it differs from the last one reported, and
/// keeps what the X server said of each window while it lives.
private struct FocusTracker {
  /// An X11 window in its i3 container: X reuses window ids and i3 container
  /// ids once they are gone, so an entry lasts until i3 says it closed.
  struct WindowKey: Hashable {
    var container: Int64
    var xWindow: UInt32
  }

  /// How many windows' X identities are kept at most.
  static let knownWindows = 256

  let continuation: AsyncStream<DesktopEvent>.Continuation
  /// `nil`: nothing reported yet; `.some(nil)`: no window had the focus.
  var last: I3Window??
  /// The names and pid the X server gave for each window seen in front: one
  /// round trip to the X server less for every focus change but the first.
  private(set) var xIdentities: [WindowKey: AppIdentity] = [:]

  mutating func remember(_ identity: AppIdentity, for key: WindowKey) {
    if xIdentities[key] == nil, xIdentities.count >= Self.knownWindows { xIdentities.removeAll(keepingCapacity: true) }
    xIdentities[key] = identity
  }

  mutating func forgetAll() {
    xIdentities.removeAll()
  }

  mutating func forget(container: Int64) {
    for key in xIdentities.keys where key.container == container { xIdentities[key] = nil }
  }

  init(continuation: AsyncStream<DesktopEvent>.Continuation) {
    self.continuation = continuation
  }

  mutating func report(_ window: I3Window?) {
    if let last, last?.containerID == window?.containerID, last?.app == window?.app { return }
    last = .some(window)
    continuation.yield(.focus(window?.focused))
  }
}
