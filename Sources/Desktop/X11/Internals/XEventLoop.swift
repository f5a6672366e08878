import CXCB
import Model
import Posix

/// The backend's one thread: it blocks in `poll` on the X connection and a
/// wake pipe, and turns the server's events into ``DesktopEvent``s.
///
/// Nothing is polled: focus comes from `PropertyNotify` on the root's
/// `_NET_ACTIVE_WINDOW`, the screen from MIT-SCREEN-SAVER's notify events, idle
/// from two SYNC alarms on `IDLETIME` (one fires when the counter rises through
/// the idle time, one when input brings it back below). The only timeout is the
/// grace period after the window manager's check window is destroyed. Only
/// this thread touches `connection`.
///
/// Every event the server stamps is reported with its stamp, turned into the
/// monotonic clock (``EventClock``), so that events read late (the process was
/// stopped) keep the moment they happened. To learn the offset between the
/// clocks before anything happens, the loop appends nothing to a property of
/// a 1×1 input-only window of its own once at the start: the server answers
/// with a stamped `PropertyNotify`. The value of `_NET_ACTIVE_WINDOW` is read
/// when its change is handled, so of several changes read in one batch only
/// the last one's window is known: when they span a second or more, the
/// focus is reported as none (unknown, no use) from the first stamp, and the
/// window read from the last.
///
/// Beside another backend that tells the focus (i3, KWin), it watches only
/// idle and the screen: the root's properties are not selected, so a focus
/// change does not wake it.
final class XEventLoop: @unchecked Sendable {
  /// How long a new window manager has to take over before the desktop is reported lost.
  static let managerGrace: Duration = .seconds(5)

  private let connection: XConnection
  private let capabilities: XCapabilities
  private let idleMilliseconds: Int64
  /// Whether focus (and the window manager) is watched, or only idle and the screen.
  private let watchesFocus: Bool
  private let continuation: AsyncStream<StampedDesktopEvent>.Continuation
  private let wake: FileDescriptor
  private var checkWindow: xcb_window_t?
  private var managerGone: ContinuousClock.Instant?
  private var lastFocus: FocusedWindow??
  /// The focused window whose properties are selected, to follow a change of its `WM_CLASS`.
  private var followed: xcb_window_t?
  private var lastScreen: ScreenState?
  private var lastIdle: Bool?
  /// The server's stamps as monotonic readings.
  private var clock = EventClock()
  /// The window whose property the loop changes to learn the server's time (``EventClock``).
  private var timeWindow: xcb_window_t?
  /// The stamps of the focus changes in the batch being handled, when there
  /// are several spanning a second or more: all but the last are reported as no focus.
  private var hiddenFocusChanges: Set<UInt32> = []

  init(
    connection: XConnection, capabilities: XCapabilities, checkWindow: xcb_window_t, idleAfter: Duration,
    watchesFocus: Bool, continuation: AsyncStream<StampedDesktopEvent>.Continuation, wake: FileDescriptor
  ) {
    self.connection = connection
    self.capabilities = capabilities
    self.watchesFocus = watchesFocus
    self.checkWindow = watchesFocus ? checkWindow : nil
    let (seconds, attoseconds) = idleAfter.components
    let milliseconds = seconds.multipliedReportingOverflow(by: 1000)
    self.idleMilliseconds =
      milliseconds.overflow ? Int64.max / 2 : max(1, milliseconds.partialValue + attoseconds / 1_000_000_000_000_000)
    self.continuation = continuation
    self.wake = wake
  }

  /// Reports the current state, then every change until `stop`, the server's end or the manager's.
  func run() {
    defer { continuation.finish() }
    start()
    let socket = FileDescriptor(borrowing: connection.fileDescriptor)
    while true {
      // Handling reads replies, and xcb queues the events that come meanwhile: they are in no
      // socket that `Poll` could see, so the queue is drained again until it stays empty.
      while case let batch = pendingEvents(), !batch.isEmpty {
        noteHiddenFocusChanges(in: batch)
        for event in batch {
          handle(event)
          CXCB_free(event)
        }
      }
      if let failure = connection.failure {
        lose("the X server on \(connection.display) went away: \(failure)")
        return
      }
      connection.flush()
      let ready: [Int]
      do {
        ready = try Poll.readable([socket, wake], timeout: managerGone.map { $0 - ContinuousClock.now })
      } catch {
        lose("waiting for the X server on \(connection.display) failed: \(error)")
        return
      }
      if ready.contains(1) { return }
      if let deadline = managerGone, ContinuousClock.now >= deadline {
        guard takeOverNewManager() else {
          lose("the window manager on \(connection.display) went away and none took its place")
          return
        }
      }
    }
  }

  private func start() {
    connection.selectRootEvents(properties: watchesFocus, screenSaver: capabilities.screenSaverEvent != nil)
    if let checkWindow {
      connection.watchDestruction(of: checkWindow)
      // The manager may have gone between `connect` and now, before the watch was set.
      if connection.windowManagerCheck() != checkWindow {
        self.checkWindow = nil
        managerGone = ContinuousClock.now + XEventLoop.managerGrace
      }
    }
    var idle: Bool?
    if let counter = capabilities.idleCounter {
      _ = connection.createAlarm(
        counter: counter, value: idleMilliseconds, test: XCB_SYNC_TESTTYPE_POSITIVE_TRANSITION)
      _ = connection.createAlarm(
        counter: counter, value: idleMilliseconds - 1, test: XCB_SYNC_TESTTYPE_NEGATIVE_TRANSITION)
      // Read after the alarms exist, so a crossing between the two is not missed.
      idle = connection.counterValue(counter).map { $0 >= idleMilliseconds }
    }
    if watchesFocus { refreshFocus(stamp: nil) }
    if capabilities.screenSaverEvent != nil, let screen = connection.screenSaverState() { report(screen, stamp: nil) }
    if let idle { report(idle: idle, stamp: nil) }
    timeWindow = connection.askServerTime()
  }

  /// The events xcb has read and queued, in order.
  private func pendingEvents() -> [UnsafeMutablePointer<xcb_generic_event_t>] {
    var batch: [UnsafeMutablePointer<xcb_generic_event_t>] = []
    while let event = xcb_poll_for_event(connection.raw) { batch.append(event) }
    return batch
  }

  /// Finds the focus changes of `batch` whose window can no longer be read:
  /// all but the last, when there are several and they span a second or more.
  private func noteHiddenFocusChanges(in batch: [UnsafeMutablePointer<xcb_generic_event_t>]) {
    hiddenFocusChanges = []
    guard watchesFocus else { return }
    let stamps = batch.compactMap { event -> UInt32? in
      guard Int32(event.pointee.response_type & 0x7f) == XCB_PROPERTY_NOTIFY else { return nil }
      let notify = UnsafeRawPointer(event).load(as: xcb_property_notify_event_t.self)
      return notify.window == connection.root && notify.atom == connection.atoms.activeWindow ? notify.time : nil
    }
    guard let first = stamps.first, let last = stamps.last, last &- first >= 1_000 else { return }
    hiddenFocusChanges = Set(stamps.dropLast())
  }

  /// The monotonic reading of a server stamp read now.
  private func instant(_ stamp: UInt32) -> MonotonicTime {
    clock.instant(ofStamp: stamp, handledAt: .now)
  }

  private func handle(_ event: UnsafeMutablePointer<xcb_generic_event_t>) {
    let type = event.pointee.response_type & 0x7f
    let raw = UnsafeRawPointer(event)
    switch Int32(type) {
    case XCB_PROPERTY_NOTIFY:
      let notify = raw.load(as: xcb_property_notify_event_t.self)
      // Every stamp teaches the clock, the changes of a title too (which are never read).
      let stamp = instant(notify.time)
      if notify.window == timeWindow { return }
      if notify.window == followed, notify.atom == XCB_ATOM_WM_CLASS.rawValue {
        // The app in front renamed itself (xdotool set_window --class): it is another app now.
        refreshFocus(stamp: stamp)
        return
      }
      guard notify.window == connection.root else { return }
      if notify.atom == connection.atoms.activeWindow {
        if hiddenFocusChanges.remove(notify.time) != nil {
          // A window that had the focus for a while, gone before it could be read: unknown, no use.
          report(focus: nil, stamp: stamp)
        } else {
          refreshFocus(stamp: stamp)
        }
      } else if notify.atom == connection.atoms.supportingWMCheck, managerGone != nil {
        _ = takeOverNewManager()
      }
    case XCB_DESTROY_NOTIFY:
      let notify = raw.load(as: xcb_destroy_notify_event_t.self)
      if notify.window == checkWindow, managerGone == nil {
        checkWindow = nil
        managerGone = ContinuousClock.now + XEventLoop.managerGrace
        // A manager restarting in place (i3's `restart`) sets a new check window at once.
        _ = takeOverNewManager()
      }
    default:
      if let base = capabilities.screenSaverEvent, type == base &+ UInt8(XCB_SCREENSAVER_NOTIFY) {
        let notify = raw.load(as: xcb_screensaver_notify_event_t.self)
        report(XEventLoop.screen(fromSaverState: notify.state), stamp: instant(notify.time))
      } else if let base = capabilities.syncEvent, type == base &+ UInt8(XCB_SYNC_ALARM_NOTIFY) {
        let notify = raw.load(as: xcb_sync_alarm_notify_event_t.self)
        guard notify.state != UInt8(XCB_SYNC_ALARMSTATE_DESTROYED.rawValue) else { return }
        report(idle: XEventLoop.int64(notify.counter_value) >= idleMilliseconds, stamp: instant(notify.timestamp))
      }
    // Errors (type 0) of requests nobody waited for: a window gone before the
    // server read our request about it, which the next event makes good.
    }
  }

  /// Whether a manager holds the display again; if so it is watched and focus read anew.
  private func takeOverNewManager() -> Bool {
    guard let check = connection.windowManagerCheck() else { return false }
    checkWindow = check
    managerGone = nil
    connection.watchDestruction(of: check)
    refreshFocus(stamp: nil)
    return true
  }

  /// Reads the window in front and reports it, as of `stamp` (the change's, or `nil`: now).
  private func refreshFocus(stamp: MonotonicTime?) {
    guard let window = connection.windowProperty(connection.root, connection.atoms.activeWindow) else {
      follow(nil)
      report(focus: nil, stamp: stamp)
      return
    }
    // Selected before the class is read, so that a change right after the read is not missed.
    follow(window)
    // A window destroyed since the manager named it: nothing is known to be in front.
    guard let app = connection.identity(of: window) else {
      report(focus: nil, stamp: stamp)
      return
    }
    report(focus: FocusedWindow(window: WindowID(UInt64(window)), app: app), stamp: stamp)
  }

  /// Selects `PropertyChange` on `window` (the focused one) and drops it from the one followed before.
  ///
  /// The mask is this connection's own: the window's client and the manager keep theirs. Every
  /// property change of the focused window wakes the thread (a title that changes too); only
  /// `WM_CLASS` is acted on, and titles are never read.
  private func follow(_ window: xcb_window_t?) {
    // The root's own mask (its properties) is set once, in `start`, and never dropped.
    let window = window == connection.root ? nil : window
    guard window != followed else { return }
    if let previous = followed {
      // The manager's check window keeps the destruction watch; any other window gets no events.
      var mask = previous == checkWindow ? XCB_EVENT_MASK_STRUCTURE_NOTIFY.rawValue : 0
      xcb_change_window_attributes(connection.raw, previous, XCB_CW_EVENT_MASK.rawValue, &mask)
    }
    if let window {
      var mask = XCB_EVENT_MASK_PROPERTY_CHANGE.rawValue
      if window == checkWindow { mask |= XCB_EVENT_MASK_STRUCTURE_NOTIFY.rawValue }
      xcb_change_window_attributes(connection.raw, window, XCB_CW_EVENT_MASK.rawValue, &mask)
    }
    followed = window
  }

  private func report(focus: FocusedWindow?, stamp: MonotonicTime?) {
    if case .some(let last) = lastFocus, last == focus { return }
    lastFocus = .some(focus)
    continuation.yield(StampedDesktopEvent(.focus(focus), stamp: stamp))
  }

  private func report(_ screen: ScreenState, stamp: MonotonicTime?) {
    guard screen != lastScreen else { return }
    lastScreen = screen
    continuation.yield(StampedDesktopEvent(.screen(screen), stamp: stamp))
  }

  private func report(idle: Bool, stamp: MonotonicTime?) {
    guard idle != lastIdle else { return }
    lastIdle = idle
    continuation.yield(StampedDesktopEvent(.idle(idle), stamp: stamp))
  }

  private func lose(_ reason: String) {
    continuation.yield(StampedDesktopEvent(.lost(reason)))
  }

  /// MIT-SCREEN-SAVER's state as a screen: on and cycling are the saver; off and
  /// disabled (no saver will come) are a screen that can be seen.
  static func screen(fromSaverState state: UInt8) -> ScreenState {
    switch UInt32(state) {
    case XCB_SCREENSAVER_STATE_ON.rawValue, XCB_SCREENSAVER_STATE_CYCLE.rawValue: .saver
    default: .on
    }
  }

  static func int64(_ value: xcb_sync_int64_t) -> Int64 {
    Int64(value.hi) << 32 | Int64(value.lo)
  }
}
