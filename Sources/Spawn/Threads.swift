#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Runs `body` on a new detached thread of its own.
///
/// For work that blocks for long stretches (waiting for a child, polling a
/// socket) and so must not hold one of Swift concurrency's few pool threads.
public func detachThread(_ body: @escaping @Sendable () -> Void) {
  final class Box: @unchecked Sendable {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
  }
  let context = Unmanaged.passRetained(Box(body)).toOpaque()
  var thread = pthread_t()
  let result = pthread_create(
    &thread, nil,
    { context in
      guard let context else { return nil }
      let box = Unmanaged<Box>.fromOpaque(context).takeRetainedValue()
      box.body()
      return nil
    }, context)
  if result == 0 {
    pthread_detach(thread)
  } else {
    // No thread could be made: run it here rather than lose it.
    Unmanaged<Box>.fromOpaque(context).takeRetainedValue().body()
  }
}

/// Runs a blocking `body` (a socket round trip, a child run to its end, a
/// scan of `/proc`) on a thread of its own and waits for it without holding
/// one of Swift concurrency's few pool threads.
///
/// The pool has one thread per core: on a two-core machine two blocking
/// calls made on it stall every other task, their timeouts included.
public func onOwnThread<T: Sendable, E: Error>(_ body: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
  let result: Result<T, E> = await withCheckedContinuation { continuation in
    detachThread { continuation.resume(returning: Result { () throws(E) in try body() }) }
  }
  return try result.get()
}
