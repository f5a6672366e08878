import Spawn

/// Runs `body` on a thread of its own and waits for it without holding one of
/// Swift concurrency's few pool threads (a round trip to an X server that hangs
/// would otherwise stall every task).
func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws(DesktopError) -> T) async throws(DesktopError) -> T
{
  let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, DesktopError>, Never>) in
    detachThread { continuation.resume(returning: Result { () throws(DesktopError) in try body() }) }
  }
  return try result.get()
}
