import Posix
import Spawn
import Synchronization

/// How a backend's own thread is told to stop: a pipe the thread polls beside
/// its sockets, and the event stream that thread feeds.
///
/// Both ends of the pipe live as long as this value: a write after the
/// thread has gone must find a reader still there, or it raises SIGPIPE.
final class StopSignal: Sendable {
  /// What the thread runs: it watches `wake` beside its own descriptors and returns once it is readable.
  typealias Thread = @Sendable (_ wake: FileDescriptor, _ continuation: AsyncStream<DesktopEvent>.Continuation) -> Void

  private let state = Mutex<(wake: (reading: FileDescriptor, writing: FileDescriptor)?, stopped: Bool)>((nil, false))

  /// Runs `body` on a thread of its own with the pipe's reading end, feeding
  /// the returned stream, which ends when `body` returns.
  ///
  /// The stream's end (its consumer gone) stops the thread as ``fire()``
  /// does. Once stopped, or without a pipe, the stream ends at once (with
  /// ``DesktopEvent/lost(_:)`` when no pipe could be made).
  func events(_ body: @escaping Thread) -> AsyncStream<DesktopEvent> {
    let (stream, continuation) = AsyncStream.makeStream(of: DesktopEvent.self)
    let pipe: (reading: FileDescriptor, writing: FileDescriptor)
    do { pipe = try FileDescriptor.pipe() } catch {
      continuation.yield(.lost("cannot make a pipe: \(error)"))
      continuation.finish()
      return stream
    }
    let stopped = state.withLock { state in
      state.wake = pipe
      return state.stopped
    }
    if stopped {
      continuation.finish()
      return stream
    }
    continuation.onTermination = { [weak self] _ in self?.fire() }
    detachThread {
      body(pipe.reading, continuation)
      continuation.finish()
    }
    return stream
  }

  /// Tells the thread to stop: one byte, once; later calls (the stream's end, deinit) find it told.
  func fire() {
    let wake = state.withLock { state in
      defer { state.stopped = true }
      return state.stopped ? nil : state.wake
    }
    _ = try? wake?.writing.write([1])
  }
}
