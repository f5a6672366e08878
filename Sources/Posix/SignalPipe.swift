#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The writing end of the pipe that the signal handler writes the signal number to.
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// Signals turned into bytes on a pipe: a handler that only writes the
/// signal's number to a non-blocking pipe (async-signal-safe), and a blocking
/// ``wait()`` that reads it.
///
/// Neither Dispatch's signal sources nor `sigwait` see a signal reliably once
/// other threads (the bus connections', the concurrency pool's) exist with the
/// signal unblocked; a handler does, whichever thread the kernel picks. One
/// pipe serves the process: make one `SignalPipe`.
public final class SignalPipe: Sendable {
  private let readEnd: FileDescriptor?
  // Kept open for as long as the handler may write to it.
  private let writeEnd: FileDescriptor?

  /// Installs the handler for each of `signals` (such as `SIGTERM`, `SIGINT`).
  public init(_ signals: [Int32]) {
    if let (reading, writing) = try? FileDescriptor.pipe() {
      _ = fcntl(writing.rawValue, F_SETFL, fcntl(writing.rawValue, F_GETFL) | O_NONBLOCK)
      signalPipeWriteEnd = writing.rawValue
      (readEnd, writeEnd) = (reading, writing)
    } else {
      (readEnd, writeEnd) = (nil, nil)
    }
    for number in signals {
      _ = signal(number) { received in
        var byte = UInt8(truncatingIfNeeded: received)
        _ = write(signalPipeWriteEnd, &byte, 1)
      }
    }
  }

  deinit {
    // Before the ends close: a late signal must not write to a number the kernel reuses.
    if let writeEnd, signalPipeWriteEnd == writeEnd.rawValue { signalPipeWriteEnd = -1 }
  }

  /// Blocks the calling thread until one of the signals arrives, and returns its number.
  ///
  /// - Returns: The signal number, or `nil` when the pipe could not be made or read.
  public func wait() -> Int32? {
    var byte: [UInt8] = [0]
    guard let readEnd, (try? readEnd.read(into: &byte)) == 1 else { return nil }
    return Int32(byte[0])
  }

  /// `SIGTERM`: asked to stop.
  public static let terminate = SIGTERM
  /// `SIGINT`: interrupted from the keyboard.
  public static let interrupt = SIGINT
  /// `SIGHUP`: the terminal or the session went away.
  public static let hangUp = SIGHUP
}
