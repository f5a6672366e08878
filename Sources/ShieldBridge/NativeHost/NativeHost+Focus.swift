import Brake
import JSON
import Posix

/// Focus messages, coalesced: only changes reach the service, at a bounded rate.
extension NativeHost {
  /// The browser's site in front: answered at once when the service is due
  /// a call or already knows the site, later (coalesced) otherwise.
  func focus(_ site: Site?) async {
    wanted = .some(site)
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
      let next = lastCall.adding(options.focusInterval)
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
