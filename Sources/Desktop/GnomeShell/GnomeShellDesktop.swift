import DBus
public import Model
import Synchronization

/// GNOME Shell (Wayland or X11), through ShieldBridge's shell extension: focus
/// from the extension's `FocusChanged`, hide with `minimize()`, close with
/// `delete()`; input idle from Mutter's `IdleMonitor`, the lock from the
/// shell's `org.gnome.ScreenSaver`.
///
/// The backend has a session-bus connection of its own. It accepts what it
/// hears only from the current owner of each name it tracks
/// (`org.gnome.Shell` for the extension and its state, the idle monitor's
/// and the screen saver's owners for theirs): a call or signal from any
/// other sender is ignored, and said once as a ``DesktopEvent/notice(_:)``.
/// When the extension is missing or disabled, ``attention`` says what to
/// run, and the backend waits for the shell's `ExtensionStateChanged` to
/// try again; when GNOME Shell restarts, it waits for it (and the extension)
/// to come back for ``restartTimeout`` before it reports the desktop lost.
public final class GnomeShellDesktop: DesktopBackend {
  public let kind = DesktopKind.gnome
  public let countingSource = CountingSource.focus
  /// How long GNOME Shell may stay away from the bus before the desktop is lost.
  public let restartTimeout: Duration
  /// How long after the extension refused `Watch` it is asked again: it serves only the process
  /// that owns the service's name, which the service asks for after it opened the desktop.
  static let refusedRetry = Duration.seconds(1)

  public var limitations: [String] {
    ["idle inhibition (a video playing) is not visible: GNOME's session manager keeps it"]
  }

  public var attention: String? { shared.withLock { $0.extensionState.attention } }

  let connection: Connection
  let shared = Mutex(Shared())
  private let inputs: AsyncStream<Input>
  private let input: AsyncStream<Input>.Continuation

  /// What the event loop and the actions both read.
  struct Shared {
    var extensionState = ExtensionState.starting
    /// The owner of `org.gnome.Shell` whose extension answered `Watch`.
    var watched: BusName?
    /// The senders already said to have sent what they may not (the signal handlers judge them too).
    var refused = RefusedSenders()
    var started = false
    var stopped = false
  }

  /// What the event loop is told, in the order the connection dispatched it.
  enum Input: Sendable {
    /// A signal, with the owners of the names it may come from when it arrived.
    case signal(Message, owners: Owners)
    /// A signal ignored where it was dispatched, said in order with the rest.
    case notice(String)
    /// A tracked name has a new owner, or none.
    case owner(TrackedName, BusName?)
    /// The deadline for the shell's return after its departure number so-and-so.
    case restartTimedOut(Int)
    /// Time to ask the starting shell again about its extension, in the shell's stay number so-and-so.
    case askAgain(Int)
    /// Time to call `Watch` again after the extension refused it, in the shell's stay number so-and-so.
    case watchAgain(Int)
    case disconnected(String)
    case stop
  }

  /// The names whose owners are tracked.
  enum TrackedName: Sendable {
    case shell
    case idleMonitor
    case screenSaver
  }

  /// The owners of the tracked names as a signal arrived: only they may send it.
  struct Owners: Sendable {
    var shell: BusName?
    var idleMonitor: BusName?
    var screenSaver: BusName?
  }

  /// Connects to the session bus at `address` (its own connection).
  ///
  /// - Parameters:
  ///   - restartTimeout: How long GNOME Shell may be away before the desktop is lost.
  ///   - requiringShell: Whether to fail when `org.gnome.Shell` has no owner now (for
  ///     `"desktop": "auto"`); otherwise the backend waits for the shell.
  /// - Throws: ``DesktopError`` when the bus cannot be reached, or GNOME Shell is required and not on it.
  public init(address: String, restartTimeout: Duration = .seconds(60), requiringShell: Bool = false)
    throws(DesktopError)
  {
    do {
      connection = try Connection(.address(address), timeout: .seconds(5))
    } catch {
      throw DesktopError("cannot connect to the session bus at \(address): \(error.message)")
    }
    if requiringShell {
      guard (try? connection.nameOwnerBlocking(ShellNames.shell, timeout: .seconds(2))) != nil else {
        connection.close()
        throw DesktopError("\(ShellNames.shell) has no owner on the session bus (is GNOME Shell running?)")
      }
    }
    self.restartTimeout = restartTimeout
    (inputs, input) = AsyncStream.makeStream(of: Input.self)
  }

  deinit {
    stop()
    connection.close()
  }

  // MARK: Events

  public func events(idleAfter: Duration) -> AsyncStream<DesktopEvent> {
    let (stream, continuation) = AsyncStream.makeStream(of: DesktopEvent.self)
    let first = shared.withLock { shared in
      defer { shared.started = true }
      return !shared.started && !shared.stopped
    }
    guard first else {
      continuation.finish()
      return stream
    }
    let watch = ShellWatch(desktop: self, output: continuation, idleAfter: idleAfter)
    let inputs = self.inputs
    Task {
      await watch.run(inputs)
      continuation.finish()
    }
    continuation.onTermination = { [weak self] _ in self?.stop() }
    return stream
  }

  /// Passes what the connection dispatched on to the event loop.
  func deliver(_ value: Input) {
    input.yield(value)
  }

  public func stop() {
    let first = shared.withLock { shared in
      defer { shared.stopped = true }
      return !shared.stopped
    }
    guard first else { return }
    input.yield(.stop)
    input.finish()
  }

  // MARK: Actions

  /// The windows the extension lists, from the shell owner it serves.
  private func windows() async throws(DesktopError) -> (owner: BusName, windows: [ShellWindow]) {
    let owner: BusName? = shared.withLock { $0.watched }
    guard let owner else {
      throw DesktopError(attention ?? "the GNOME Shell extension \(ShellNames.uuid) does not answer")
    }
    do {
      let list = try await connection.call(
        ShellExtensionInterface.listWindows, destination: owner, path: ShellNames.extensionPath,
        timeout: .seconds(2))
      return (owner, list.compactMap(ShellWindow.init))
    } catch {
      throw DesktopError("the GNOME Shell extension did not list its windows: \(error.message)")
    }
  }

  /// Calls `Hide` or `Close` with `ids`; the ids of the windows it acted on (a window that has closed is not among them).
  private func act(
    _ method: MethodContract<([UInt64]) -> [UInt64]>, on ids: [UInt64], at owner: BusName
  ) async throws(DesktopError) -> Set<UInt64> {
    guard !ids.isEmpty else { return [] }
    do {
      let acted = try await connection.call(
        method, destination: owner, path: ShellNames.extensionPath, ids, timeout: .seconds(2))
      return Set(acted)
    } catch {
      throw DesktopError("the GNOME Shell extension did not answer \(method.name): \(error.message)")
    }
  }

  public func hide(where matches: @escaping @Sendable (AppIdentity) -> Bool) async throws(DesktopError) -> Int {
    let (owner, windows) = try await windows()
    let ids = windows.filter { !$0.isMinimized && matches($0.app) }.map(\.id.rawValue)
    return try await act(ShellExtensionInterface.hide, on: ids, at: owner).count
  }

  public func close(where matches: @escaping @Sendable (AppIdentity) -> Bool) async throws(DesktopError) -> [Int32] {
    let (owner, windows) = try await windows()
    let chosen = windows.filter { matches($0.app) }
    let closed = try await act(ShellExtensionInterface.close, on: chosen.map(\.id.rawValue), at: owner)
    var pids: [Int32] = []
    for window in chosen where closed.contains(window.id.rawValue) {
      if let pid = window.app.pid, !pids.contains(pid) { pids.append(pid) }
    }
    return pids
  }
}
