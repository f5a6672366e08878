import DBus
import Posix
import Spawn

/// Waits for the first of the signals it was given, whichever thread the kernel hands it to.
///
/// Posix's ``SignalPipe`` turns the signal into a byte on a pipe; a thread
/// of its own waits for it, so that no pool thread blocks.
final class SignalWaiter {
  private let pipe: SignalPipe

  init(_ signals: [Int32]) {
    pipe = SignalPipe(signals)
  }

  /// The first signal that arrives (0 when the pipe could not be read).
  func wait() async -> Int32 {
    let pipe = self.pipe
    return await withCheckedContinuation { continuation in
      detachThread { continuation.resume(returning: pipe.wait() ?? 0) }
    }
  }

  /// The first signal that arrives, or `nil` when `connection` is lost first.
  func wait(orUntilLost connection: Connection) async -> Int32? {
    let pipe = self.pipe
    let (stream, continuation) = AsyncStream.makeStream(of: Int32?.self)
    detachThread {
      continuation.yield(pipe.wait() ?? 0)
    }
    connection.onDisconnect { _ in continuation.yield(nil) }
    for await first in stream { return first }
    return nil
  }
}
