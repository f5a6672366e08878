import Posix
public import Spawn
import Synchronization

/// Starts the programs actions open: handlers, terminals, `xdg-open`.
///
/// Every value is one whole argv element and nothing goes through a shell.
/// The activation token the notification server sent with the click is
/// passed on as `XDG_ACTIVATION_TOKEN` (Wayland) and `DESKTOP_STARTUP_ID`
/// (X11 startup notification), so that the window that opens may take focus.
public struct Launcher: Sendable {
  /// The environment children start with (before the token is added).
  public var environment: [String: String]

  public init(environment: [String: String]) {
    self.environment = environment
  }

  /// Whether a graphical session is there to show a window on.
  public var hasDisplay: Bool {
    !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty || !(environment["DISPLAY"] ?? "").isEmpty
  }

  /// The environment for a child started by a click with `token`.
  public func childEnvironment(activationToken token: String?) -> [String: String] {
    var environment = self.environment
    if let token, !token.isEmpty {
      environment["XDG_ACTIVATION_TOKEN"] = token
      environment["DESKTOP_STARTUP_ID"] = token
    }
    return environment
  }

  /// Starts `argv` with stdin and stdout on `/dev/null` and this process's
  /// stderr, and calls `exited` when it has ended.
  ///
  /// The program may outlive the caller (`shieldbridge open` returns as soon
  /// as it has started it), so it must not hold the caller's stdout: that is
  /// where the caller's one line of JSON goes, and whoever reads it would wait
  /// for the end of the file until the program ended. Its messages still go
  /// where the caller's own do: the terminal, or the journal for `serve`.
  ///
  /// `exited` runs on the thread that waits for the child, before the child
  /// is reaped: whoever sees the child gone from the service's children
  /// knows that `exited` has run.
  ///
  /// - Throws: ``SpawnError`` when the program cannot be started.
  public func launch(
    _ argv: [String], activationToken: String?, exited: @escaping @Sendable (Termination) -> Void
  ) throws(SpawnError) {
    _ = try Subprocess(
      argv, environment: childEnvironment(activationToken: activationToken), standardInput: .null,
      standardOutput: .null, exited: exited)
  }

  /// How a program started by ``launch(_:activationToken:grace:exited:)`` went in its first moments.
  public enum Start: Sendable, Hashable {
    /// Still running after the grace period, or ended with status 0 within it.
    case started
    /// Could not be started, or ended with a failure within the grace period; the reason.
    case failed(String)
  }

  /// Starts `argv` as ``launch(_:activationToken:exited:)`` does and waits
  /// up to `grace` to see whether it fails at once.
  ///
  /// A handler or terminal that cannot run its command usually says so by
  /// ending within a moment with a non-zero status (`Can't execvp`, an
  /// unknown option): that is reported as a failure instead of a success
  /// nobody sees. A program still running after `grace` counts as started.
  public func launch(
    _ argv: [String], activationToken: String?, grace: Duration,
    exited: @escaping @Sendable (Termination) -> Void
  ) async -> Start {
    let waiter = StartWaiter()
    do {
      try launch(argv, activationToken: activationToken) { termination in
        waiter.finish(termination.isSuccess ? .started : .failed("\(argv[0]) \(termination)"))
        exited(termination)
      }
    } catch {
      return .failed("\(error)")
    }
    let timer = Task {
      try? await Task.sleep(for: grace)
      waiter.finish(.started)
    }
    let start = await waiter.value()
    timer.cancel()
    return start
  }
}

extension Launcher {
  /// ``launch(_:activationToken:grace:exited:)`` for a caller that may block
  /// (`shieldbridge open` without the service): the same answer, waited for
  /// on this thread.
  public func launch(_ argv: [String], activationToken: String?, grace: Duration) -> Start {
    // The child's end is told through a pipe: a failure writes its reason,
    // and the writing end closes with the exit, which makes the reading end
    // readable (the reason, or at once its end of file).
    guard let (reading, writing) = try? FileDescriptor.pipe() else {
      return .failed("pipe: cannot watch \(argv[0])")
    }
    do {
      try launch(argv, activationToken: activationToken) { termination in
        if !termination.isSuccess { try? writing.writeAll("\(argv[0]) \(termination)") }
        try? writing.close()
      }
    } catch {
      return .failed("\(error)")
    }
    guard (try? reading.waitUntilReadable(timeout: grace)) == true else { return .started }
    var buffer = [UInt8](repeating: 0, count: 1024)
    guard let count = try? reading.read(into: &buffer), count > 0 else { return .started }
    return .failed(String(decoding: buffer.prefix(count), as: UTF8.self))
  }
}

/// The first of "the child ended" and "the grace period is over", for one awaiting caller.
private final class StartWaiter: Sendable {
  private struct State {
    var result: Launcher.Start?
    var continuation: CheckedContinuation<Launcher.Start, Never>?
  }

  private let state = Mutex(State())

  func finish(_ result: Launcher.Start) {
    let continuation = state.withLock { state -> CheckedContinuation<Launcher.Start, Never>? in
      guard state.result == nil else { return nil }
      state.result = result
      defer { state.continuation = nil }
      return state.continuation
    }
    continuation?.resume(returning: result)
  }

  func value() async -> Launcher.Start {
    await withCheckedContinuation { continuation in
      let ready = state.withLock { state -> Launcher.Start? in
        if let result = state.result { return result }
        state.continuation = continuation
        return nil
      }
      if let ready { continuation.resume(returning: ready) }
    }
  }
}
