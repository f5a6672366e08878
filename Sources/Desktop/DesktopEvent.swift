public import Model
public import Posix

/// A window, as a backend names it: the X11 window id, or the i3/sway container id.
public struct WindowID: Hashable, Sendable, CustomStringConvertible {
  public var rawValue: UInt64

  public init(_ rawValue: UInt64) {
    self.rawValue = rawValue
  }

  public var description: String { "0x" + String(rawValue, radix: 16) }
}

/// The window in front and the app behind it.
public struct FocusedWindow: Hashable, Sendable {
  public var window: WindowID
  public var app: AppIdentity

  public init(window: WindowID, app: AppIdentity) {
    self.window = window
    self.app = app
  }
}

/// Whether the screen can be seen: on, blanked by the screen saver, or locked.
public enum ScreenState: String, Hashable, Sendable {
  case on
  /// The screen saver is active (or the display is off).
  case saver
  case locked
}

/// What a backend reports. A backend's first events give its current state
/// (the focused window or the running apps, the screen, idle); after that it
/// reports only changes, when they happen: no event means nothing changed.
public enum DesktopEvent: Hashable, Sendable {
  /// Another window has the focus, or none (`nil`: the desktop itself, or an empty workspace).
  case focus(FocusedWindow?)
  /// The covered apps that run now (the process fallback, which sees no focus).
  case running([AppIdentity])
  /// The user has not touched keyboard or mouse for the idle time (`true`), or has again (`false`).
  case idle(Bool)
  /// Something (a video playing) inhibits idle (`true`), or no longer does.
  case inhibited(Bool)
  case screen(ScreenState)
  /// Something the log and `shieldbridge desktop` should say about how the
  /// desktop is watched: a script loaded again after the compositor
  /// restarted, an extension missing, disabled or back, a call from a
  /// connection that may not make it refused. Changes nothing the meter counts.
  case notice(String)
  /// The backend stopped working (the X server or the window manager went
  /// away); the text says why. No events follow.
  case lost(String)
}

/// A ``DesktopEvent`` with the moment it happened by the source's own clock,
/// where the source gives one.
///
/// The X11 backend stamps what the X server stamps (a focus change, the
/// idle alarm, the screen saver), turned into the monotonic clock through an
/// ``EventClock``; the first report of the state, and every backend whose
/// source gives no time (i3's IPC, sway, KWin, GNOME Shell, `/proc`), carry
/// none, and the event is taken to happen when it is handled.
public struct StampedDesktopEvent: Hashable, Sendable {
  public var event: DesktopEvent
  /// When the event happened (never after it was read); `nil`: when it is handled.
  public var stamp: MonotonicTime?

  public init(_ event: DesktopEvent, stamp: MonotonicTime? = nil) {
    self.event = event
    self.stamp = stamp
  }
}

extension AsyncStream where Element == StampedDesktopEvent {
  /// The same events without their stamps.
  func unstamped() -> AsyncStream<DesktopEvent> {
    let (stream, continuation) = AsyncStream<DesktopEvent>.makeStream()
    let task = Task {
      for await stamped in self { continuation.yield(stamped.event) }
      continuation.finish()
    }
    continuation.onTermination = { _ in task.cancel() }
    return stream
  }
}

extension AsyncStream where Element == DesktopEvent {
  /// The same events, each without a stamp: it happened when it is handled.
  func withoutStamps() -> AsyncStream<StampedDesktopEvent> {
    let (stream, continuation) = AsyncStream<StampedDesktopEvent>.makeStream()
    let task = Task {
      for await event in self { continuation.yield(StampedDesktopEvent(event)) }
      continuation.finish()
    }
    continuation.onTermination = { _ in task.cancel() }
    return stream
  }
}
