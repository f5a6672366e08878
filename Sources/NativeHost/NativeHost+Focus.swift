import JSON
import Model
import Posix

/// What a browser says in a focus message: the site of the active tab of its
/// last focused window that is not minimized (`nil`: none), and whether it
/// says that window has the focus.
///
/// The service counts the site while the desktop says the browser is in
/// front; ``windowFocused`` decides only where the desktop says nothing of
/// focus (the process fallback). See docs/using/websites.md.
struct BrowserFront: Hashable, Sendable {
  var site: Site?
  var windowFocused: Bool
}

/// Focus messages, coalesced: only changes reach the service, at a bounded rate.
extension NativeHost {
  /// What the browser shows: answered at once when the service is due
  /// a call or already knows it, later (coalesced) otherwise.
  func focus(_ front: BrowserFront) async {
    wanted = front
    await flushFocus()
  }

  /// Answers the wanted site: from the service, at most once per ``Options/focusInterval``
  /// unless `now` (a signal, a grant), which asks at once.
  func flushFocus(now: Bool = false) async {
    guard let target = wanted else { return }
    // Only a change reaches the service: it has this site already, and its
    // signals say when the site's state changes.
    if !now, let told, told == target, let lastState {
      wanted = nil
      send(lastState)
      return
    }
    if !now, let lastCall {
      let next = lastCall.advanced(by: options.focusInterval)
      let current = MonotonicTime.now
      if current < next {
        if focusTimer == nil {
          let delay = next.duration(since: current)
          let sink = eventSink
          focusTimer = Task {
            do { try await Task.sleep(for: delay) } catch { return }
            sink.yield(.focusDue)
          }
        }
        return
      }
    }
    focusTimer?.cancel()
    focusTimer = nil
    wanted = nil
    send(await askService(target))
  }
}
