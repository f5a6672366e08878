import DBus
import Spawn

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The writing end of the pipe that the signal handler writes the signal number to.
nonisolated(unsafe) private var signalPipe: Int32 = -1

/// Waits for the first of the signals it was given, whichever thread the kernel hands it to.
///
/// A handler that only writes one byte to a pipe (async-signal-safe) and a
/// thread that reads the pipe: neither Dispatch's signal sources nor `sigwait`
/// see a signal reliably once other threads (the bus connections', the
/// concurrency pool's) exist with the signal unblocked.
final class SignalWaiter {
  private let readEnd: Int32

  init(_ signals: [Int32]) {
    var ends: [Int32] = [-1, -1]
    if pipe(&ends) == 0 {
      for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
      _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
      signalPipe = ends[1]
    }
    readEnd = ends[0]
    for number in signals {
      _ = signal(number) { received in
        var byte = UInt8(truncatingIfNeeded: received)
        _ = write(signalPipe, &byte, 1)
      }
    }
  }

  /// The first signal that arrives, or `nil` when `connection` is lost first.
  func wait(orUntilLost connection: Connection) async -> Int32? {
    let readEnd = self.readEnd
    let (stream, continuation) = AsyncStream.makeStream(of: Int32?.self)
    detachThread {
      var byte: UInt8 = 0
      while read(readEnd, &byte, 1) < 0 && errno == EINTR {}
      continuation.yield(Int32(byte))
    }
    connection.onDisconnect { _ in continuation.yield(nil) }
    for await first in stream { return first }
    return nil
  }
}
