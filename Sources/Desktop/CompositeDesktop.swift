import Model
import Synchronization

/// One backend for the focus and the actions, another for input idle and the screen.
///
/// Under i3 (an X11 window manager) the focus comes from i3's IPC, which
/// knows containers and the scratchpad, while input idle, idle inhibition and
/// the screen saver come from the X11 backend on the same display: the
/// composite passes on the focus backend's events and only
/// ``DesktopEvent/idle(_:)``, ``DesktopEvent/inhibited(_:)`` and
/// ``DesktopEvent/screen(_:)`` of the other, which does not watch the focus. The first `.lost` of either
/// ends it (the other is stopped), as a backend's `.lost` always ends its stream.
final class CompositeDesktop: DesktopBackend {
  let focus: any DesktopBackend
  let screen: X11Desktop

  init(focus: any DesktopBackend, screen: X11Desktop) {
    self.focus = focus
    self.screen = screen
  }

  var kind: DesktopKind { focus.kind }
  var countingSource: CountingSource { focus.countingSource }
  var limitations: [String] {
    var notes = focus.limitations
    for note in screen.limitations where !notes.contains(note) { notes.append(note) }
    return notes
  }
  var attention: String? { focus.attention ?? screen.attention }

  /// The focus backend's changes are stamped only if it stamps them; the screen's always are.
  var stampsChanges: Bool { focus.stampsChanges }

  func events(idleAfter: Duration) -> AsyncStream<DesktopEvent> {
    stampedEvents(idleAfter: idleAfter).unstamped()
  }

  func stampedEvents(idleAfter: Duration) -> AsyncStream<StampedDesktopEvent> {
    let (stream, continuation) = AsyncStream.makeStream(of: StampedDesktopEvent.self)
    let ended = Mutex(false)
    let (focus, screen) = (self.focus, self.screen)
    /// Passes on `event` unless the composite has ended; `.lost` ends it and stops both backends.
    let forward: @Sendable (StampedDesktopEvent) -> Void = { event in
      let lost = if case .lost = event.event { true } else { false }
      let first = ended.withLock { ended in
        defer { if lost { ended = true } }
        return !ended
      }
      guard first else { return }
      continuation.yield(event)
      if lost {
        continuation.finish()
        focus.stop()
        screen.stop()
      }
    }
    let focusEvents = focus.stampedEvents(idleAfter: idleAfter)
    let screenEvents = screen.stampedEvents(idleAfter: idleAfter, watchingFocus: false)
    Task {
      for await event in focusEvents { forward(event) }
      // A focus backend that ends without `.lost` was stopped: the composite ends with it.
      screen.stop()
      continuation.finish()
    }
    Task {
      for await event in screenEvents {
        switch event.event {
        case .idle, .inhibited, .screen, .notice, .lost: forward(event)
        case .focus, .running: continue
        }
      }
    }
    continuation.onTermination = { _ in
      focus.stop()
      screen.stop()
    }
    return stream
  }

  func hide(where matches: @escaping @Sendable (AppIdentity) -> Bool) async throws(DesktopError) -> Int {
    try await focus.hide(where: matches)
  }

  func close(where matches: @escaping @Sendable (AppIdentity) -> Bool) async throws(DesktopError) -> [Int32] {
    try await focus.close(where: matches)
  }

  func stop() {
    focus.stop()
    screen.stop()
  }
}
