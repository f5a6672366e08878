import CDBus

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

// The event loop. libdbus tells us which descriptors to watch and which
// timeouts to run through the callbacks below; they may be called from any
// thread (a sender's thread too), so the tables are guarded by `loopLock`, and
// a change made off the loop thread wakes the loop so that its next `poll`
// sees it. The loop hands a watch back to libdbus only while holding
// `loopLock` and only if the watch is still registered: libdbus frees a watch
// right after removing it, possibly from another thread, and the lock makes
// that removal wait until the loop is done with it.

extension ConnectionCore {
  /// Registers the filter and the main-loop callbacks with libdbus.
  func installCallbacks() throws(DBusError) {
    let context = Unmanaged.passUnretained(self).toOpaque()
    guard dbus_connection_add_filter(raw, messageFilter, context, nil) != 0 else { throw .outOfMemory }
    let watchesSet = dbus_connection_set_watch_functions(
      raw,
      { watch, context in
        guard let watch, let core = ConnectionCore.from(context) else { return 0 }
        core.loopLock.withLock { _ = core.watches.insert(watch) }
        core.wakeUnlessOnLoop()
        return 1
      },
      { watch, context in
        guard let watch, let core = ConnectionCore.from(context) else { return }
        core.loopLock.withLock { _ = core.watches.remove(watch) }
      },
      { _, context in
        ConnectionCore.from(context)?.wakeUnlessOnLoop()
      },
      context, nil)
    guard watchesSet != 0 else { throw .outOfMemory }
    let timeoutsSet = dbus_connection_set_timeout_functions(
      raw,
      { timeout, context in
        guard let timeout, let core = ConnectionCore.from(context) else { return 0 }
        core.loopLock.withLock { core.timeouts[timeout] = ConnectionCore.nextExpiry(of: timeout) }
        core.wakeUnlessOnLoop()
        return 1
      },
      { timeout, context in
        guard let timeout, let core = ConnectionCore.from(context) else { return }
        core.loopLock.withLock { _ = core.timeouts.removeValue(forKey: timeout) }
      },
      { timeout, context in
        guard let timeout, let core = ConnectionCore.from(context) else { return }
        core.loopLock.withLock { core.timeouts[timeout] = ConnectionCore.nextExpiry(of: timeout) }
        core.wakeUnlessOnLoop()
      },
      context, nil)
    guard timeoutsSet != 0 else { throw .outOfMemory }
    // Called with libdbus's connection lock held: it must not take `loopLock`.
    dbus_connection_set_wakeup_main_function(
      raw, { context in ConnectionCore.from(context)?.wakeUnlessOnLoop() }, context, nil)
    dbus_connection_set_dispatch_status_function(
      raw,
      { _, status, context in
        if status == DBUS_DISPATCH_DATA_REMAINS { ConnectionCore.from(context)?.wakeUnlessOnLoop() }
      },
      context, nil)
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
    _ = write(wakeDescriptor, &one, 8)
  }

  func wakeUnlessOnLoop() {
    if !isOnLoopThread { wake() }
  }

  /// The loop: runs on its own thread until the connection closes or `close()` is asked for.
  func run() {
    loopThread.store(UInt(pthread_self()), ordering: .releasing)
    var reason = DBusError(.disconnected, "the connection was closed")
    while true {
      dispatchAll()
      if stopRequested.load(ordering: .acquiring) { break }
      if let closed = closedBecause {
        reason = closed
        break
      }
      if dbus_connection_get_is_connected(raw) == 0 {
        reason = DBusError(.disconnected, "the connection to the bus was lost")
        break
      }
      expireReplies(now: monotonicNanoseconds())
      pollOnce()
    }
    if dbus_connection_get_is_connected(raw) != 0 {
      dbus_connection_flush(raw)
    }
    dbus_connection_close(raw)
    markClosed(reason)
    loopEnded.signal()
  }

  /// Dispatches every message libdbus has read, in order.
  private func dispatchAll() {
    while dbus_connection_dispatch(raw) == DBUS_DISPATCH_DATA_REMAINS {
      if stopRequested.load(ordering: .relaxed) { return }
    }
  }

  /// One `poll` over the enabled watches and the wake-up descriptor, then hands what is ready to libdbus.
  private func pollOnce() {
    var descriptors: [pollfd] = []
    var polled: [OpaquePointer] = []
    var nextTimeout = UInt64.max
    loopLock.withLock {
      for watch in watches where dbus_watch_get_enabled(watch) != 0 {
        let flags = dbus_watch_get_flags(watch)
        var events: Int16 = 0
        if flags & DBUS_WATCH_READABLE.rawValue != 0 { events |= Int16(POLLIN) }
        if flags & DBUS_WATCH_WRITABLE.rawValue != 0 { events |= Int16(POLLOUT) }
        descriptors.append(pollfd(fd: dbus_watch_get_unix_fd(watch), events: events, revents: 0))
        polled.append(watch)
      }
      for (_, expiry) in timeouts where expiry != 0 { nextTimeout = min(nextTimeout, expiry) }
    }
    descriptors.append(pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0))
    let nextReply = sleepUntilNextReplyDeadline()
    let deadline = min(nextTimeout, nextReply)
    let now = monotonicNanoseconds()
    let milliseconds: Int32 =
      deadline == .max ? -1 : deadline <= now ? 0 : Int32(clamping: (deadline - now + 999_999) / 1_000_000)

    let ready = poll(&descriptors, nfds_t(descriptors.count), milliseconds)
    markAwake()
    if descriptors[descriptors.count - 1].revents != 0 {
      var value: UInt64 = 0
      _ = read(wakeDescriptor, &value, 8)
      wakePending.store(false, ordering: .releasing)
    }
    if ready > 0 {
      for (index, watch) in polled.enumerated() where descriptors[index].revents != 0 {
        let revents = Int32(descriptors[index].revents)
        var flags: UInt32 = 0
        if revents & Int32(POLLIN) != 0 { flags |= DBUS_WATCH_READABLE.rawValue }
        if revents & Int32(POLLOUT) != 0 { flags |= DBUS_WATCH_WRITABLE.rawValue }
        if revents & Int32(POLLERR) != 0 { flags |= DBUS_WATCH_ERROR.rawValue }
        if revents & Int32(POLLHUP) != 0 { flags |= DBUS_WATCH_HANGUP.rawValue }
        loopLock.withLock {
          guard watches.contains(watch), dbus_watch_get_enabled(watch) != 0 else { return }
          _ = dbus_watch_handle(watch, flags)
        }
      }
    }
    handleExpiredTimeouts()
  }

  private func handleExpiredTimeouts() {
    let now = monotonicNanoseconds()
    let expired = loopLock.withLock { timeouts.filter { $0.value != 0 && $0.value <= now }.map(\.key) }
    for timeout in expired {
      loopLock.withLock {
        guard timeouts[timeout] != nil, dbus_timeout_get_enabled(timeout) != 0 else { return }
        // libdbus timeouts repeat until removed or disabled.
        timeouts[timeout] = now + UInt64(max(0, dbus_timeout_get_interval(timeout))) * 1_000_000
        _ = dbus_timeout_handle(timeout)
      }
    }
  }
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
