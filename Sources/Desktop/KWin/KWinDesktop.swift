import DBus
public import Model
import Posix
import Synchronization

/// KDE's KWin (Plasma 5.27 and 6, X11 and Wayland), through a script of ours
/// that KWin runs and that calls this backend back over the session bus.
///
/// The backend opens its own connection to the session bus and exports
/// ``KWinScript/interface`` there. On ``events(idleAfter:)`` it writes the
/// focus script into a private folder (mode 0700, the file 0600) and loads
/// it with `org.kde.kwin.Scripting.loadScript` and `start`; the script calls
/// `Activated` for the window active at load and on each activation, with
/// `resourceClass`, `resourceName`, `desktopFileName`, `pid` and KWin's
/// internal id, never the caption. `hide` and `close` load a one-shot
/// script that lists the windows (`Windows`), minimizes or closes those
/// whose ids the reply names, and says how many (`Done`); it is unloaded
/// then. Calls are accepted only from the current owner of `org.kde.KWin`:
/// any other sender gets `AccessDenied` and is reported once as a
/// ``DesktopEvent/notice(_:)`` (each sender once, the first 32 senders).
/// When `org.kde.KWin` changes owner (KWin restarted) the focus script is
/// loaded into the new one and a notice says so; when it has no owner for
/// ``restartTimeout`` (10 s) the backend is lost.
/// ``stop()`` unloads the script.
public final class KWinDesktop: DesktopBackend {
  public let kind = DesktopKind.kwin
  public let countingSource = CountingSource.focus
  public let limitations: [String]

  /// KWin's name on the session bus.
  static let busName = KWinScriptingInterface.busName.rawValue
  /// How long KWin may be away from the bus (a restart) before the backend is lost.
  static let restartTimeout = Duration.seconds(10)
  /// How long a `hide` or `close` waits for its one-shot script.
  static let requestTimeout = Duration.seconds(5)
  /// How long each call to KWin's scripting interface may take.
  static let callTimeout = Duration.seconds(5)

  private let connection: Connection
  private let kwin: BusName

  /// The unique bus name the scripts call back (this backend's own connection).
  public var callbackName: String { connection.uniqueName.rawValue }
  /// The private folder the scripts are written to; removed by ``stop()``.
  private let folder: String
  /// Prefix of our plugin names: unique per connection, so a second backend
  /// (`shieldbridge desktop` beside the service) never replaces this one's script.
  private let pluginPrefix: String
  private let state = Mutex(State())

  /// While KWin is away from the bus (a restart): that nothing is seen until it is back.
  public var attention: String? {
    state.withLock { $0.awayTimer == nil || $0.stopped ? nil : Self.awayText }
  }

  private static var awayText: String {
    "KWin left the session bus (\(busName) has no owner), so no focus is seen: waiting up to "
      + "\(restartTimeout.components.seconds) s for it to come back"
  }

  private struct State {
    var continuation: AsyncStream<DesktopEvent>.Continuation?
    var tracker: NameOwnerTracker?
    /// The owner of `org.kde.KWin` the focus script is loaded into, and the plugin name it has there.
    var loaded: (owner: BusName, plugin: String)?
    var generation = 0
    var pending: [String: Pending] = [:]
    var nextRequest = 1
    /// Senders already reported for calls they may not make.
    var refused = RefusedSenders()
    /// `nil`: nothing reported yet; `.some(nil)`: no window had the focus.
    var lastFocus: FocusedWindow??
    var awayTimer: Task<Void, Never>?
    var stopped = false
  }

  /// A `hide` or `close` waiting for its one-shot script.
  private struct Pending {
    var action: KWinScript.Action
    var matches: @Sendable (AppIdentity) -> Bool
    var pids: [Int32] = []
    var resume: @Sendable (Result<(Int, [Int32]), DesktopError>) -> Void
  }

  /// Connects to the session bus at `busAddress` and checks that `org.kde.KWin` has an owner there.
  ///
  /// - Parameters:
  ///   - busAddress: The session bus (`DBUS_SESSION_BUS_ADDRESS` of the environment given to
  ///     ``DesktopChoice/open(environment:covers:)``).
  ///   - runtimeFolder: Where the private folder for the scripts is made (`XDG_RUNTIME_DIR`, or `/tmp`).
  ///   - limitations: What this session cannot see (input idle on Wayland, for example).
  /// - Throws: ``DesktopError`` when the bus cannot be reached or KWin is not on it.
  public init(busAddress: String, runtimeFolder: String, limitations: [String] = []) throws(DesktopError) {
    self.limitations = limitations
    do throws(DBusError) {
      connection = try Connection(.address(busAddress), timeout: .seconds(5))
      kwin = KWinScriptingInterface.busName
    } catch {
      throw DesktopError("cannot connect to the session bus \(busAddress): \(error)")
    }
    guard (try? connection.nameOwnerBlocking(kwin, timeout: .seconds(2))) != nil else {
      connection.close()
      throw DesktopError("\(Self.busName) has no owner on the session bus (is KWin running?)")
    }
    pluginPrefix = Self.pluginPrefix(for: connection.uniqueName.rawValue)
    do {
      folder = try FileSystem.makeTemporaryDirectory(prefix: runtimeFolder + "/shieldbridge-kwin-")
    } catch {
      connection.close()
      throw DesktopError("cannot make a private folder for the KWin script in \(runtimeFolder): \(error)")
    }
    do throws(DBusError) {
      try connection.export([try callbacks()], at: try ObjectPath(KWinScript.path))
    } catch {
      connection.close()
      FileSystem.removeTree(folder)
      throw DesktopError("cannot export the KWin script's callbacks: \(error)")
    }
    connection.onDisconnect { [weak self] error in self?.lose("the session bus connection closed: \(error)") }
  }

  deinit {
    stop()
  }

  // MARK: Events

  public func events(idleAfter: Duration) -> AsyncStream<DesktopEvent> {
    let (stream, continuation) = AsyncStream.makeStream(of: DesktopEvent.self)
    let stopped = state.withLock { state in
      if !state.stopped { state.continuation = continuation }
      return state.stopped
    }
    guard !stopped else {
      continuation.finish()
      return stream
    }
    continuation.onTermination = { [weak self] _ in self?.stop() }
    Task { await self.begin() }
    return stream
  }

  /// Tracks the owner of `org.kde.KWin` and loads the focus script into it.
  private func begin() async {
    let tracker: NameOwnerTracker
    do {
      tracker = try await NameOwnerTracker.track(kwin, on: connection)
    } catch {
      lose("cannot follow the owner of \(Self.busName): \(error)")
      return
    }
    state.withLock { $0.tracker = tracker }
    tracker.addObserver { [weak self] owner in self?.ownerChanged(owner) }
    guard let owner = tracker.owner else {
      ownerChanged(nil)
      return
    }
    do throws(DesktopError) {
      try await loadFocusScript(into: owner)
    } catch {
      lose(error.message)
    }
  }

  /// KWin left the bus, or a new KWin took its name.
  private func ownerChanged(_ owner: BusName?) {
    let (failed, timer) = state.withLock { state in
      let failed = state.pending.values.map(\.resume)
      state.pending = [:]
      let timer = state.awayTimer
      state.awayTimer = nil
      return (failed, timer)
    }
    timer?.cancel()
    for resume in failed { resume(.failure(DesktopError("KWin left the session bus during the request"))) }
    guard let owner else {
      let away = Task { [weak self] in
        guard (try? await Task.sleep(for: Self.restartTimeout)) != nil else { return }
        self?.lose(
          "KWin left the session bus (\(Self.busName) has no owner) and did not come back within "
            + "\(Self.restartTimeout.components.seconds) s")
      }
      state.withLock { state in
        if state.stopped { away.cancel() } else { state.awayTimer = away }
      }
      // Said (and shown as ``attention``) as GNOME Shell's backend does, so that the log shows why nothing counts.
      yield(.notice(Self.awayText))
      // Nothing is seen in front while KWin is away; the meter stops counting the last window.
      report(nil)
      return
    }
    Task { [weak self] in
      guard let self else { return }
      do throws(DesktopError) {
        let first = state.withLock { $0.loaded == nil }
        try await loadFocusScript(into: owner)
        if !first {
          yield(.notice("KWin restarted (\(Self.busName) is now \(owner)); the focus script was loaded again"))
        }
      } catch {
        lose("KWin restarted, but the focus script could not be loaded again: \(error.message)")
      }
    }
  }

  /// Writes the focus script and loads it into `owner`, retrying for a few seconds while a
  /// KWin that just took its name has not yet exported its scripting object.
  private func loadFocusScript(into owner: BusName) async throws(DesktopError) {
    let (plugin, previous) = state.withLock { state in
      state.generation += 1
      return ("\(pluginPrefix)-focus-\(state.generation)", state.loaded)
    }
    let path = folder + "/focus.js"
    try write(KWinScript.focus(service: connection.uniqueName.rawValue), to: path)
    if let previous, previous.owner == owner {
      await unload(previous.plugin, from: owner)
    }
    let deadline = ContinuousClock.now + Self.restartTimeout
    while true {
      do throws(DesktopError) {
        try await load(path, as: plugin, into: owner)
        break
      } catch {
        // The tracker follows the owner as the bus tells it; a blocking GetNameOwner here would hold a thread.
        guard ContinuousClock.now < deadline, state.withLock({ $0.tracker?.owner }) == owner else { throw error }
        // The one timer here: a new KWin owns its name a moment before it exports /Scripting.
        try? await Task.sleep(for: .milliseconds(100))
      }
    }
    let stillWanted = state.withLock { state in
      guard !state.stopped else { return false }
      state.loaded = (owner, plugin)
      return true
    }
    if !stillWanted { await unload(plugin, from: owner) }
  }

  /// `loadScript(path, plugin)` and `start` on `owner`'s `/Scripting`.
  private func load(_ path: String, as plugin: String, into owner: BusName) async throws(DesktopError) {
    let id: Int32
    do {
      id = try await connection.call(
        KWinScriptingInterface.loadScript, destination: owner, path: KWinScriptingInterface.path, path, plugin,
        timeout: Self.callTimeout)
    } catch {
      throw DesktopError("KWin's loadScript failed: \(error)")
    }
    guard id >= 0 else {
      throw DesktopError("KWin refused to load the script \(path) as \(plugin) (loadScript answered \(id))")
    }
    do {
      try await connection.call(
        KWinScriptingInterface.start, destination: owner, path: KWinScriptingInterface.path, timeout: Self.callTimeout)
    } catch {
      throw DesktopError("KWin's start failed: \(error)")
    }
  }

  /// `unloadScript(plugin)` on `owner`'s `/Scripting`; whether KWin had it, `nil` when the call failed.
  @discardableResult
  private func unload(_ plugin: String, from owner: BusName) async -> Bool? {
    try? await connection.call(
      KWinScriptingInterface.unloadScript, destination: owner, path: KWinScriptingInterface.path, plugin,
      timeout: Self.callTimeout)
  }

  private func write(_ script: String, to path: String) throws(DesktopError) {
    do {
      try FileSystem.replaceAtomically(path, with: Array(script.utf8), permissions: 0o600)
    } catch {
      throw DesktopError("cannot write the KWin script \(path): \(error)")
    }
  }

  // MARK: Callbacks

  /// The methods the scripts call.
  private func callbacks() throws(DBusError) -> Interface {
    try Interface(
      KWinScriptInterface.contract,
      methods: [
        Method(KWinScriptInterface.activated) { [weak self] call, resourceClass, resourceName, desktopFile, pid, id in
          try self?.check(call)
          guard !id.isEmpty else {
            self?.report(nil)
            return
          }
          let window = KWinWindow(
            id: id, resourceClass: resourceClass, resourceName: resourceName, desktopFileName: desktopFile,
            pid: Int64(pid), minimized: false)
          self?.report(FocusedWindow(window: KWinWindow.windowID(of: id), app: window.app))
        },
        Method(
          KWinScriptInterface.windows,
          async: { [weak self] call, request, json in
            guard let self else { return "" }
            try check(call)
            return try choose(request: request, json: json)
          }),
        Method(KWinScriptInterface.done) { [weak self] call, request, acted in
          try self?.check(call)
          self?.finish(request: request, acted: Int(max(0, acted)))
        },
      ])
  }

  /// Throws `AccessDenied` unless `call` comes from the current owner of `org.kde.KWin`; reports a new sender once.
  private func check(_ call: MethodCall) throws(DBusError) {
    let notice = state.withLock { state -> String?? in
      if let sender = call.sender, let owner = state.tracker?.owner, owner == sender { return .none }
      let member = call.message.member?.rawValue ?? "a call"
      return .some(state.refused.notice(ignoring: member, from: call.sender, owner: Self.busName))
    }
    guard case .some(let text) = notice else { return }
    if let text { yield(.notice(text)) }
    throw DBusError(.accessDenied, "only the owner of \(Self.busName) may call this")
  }

  /// Reports a focus only when it differs from the last one reported.
  private func report(_ window: FocusedWindow?) {
    let changed = state.withLock { state in
      if let last = state.lastFocus, last == window { return false }
      state.lastFocus = .some(window)
      return true
    }
    if changed { yield(.focus(window)) }
  }

  private func yield(_ event: DesktopEvent) {
    _ = state.withLock { $0.continuation }?.yield(event)
  }

  /// The ids a one-shot script should act on, from its window list; unknown requests get none.
  private func choose(request: String, json: String) throws(DBusError) -> String {
    guard let pending = state.withLock({ $0.pending[request] }) else { return "" }
    let windows: [KWinWindow]
    do { windows = try KWinWindow.list(fromJSON: json) } catch {
      throw DBusError(.invalidArgs, error.message)
    }
    let chosen = windows.filter { window in
      (pending.action == .close || !window.minimized) && pending.matches(window.app)
    }
    var pids: [Int32] = []
    for pid in chosen.compactMap(\.app.pid) where !pids.contains(pid) { pids.append(pid) }
    state.withLock { $0.pending[request]?.pids = pids }
    return chosen.map(\.id).joined(separator: " ")
  }

  /// A one-shot script's `Done`: ends its request.
  private func finish(request: String, acted: Int) {
    guard let pending = state.withLock({ $0.pending.removeValue(forKey: request) }) else { return }
    pending.resume(.success((acted, pending.pids)))
  }

  // MARK: Actions

  public func hide(where matches: @escaping @Sendable (AppIdentity) -> Bool) async throws(DesktopError) -> Int {
    try await perform(.hide, matches: matches).count
  }

  public func close(where matches: @escaping @Sendable (AppIdentity) -> Bool) async throws(DesktopError) -> [Int32] {
    try await perform(.close, matches: matches).pids
  }

  /// Loads a one-shot script for `action`, waits for its `Done` (at most ``requestTimeout``), unloads it.
  private func perform(_ action: KWinScript.Action, matches: @escaping @Sendable (AppIdentity) -> Bool)
    async throws(DesktopError) -> (count: Int, pids: [Int32])
  {
    let (owner, number) = state.withLock { state in
      defer { state.nextRequest += 1 }
      return (state.stopped ? nil : state.loaded?.owner, state.nextRequest)
    }
    guard let owner else { throw DesktopError("KWin's focus script is not loaded (KWin is away, or stopped)") }
    let request = String(number)
    let plugin = "\(pluginPrefix)-\(action.rawValue)-\(request)"
    let path = folder + "/\(action.rawValue)-\(request).js"
    try write(KWinScript.command(service: connection.uniqueName.rawValue, request: request, action: action), to: path)
    defer { try? FileSystem.removeFile(path) }
    let timer = Mutex<Task<Void, Never>?>(nil)
    defer { timer.withLock { $0?.cancel() } }
    let result: Result<(Int, [Int32]), DesktopError> = await withCheckedContinuation { continuation in
      let once = Mutex(false)
      let resume: @Sendable (Result<(Int, [Int32]), DesktopError>) -> Void = { result in
        let first = once.withLock { done in
          defer { done = true }
          return !done
        }
        if first { continuation.resume(returning: result) }
      }
      state.withLock { $0.pending[request] = Pending(action: action, matches: matches, resume: resume) }
      Task {
        do throws(DesktopError) {
          try await load(path, as: plugin, into: owner)
        } catch {
          _ = state.withLock { $0.pending.removeValue(forKey: request) }
          resume(.failure(error))
        }
      }
      // Cancelled once the request ends, so that no sleeping task outlives it.
      let timeout = Task { [weak self] in
        guard (try? await Task.sleep(for: Self.requestTimeout)) != nil, let self,
          state.withLock({ $0.pending.removeValue(forKey: request) }) != nil
        else { return }
        let seconds = Self.requestTimeout.components.seconds
        resume(.failure(DesktopError("KWin's script did not finish the \(action.rawValue) within \(seconds) s")))
      }
      timer.withLock { $0 = timeout }
    }
    await unload(plugin, from: owner)
    await reloadIfUnloaded(owner)
    let (count, pids) = try result.get()
    return (count, pids)
  }

  /// Loads the focus script again when someone unloaded it from `owner` (KWin's debug console, a
  /// stray `unloadScript`): KWin tells no one, so each hide and close asks.
  private func reloadIfUnloaded(_ owner: BusName) async {
    guard let plugin = state.withLock({ $0.loaded?.owner == owner ? $0.loaded?.plugin : nil }),
      let loaded = try? await connection.call(
        KWinScriptingInterface.isScriptLoaded, destination: owner, path: KWinScriptingInterface.path, plugin,
        timeout: Self.callTimeout),
      !loaded
    else { return }
    do throws(DesktopError) {
      try await loadFocusScript(into: owner)
      yield(.notice("KWin's focus script \(plugin) had been unloaded; it was loaded again"))
    } catch {
      yield(.notice("KWin's focus script \(plugin) had been unloaded and could not be loaded again: \(error)"))
    }
  }

  // MARK: Ending

  /// Reports `.lost(reason)` once and ends the stream.
  private func lose(_ reason: String) {
    let continuation = state.withLock { state -> AsyncStream<DesktopEvent>.Continuation? in
      guard !state.stopped else { return nil }
      defer { state.continuation = nil }
      return state.continuation
    }
    continuation?.yield(.lost(reason))
    continuation?.finish()
    stop()
  }

  public func stop() {
    let ending = state.withLock { state in
      defer {
        state.stopped = true
        state.continuation = nil
        state.awayTimer = nil
        state.pending = [:]
      }
      return state.stopped
        ? nil : (state.continuation, state.loaded, state.awayTimer, Array(state.pending.values.map(\.resume)))
    }
    guard let (continuation, loaded, timer, pending) = ending else { return }
    timer?.cancel()
    for resume in pending { resume(.failure(DesktopError("the KWin backend was stopped"))) }
    if let loaded,
      let message = try? KWinScriptingInterface.unloadScript.message(
        destination: loaded.owner, path: KWinScriptingInterface.path, loaded.plugin)
    {
      // Sent without waiting: stop must not block; close flushes it first.
      try? connection.send(message)
    }
    continuation?.finish()
    connection.close()
    FileSystem.removeTree(folder)
  }
}

extension KWinDesktop {
  /// `shieldbridge-1_234` for the connection `:1.234`: the unique name in
  /// letters KWin takes in a plugin name, kept whole so that `:1.234` and
  /// `:12.34` never share one.
  static func pluginPrefix(for uniqueName: String) -> String {
    "shieldbridge-"
      + String(
        uniqueName.unicodeScalars.compactMap { scalar -> Character? in
          if ("0"..."9").contains(scalar) { return Character(scalar) }
          return scalar == "." ? "_" : nil
        })
  }
}
