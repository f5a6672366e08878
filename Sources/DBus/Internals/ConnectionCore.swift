import CDBus
import Dispatch
import Posix
import Spawn
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// libdbus's thread support, switched on once before any other libdbus call.
private let threadsInitialised: Bool = dbus_threads_init_default() != 0

/// The shared state behind a ``Connection``: the libdbus connection, its event
/// loop thread, and the tables of pending replies, signal handlers and exported objects.
///
/// One thread per connection runs the loop (`run()`): it polls the
/// connection's descriptors and a wake-up eventfd, lets libdbus read and
/// write, and dispatches incoming messages to ``handle(_:)``. Other threads
/// may send at any time; libdbus locks internally. Replies, signals and method
/// calls are all handled on the loop thread, in the order they arrived.
///
/// A connection opened without a loop thread (``Connection/Dispatching/callingThread``)
/// is driven only by threads in ``callBlocking(_:timeout:)``: they read,
/// dispatch and send what other threads queued meanwhile.
final class ConnectionCore: @unchecked Sendable {
  let raw: OpaquePointer
  /// Set once by `open` before the core is shared, never changed afterwards
  /// (the bus's own name until then, which no caller can see).
  private(set) var uniqueName = BusName.bus
  /// Whether a thread of the connection's own runs ``run()``.
  let hasLoopThread: Bool

  // MARK: Event loop (guarded by `driver`)

  let driver = DriverLock()
  /// Registered libdbus watches; their pointers are valid while they are in this table.
  /// (An array: libdbus registers one or two; a set costs a one-shot process more to start than it saves.)
  var watches: [OpaquePointer] = []
  /// Registered libdbus timeouts and when each expires next (monotonic nanoseconds; 0 = disabled).
  var timeouts: [OpaquePointer: UInt64] = [:]
  /// Counts changes to the watches and timeouts, so that a driver other than
  /// the loop knows when the loop must look at them again.
  var watchVersion: UInt = 0
  /// Messages sent while another thread drove the connection, for the next driver.
  let sendQueue = Mutex<[Outgoing]>([])

  /// The eventfd that wakes the loop's `poll` (its number goes into the poll array as `rawValue`).
  let wakeDescriptor: FileDescriptor
  /// Set while a wake-up is written but not yet consumed, so that many wake requests cost one write.
  let wakePending = Atomic<Bool>(false)
  /// The loop thread's `pthread_self()`, 0 before it starts.
  let loopThread = Atomic<UInt>(0)
  let stopRequested = Atomic<Bool>(false)
  /// How many threads are in a blocking call on this connection (they drive it meanwhile).
  let blockingDrivers = Atomic<Int>(0)
  /// Signalled once when the loop has ended and the connection is closed.
  let loopEnded = DispatchSemaphore(value: 0)

  // MARK: Tables shared with other threads

  let lifecycle = Mutex(Lifecycle())
  let replies = Mutex(ReplyTable())
  let signalHandlers = Mutex(SignalHandlerTable())
  let objects = Mutex(ObjectTable())

  struct Lifecycle {
    /// Why the connection is closed; `nil` while it is open.
    var closedBecause: DBusError?
    var closeWaiters: [@Sendable (DBusError) -> Void] = []
  }

  /// Opens a private connection to `address`, registers it on the bus, and
  /// starts its loop thread when `loopThread` is set.
  ///
  /// - Parameter timeout: How long the bus may take to answer `Hello`.
  /// - Throws: `BadAddress` for an address that is not a local `unix:` one,
  ///   `NoServer` or libdbus's error when no bus answers there, `NoReply`
  ///   when the bus does not answer `Hello` within `timeout`.
  static func open(address: String, timeout: Duration, loopThread: Bool) throws(DBusError)
    -> ConnectionCore
  {
    guard threadsInitialised else { throw DBusError(.noMemory, "libdbus could not initialise its thread support") }
    try validateAddress(address)
    guard
      let raw = try DBusError.check({ error in dbus_connection_open_private(address, error) })
    else { throw DBusError(.noServer, "could not connect to \(address)") }
    dbus_connection_set_exit_on_disconnect(raw, 0)
    // libdbus would answer `org.freedesktop.DBus.Peer` itself, whatever
    // arguments a call has; routed here, it is answered like every other
    // method, refusing the wrong ones (see `answerPeer`).
    dbus_connection_set_route_peer_messages(raw, 1)
    let wake = CDBus_eventfd()
    guard wake >= 0 else {
      let failure = Errno.current
      dbus_connection_close(raw)
      dbus_connection_unref(raw)
      throw DBusError(.failed, "eventfd: \(failure)")
    }
    let core = ConnectionCore(raw: raw, wakeDescriptor: FileDescriptor(owning: wake), hasLoopThread: loopThread)
    do {
      do {
        core.driver.lock()
        defer { core.driver.unlock() }
        try core.installCallbacks()
      }
      try core.register(address: address, timeout: timeout)
    } catch {
      core.closeBeforeLoop()
      throw error
    }
    if loopThread { detachThread { core.run() } }
    return core
  }

  /// Says `Hello` to the bus (what `dbus_bus_register` does, but within
  /// `timeout` and driven by our own poll loop) and records the unique name it gives.
  private func register(address: String, timeout: Duration) throws(DBusError) {
    let hello = try BusInterface.hello.message(destination: .bus, path: .bus)
    let reply = try callBlocking(hello, timeout: timeout)
    guard let text = try? BusInterface.hello.reply(from: reply), let name = BusName(rawValue: text), name.isUnique
    else {
      throw DBusError(.noServer, "the bus at \(address) did not give this connection a name")
    }
    guard dbus_bus_set_unique_name(raw, name.rawValue) != 0 else { throw .outOfMemory }
    uniqueName = name
  }

  private init(raw: OpaquePointer, wakeDescriptor: FileDescriptor, hasLoopThread: Bool) {
    self.raw = raw
    self.wakeDescriptor = wakeDescriptor
    self.hasLoopThread = hasLoopThread
  }

  deinit {
    // The loop has ended (it holds a reference while it runs), so no other
    // thread can be inside libdbus on this connection's behalf any more.
    dbus_connection_remove_filter(raw, messageFilter, Unmanaged.passUnretained(self).toOpaque())
    dbus_connection_set_watch_functions(raw, nil, nil, nil, nil, nil)
    dbus_connection_set_timeout_functions(raw, nil, nil, nil, nil, nil)
    dbus_connection_close(raw)
    dbus_connection_unref(raw)
    try? wakeDescriptor.close()
  }

  /// For a failure between opening and starting the loop.
  private func closeBeforeLoop() {
    lifecycle.withLock { $0.closedBecause = DBusError(.disconnected, "the connection could not be set up") }
    loopEnded.signal()
  }

  /// Only local transports: ShieldBridge opens no network sockets.
  private static func validateAddress(_ address: String) throws(DBusError) {
    guard !address.utf8.contains(0) else { throw DBusError(.badAddress, "the bus address contains a NUL byte") }
    var entries: UnsafeMutablePointer<OpaquePointer?>?
    var count: Int32 = 0
    let parsed = try DBusError.check { error in dbus_parse_address(address, &entries, &count, error) }
    guard parsed != 0, let entries else { throw DBusError(.badAddress, "invalid bus address '\(address)'") }
    defer { dbus_address_entries_free(entries) }
    for index in 0..<Int(count) {
      guard let entry = entries[index], let method = dbus_address_entry_get_method(entry) else { continue }
      let transport = String(cString: method)
      guard transport == "unix" else {
        throw DBusError(
          .badAddress,
          "bus address '\(address)' uses the '\(transport)' transport; only local 'unix:' addresses are allowed")
      }
    }
  }

  // MARK: State

  /// The error that closed the connection, or `nil` while it is open.
  var closedBecause: DBusError? { lifecycle.withLock { $0.closedBecause } }

  /// Throws when the connection is closed.
  func ensureOpen() throws(DBusError) {
    if let reason = closedBecause { throw reason }
  }

  /// Calls `waiter` once when the connection closes (at once if it already has).
  func onClose(_ waiter: @escaping @Sendable (DBusError) -> Void) {
    let reason: DBusError? = lifecycle.withLock { state in
      if let reason = state.closedBecause { return reason }
      state.closeWaiters.append(waiter)
      return nil
    }
    if let reason { waiter(reason) }
  }

  /// Asks the loop to flush, close the connection and stop; waits for that unless called on the loop.
  ///
  /// Without a loop thread, the calling thread flushes and closes the connection itself.
  func close() {
    stopRequested.store(true, ordering: .releasing)
    guard hasLoopThread else {
      closeWithoutLoop()
      return
    }
    wake()
    if !isLoopThread, !driver.isHeldByCurrentThread {
      if loopEnded.wait(timeout: .now() + .seconds(5)) == .success { loopEnded.signal() }
    }
  }

  /// Flushes and closes a connection that has no loop thread, once.
  private func closeWithoutLoop() {
    guard closedBecause == nil else { return }
    let held = driver.isHeldByCurrentThread
    if !held { driver.lock() }
    if dbus_connection_get_is_connected(raw) != 0 { dbus_connection_flush(raw) }
    dbus_connection_close(raw)
    if !held { driver.unlock() }
    markClosed(DBusError(.disconnected, "the connection was closed"))
    loopEnded.signal()
  }

  /// Marks the connection closed and tells everyone waiting on it: pending
  /// replies fail, signal streams end, close waiters run. Runs once.
  func markClosed(_ reason: DBusError) {
    let waiters: [@Sendable (DBusError) -> Void]? = lifecycle.withLock { state in
      guard state.closedBecause == nil else { return nil }
      state.closedBecause = reason
      defer { state.closeWaiters = [] }
      return state.closeWaiters
    }
    guard let waiters else { return }
    if !isLoopThread { wake() }
    failAllReplies(reason)
    failQueuedSends(reason)
    endAllSignalHandlers()
    for waiter in waiters { waiter(reason) }
  }
}
