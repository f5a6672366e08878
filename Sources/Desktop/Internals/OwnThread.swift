import Spawn

/// Runs a blocking `body` (a socket round trip, a scan of `/proc`) on a
/// thread of its own and waits for it without holding one of Swift
/// concurrency's few pool threads.
func onOwnThread<T: Sendable, E: Error>(_ body: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
  let result: Result<T, E> = await withCheckedContinuation { continuation in
    detachThread { continuation.resume(returning: Result { () throws(E) in try body() }) }
  }
  return try result.get()
}
