import Synchronization

/// Takes posts for one identifier one at a time, in the order they came.
///
/// A post for an identifier reads the id the last one was given and replaces
/// it; two at once would both read the same (or no) id and leave two
/// notifications. So the second waits until the first has its id. Posts for
/// other identifiers, or without one, do not wait. Waiting is bounded by the
/// post before it, which is bounded by the client's timeout.
final class IdentifierTurns: Sendable {
  /// The posts waiting for each identifier whose turn is taken; no entry when no post holds it.
  private let waiting = Mutex<[String: [CheckedContinuation<Void, Never>]]>([:])

  /// Runs `body` once every earlier post for `identifier` has ended.
  func inTurn<T, E: Error>(for identifier: String, _ body: () async throws(E) -> T) async throws(E) -> T {
    await take(identifier)
    defer { hand(identifier) }
    return try await body()
  }

  private func take(_ identifier: String) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let free = waiting.withLock { waiting in
        guard waiting[identifier] != nil else {
          waiting[identifier] = []
          return true
        }
        waiting[identifier, default: []].append(continuation)
        return false
      }
      if free { continuation.resume() }
    }
  }

  /// Hands the turn to the next post waiting for `identifier`, if any.
  private func hand(_ identifier: String) {
    let next = waiting.withLock { waiting -> CheckedContinuation<Void, Never>? in
      guard var queue = waiting[identifier], !queue.isEmpty else {
        waiting[identifier] = nil
        return nil
      }
      let next = queue.removeFirst()
      waiting[identifier] = queue
      return next
    }
    next?.resume()
  }
}
