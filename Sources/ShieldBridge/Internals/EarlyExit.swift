import Spawn

/// How a started program ended within a short time, if it did.
///
/// A view's opener (`xdg-open`, a browser) either hands the target on and
/// exits at once, or keeps running as the window itself. An exit with a
/// status other than 0 soon after the start is a refusal (`xdg-open` exits 3
/// or 4 when nothing can open the target), so the dispatch waits that long
/// for it before it reports `opened`. The wait ends with the exit, not with
/// a poll: nothing wakes the service when the opener keeps running.
struct EarlyExit: Sendable {
  private let stream: AsyncStream<Termination>
  /// Given to the launcher as the program's `exited` callback.
  let exited: @Sendable (Termination) -> Void

  init() {
    let (stream, continuation) = AsyncStream<Termination>.makeStream(bufferingPolicy: .bufferingNewest(1))
    self.stream = stream
    exited = { termination in
      continuation.yield(termination)
      continuation.finish()
    }
  }

  /// How the program ended, or `nil` while it still runs after `limit`.
  func termination(within limit: Duration) async -> Termination? {
    let stream = self.stream
    return await withTaskGroup(of: Termination?.self) { group in
      group.addTask {
        for await termination in stream { return termination }
        return nil
      }
      group.addTask {
        try? await Task.sleep(for: limit)
        return nil
      }
      let first = await group.next() ?? nil
      group.cancelAll()
      return first
    }
  }
}
