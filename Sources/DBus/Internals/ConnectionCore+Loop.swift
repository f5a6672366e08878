import CDBus
import Posix
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

// The event loop. libdbus tells us which descriptors to watch and which
// timeouts to run through the callbacks below. Every call into libdbus on
// this connection happens with the driver lock held (see `DriverLock`), and
// so do the callbacks: they touch the tables without a lock of their own. The
// loop thread holds the driver while it works and lets go of it while it
// sleeps in `poll`; when it wakes it checks that each watch it polled is
// still in the table before handing it back to libdbus, since another driver
// may have removed it (and libdbus freed it) in between.

/// Work for whoever drives the connection next: a message to send, with what to do about its reply.
struct Outgoing {
  var message: Message
  var reply: Reply?

  struct Reply {
    var timeout: Duration
    /// When the timeout ends (monotonic nanoseconds), counted from when the call was made, not sent.
    var deadline: UInt64
    var complete: ReplyTable.Completion
    /// Told the serial once the call is sent, so that it can be cancelled.
    var sent: (@Sendable (UInt32) -> Void)?
  }
}

extension ConnectionCore {
  /// Registers the filter and the main-loop callbacks with libdbus; called with the driver held.
  func installCallbacks() throws(DBusError) {
    let context = Unmanaged.passUnretained(self).toOpaque()
    guard dbus_connection_add_filter(raw, messageFilter, context, nil) != 0 else { throw .outOfMemory }
    let watchesSet = dbus_connection_set_watch_functions(
      raw,
      { watch, context in
        guard let watch, let core = ConnectionCore.from(context) else { return 0 }
        if !core.watches.contains(watch) { core.watches.append(watch) }
        core.watchVersion &+= 1
        return 1
      },
      { watch, context in
        guard let watch, let core = ConnectionCore.from(context) else { return }
        core.watches.removeAll { $0 == watch }
        core.watchVersion &+= 1
      },
      { _, context in
        ConnectionCore.from(context)?.watchVersion &+= 1
      },
      context, nil)
    guard watchesSet != 0 else { throw .outOfMemory }
    let timeoutsSet = dbus_connection_set_timeout_functions(
      raw,
      { timeout, context in
        guard let timeout, let core = ConnectionCore.from(context) else { return 0 }
        core.timeouts[timeout] = ConnectionCore.nextExpiry(of: timeout)
        core.watchVersion &+= 1
        return 1
      },
      { timeout, context in
        guard let timeout, let core = ConnectionCore.from(context) else { return }
        core.timeouts.removeValue(forKey: timeout)
        core.watchVersion &+= 1
      },
      { timeout, context in
        guard let timeout, let core = ConnectionCore.from(context) else { return }
        core.timeouts[timeout] = ConnectionCore.nextExpiry(of: timeout)
        core.watchVersion &+= 1
      },
      context, nil)
    guard timeoutsSet != 0 else { throw .outOfMemory }
  }

  static func from(_ context: UnsafeMutableRawPointer?) -> ConnectionCore? {
    context.map { Unmanaged<ConnectionCore>.fromOpaque($0).takeUnretainedValue() }
  }

  private static func nextExpiry(of timeout: OpaquePointer) -> UInt64 {
    guard dbus_timeout_get_enabled(timeout) != 0 else { return 0 }
    return monotonicNanoseconds() + UInt64(max(0, dbus_timeout_get_interval(timeout))) * 1_000_000
  }

  /// Makes the loop's `poll` return, once for any number of requests until the loop consumes it.
  func wake() {
    guard !wakePending.exchange(true, ordering: .acquiringAndReleasing) else { return }
    var one: UInt64 = 1
    _ = withUnsafeBytes(of: &one) { try? wakeDescriptor.writeAll($0) }
  }

  /// Takes the loop's wake-up from the eventfd (after `poll` said it is readable), so that the next ``wake()`` writes again.
  func consumeWakeUp() {
    var value: UInt64 = 0
    _ = withUnsafeMutableBytes(of: &value) { try? wakeDescriptor.read(into: $0) }
    wakePending.store(false, ordering: .releasing)
  }

  var isLoopThread: Bool { loopThread.load(ordering: .relaxed) == UInt(pthread_self()) }

  // MARK: Driving

  /// Takes the driver lock, runs `body`, and lets go; wakes the loop when a
  /// driver other than the loop left it something to look at.
  func drive<R>(_ body: () -> R) -> R {
    if isLoopThread { acquireFromLoop() } else { driver.lock() }
    let version = watchVersion
    let result = body()
    release(since: version)
    return result
  }

  /// Lets go of the driver lock after a stretch started at `version`.
  private func release(since version: UInt) {
    let needsLoop =
      !isLoopThread
      && (watchVersion != version || dbus_connection_has_messages_to_send(raw) != 0
        || dbus_connection_get_dispatch_status(raw) != DBUS_DISPATCH_COMPLETE)
    driver.unlock()
    if needsLoop || !sendQueue.withLock({ $0.isEmpty }) { wake() }
  }

  /// Sends `item` at once when the connection can be driven from here, or queues it for the loop.
  func submit(_ item: Outgoing) throws(DBusError) {
    try ensureOpen()
    if driver.isHeldByCurrentThread {
      drainSendQueue()
      transmit(item)
    } else if driver.tryLock() {
      let version = watchVersion
      drainSendQueue()
      transmit(item)
      release(since: version)
    } else {
      sendQueue.withLock { $0.append(item) }
      // The connection may have closed since `ensureOpen`, after the loop's
      // last look at the queue: then nobody else would complete the item.
      if let closed = closedBecause { failQueuedSends(closed) }
      wake()
    }
  }

  /// Completes the replies of everything still queued with `reason`, unsent;
  /// used once the connection is closed.
  func failQueuedSends(_ reason: DBusError) {
    let queued = sendQueue.withLock { queue in
      defer { queue.removeAll() }
      return queue
    }
    for item in queued { item.reply?.complete(.failure(reason)) }
  }

  /// Sends everything queued, in order; called with the driver held.
  func drainSendQueue() {
    let queued = sendQueue.withLock { queue in
      defer { queue.removeAll(keepingCapacity: true) }
      return queue
    }
    for item in queued { transmit(item) }
  }

  /// Hands one message to libdbus and records its reply; called with the driver held.
  private func transmit(_ item: Outgoing) {
    var serial: UInt32 = 0
    guard dbus_connection_send(raw, item.message.raw, &serial) != 0 else {
      item.reply?.complete(.failure(.outOfMemory))
      return
    }
    guard let reply = item.reply else { return }
    let deadline = reply.deadline
    var closed: DBusError?
    let earlierThanSleep = replies.withLock { table in
      closed = table.closedBecause
      guard closed == nil else { return false }
      table.pending[serial] = ReplyTable.Pending(deadline: deadline, timeout: reply.timeout, complete: reply.complete)
      table.deadlines.push(deadline, serial)
      return deadline < table.sleepUntil
    }
    if let closed {
      // The connection closed while this was sent: no reply can come.
      reply.complete(.failure(closed))
      return
    }
    reply.sent?(serial)
    if earlierThanSleep && !isLoopThread { wake() }
  }

  /// Dispatches every message libdbus has read, in order; called with the driver held.
  func dispatchAll() {
    while dbus_connection_dispatch(raw) == DBUS_DISPATCH_DATA_REMAINS {
      if stopRequested.load(ordering: .relaxed) { return }
    }
  }

  // MARK: The loop thread

  /// Takes the driver lock on the loop thread without getting in the way of a blocking call.
  ///
  /// A thread in ``callBlocking(_:timeout:)`` drives for a whole round trip and
  /// reads its own reply; the loop, woken by the same bytes, would otherwise
  /// queue on the lock and hold it just when the caller wants it back for its
  /// next call. So while a blocking call drives, the loop waits on its wake-up
  /// descriptor in short naps and takes the lock once it is free; a short
  /// hold (a thread sending a message) it simply waits out.
  private func acquireFromLoop() {
    while !driver.tryLock() {
      guard blockingDrivers.load(ordering: .acquiring) > 0 else {
        driver.lock()
        return
      }
      var wakeUp = pollfd(fd: wakeDescriptor.rawValue, events: Int16(POLLIN), revents: 0)
      if poll(&wakeUp, 1, 1) > 0 { consumeWakeUp() }
    }
  }

  /// The loop: runs on its own thread until the connection closes or `close()` is asked for.
  func run() {
    loopThread.store(UInt(pthread_self()), ordering: .releasing)
    var ready: [(watch: OpaquePointer, flags: UInt32)] = []
    var reason = DBusError(.disconnected, "the connection was closed")
    while true {
      var descriptors: [pollfd] = []
      var polled: [OpaquePointer] = []
      var nextTimeout = UInt64.max
      let stop: DBusError? = drive {
        service(ready)
        drainSendQueue()
        dispatchAll()
        if stopRequested.load(ordering: .acquiring) { return reason }
        if let closed = closedBecause { return closed }
        if dbus_connection_get_is_connected(raw) == 0 {
          dispatchAll()
          return DBusError(.disconnected, "the connection to the bus was lost")
        }
        expireReplies(now: monotonicNanoseconds())
        (descriptors, polled, nextTimeout) = pollSet()
        return nil
      }
      if let stop {
        reason = stop
        break
      }
      descriptors.append(pollfd(fd: wakeDescriptor.rawValue, events: Int16(POLLIN), revents: 0))
      let deadline = min(nextTimeout, sleepUntilNextReplyDeadline())
      let result = poll(&descriptors, nfds_t(descriptors.count), milliseconds(until: deadline))
      markAwake()
      if descriptors[descriptors.count - 1].revents != 0 { consumeWakeUp() }
      ready = result > 0 ? readyWatches(descriptors, polled) : []
    }
    drive {
      if dbus_connection_get_is_connected(raw) != 0 { dbus_connection_flush(raw) }
      dbus_connection_close(raw)
    }
    markClosed(reason)
    loopEnded.signal()
  }

  /// The enabled watches as `pollfd`s, and the earliest libdbus timeout; called with the driver held.
  func pollSet() -> ([pollfd], [OpaquePointer], UInt64) {
    var descriptors: [pollfd] = []
    var polled: [OpaquePointer] = []
    for watch in watches where dbus_watch_get_enabled(watch) != 0 {
      let flags = dbus_watch_get_flags(watch)
      var events: Int16 = 0
      if flags & DBUS_WATCH_READABLE.rawValue != 0 { events |= Int16(POLLIN) }
      if flags & DBUS_WATCH_WRITABLE.rawValue != 0 { events |= Int16(POLLOUT) }
      descriptors.append(pollfd(fd: dbus_watch_get_unix_fd(watch), events: events, revents: 0))
      polled.append(watch)
    }
    var nextTimeout = UInt64.max
    for (_, expiry) in timeouts where expiry != 0 { nextTimeout = min(nextTimeout, expiry) }
    return (descriptors, polled, nextTimeout)
  }

  /// The watches `poll` found ready, with libdbus's flags for what happened.
  func readyWatches(_ descriptors: [pollfd], _ polled: [OpaquePointer]) -> [(watch: OpaquePointer, flags: UInt32)] {
    var ready: [(watch: OpaquePointer, flags: UInt32)] = []
    for (index, watch) in polled.enumerated() where descriptors[index].revents != 0 {
      let revents = Int32(descriptors[index].revents)
      var flags: UInt32 = 0
      if revents & Int32(POLLIN) != 0 { flags |= DBUS_WATCH_READABLE.rawValue }
      if revents & Int32(POLLOUT) != 0 { flags |= DBUS_WATCH_WRITABLE.rawValue }
      if revents & Int32(POLLERR) != 0 { flags |= DBUS_WATCH_ERROR.rawValue }
      if revents & Int32(POLLHUP) != 0 { flags |= DBUS_WATCH_HANGUP.rawValue }
      ready.append((watch, flags))
    }
    return ready
  }

  /// Lets libdbus read or write on the ready watches that are still registered, and runs
  /// expired timeouts; called with the driver held.
  func service(_ ready: [(watch: OpaquePointer, flags: UInt32)]) {
    for (watch, flags) in ready where watches.contains(watch) && dbus_watch_get_enabled(watch) != 0 {
      _ = dbus_watch_handle(watch, flags)
    }
    let now = monotonicNanoseconds()
    for (timeout, expiry) in timeouts where expiry != 0 && expiry <= now {
      guard timeouts[timeout] != nil, dbus_timeout_get_enabled(timeout) != 0 else { continue }
      // libdbus timeouts repeat until removed or disabled.
      timeouts[timeout] = now + UInt64(max(0, dbus_timeout_get_interval(timeout))) * 1_000_000
      _ = dbus_timeout_handle(timeout)
    }
  }

  /// The monotonic time `timeout` from now.
  func deadline(after timeout: Duration) -> UInt64 {
    monotonicNanoseconds() &+ min(timeout.clampedNanoseconds, UInt64.max / 4)
  }

  func milliseconds(until deadline: UInt64) -> Int32 {
    guard deadline != .max else { return -1 }
    let now = monotonicNanoseconds()
    return deadline <= now ? 0 : Int32(clamping: (deadline - now + 999_999) / 1_000_000)
  }

  // MARK: Blocking calls

  /// Sends a call and drives the connection from this thread until its reply arrives.
  ///
  /// - Throws: `Failed` when this thread already drives the connection (a
  ///   handler calling back into its own connection), the reply's error,
  ///   `NoReply` after `timeout`, `Disconnected`.
  func callBlocking(_ message: Message, timeout: Duration) throws(DBusError) -> Message {
    guard !driver.isHeldByCurrentThread else {
      throw DBusError(
        .failed, "a blocking call from a handler of the same connection would wait for itself; use call(_:timeout:)")
    }
    try ensureOpen()
    let box = ResultBox()
    blockingDrivers.add(1, ordering: .acquiringAndReleasing)
    defer { blockingDrivers.subtract(1, ordering: .acquiringAndReleasing) }
    driver.lock()
    let version = watchVersion
    drainSendQueue()
    transmit(
      Outgoing(
        message: message,
        reply: .init(timeout: timeout, deadline: deadline(after: timeout), complete: { box.set($0) }, sent: nil)))
    while box.get() == nil {
      dispatchAll()
      if box.get() != nil { break }
      expireReplies(now: monotonicNanoseconds())
      if box.get() != nil || closedBecause != nil { break }
      var (descriptors, polled, nextTimeout) = pollSet()
      // Without a loop thread, this thread also sends what others queued meanwhile.
      if !hasLoopThread { descriptors.append(pollfd(fd: wakeDescriptor.rawValue, events: Int16(POLLIN), revents: 0)) }
      let deadline = min(nextTimeout, replies.withLock { $0.deadlines.first?.deadline ?? .max })
      // An interrupted poll (-1) goes round once more; any other failure ends the wait.
      let result: Int32
      do {
        result = try valueOrErrno(retryOnInterrupt: false) {
          poll(&descriptors, nfds_t(descriptors.count), milliseconds(until: deadline))
        }
      } catch  where error == .interrupted {
        result = -1
      } catch {
        break
      }
      if !hasLoopThread, descriptors[descriptors.count - 1].revents != 0 {
        consumeWakeUp()
        drainSendQueue()
      }
      service(result > 0 ? readyWatches(descriptors, polled) : [])
    }
    dispatchAll()
    release(since: version)
    guard let result = box.get() else {
      throw closedBecause ?? DBusError(.failed, "the blocking call ended without a reply")
    }
    return try result.get()
  }
}

/// A reply handed over to the thread that waits for it.
private final class ResultBox: Sendable {
  private let value = Mutex<Result<Message, DBusError>?>(nil)

  func set(_ result: Result<Message, DBusError>) { value.withLock { $0 = result } }
  func get() -> Result<Message, DBusError>? { value.withLock { $0 } }
}

/// The one filter: every incoming message passes through ``ConnectionCore/handle(_:)``.
let messageFilter: DBusHandleMessageFunction = { _, message, context in
  guard let message, let core = ConnectionCore.from(context) else {
    return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
  }
  return core.handle(Message(retaining: message)) ? DBUS_HANDLER_RESULT_HANDLED : DBUS_HANDLER_RESULT_NOT_YET_HANDLED
}

extension ConnectionCore {
  /// Routes one incoming message; returns whether it was consumed.
  func handle(_ message: Message) -> Bool {
    switch message.kind {
    case .methodReturn, .error:
      completeReply(message)
      return true
    case .signal:
      if message.isSignal(.local, "Disconnected") {
        markClosed(DBusError(.disconnected, "the connection to the bus was lost"))
        return true
      }
      deliverSignal(message)
      return true
    case .methodCall:
      handleMethodCall(message)
      return true
    case .invalid:
      return false
    }
  }
}
