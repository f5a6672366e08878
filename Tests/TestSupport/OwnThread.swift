import Spawn

/// Runs a blocking `body` (a child process run to its end, a blocking read)
/// on a thread of its own and waits for it without holding a thread.
///
/// Swift concurrency runs every test's tasks on a pool with one thread per
/// core; a test that blocks one of them stalls the waits and timeouts of all
/// the tests running beside it. On a two-core machine two such calls stall
/// everything.
public func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    detachThread { continuation.resume(with: Result { try body() }) }
  }
}
