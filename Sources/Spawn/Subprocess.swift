import Dispatch
public import Posix
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Why a child process could not be started or talked to.
public struct SpawnError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What was attempted, such as `posix_spawn xdg-open`.
  public var operation: String
  /// The `errno` value.
  public var code: Int32

  public var description: String {
    "\(operation): \(Errno(rawValue: code))"
  }
}

/// How a child process ended.
public enum Termination: Hashable, Sendable, CustomStringConvertible {
  case exited(Int32)
  case signalled(Int32)

  /// Whether the process exited with status 0.
  public var isSuccess: Bool { self == .exited(0) }

  public var description: String {
    switch self {
    case .exited(let status): "exited with status \(status)"
    case .signalled(let signal): "killed by signal \(signal)"
    }
  }
}

/// A child process started with an exact argv and environment, never through a shell.
///
/// Every value passed is one whole argv element. Pipes are created
/// close-on-exec, so a child sees only the descriptors it was given.
public final class Subprocess: Sendable {
  /// Where one of the child's standard streams goes.
  public enum Stream: Sendable {
    /// The parent's own stream.
    case inherit
    /// `/dev/null`.
    case null
    /// A new pipe; the parent's end is in ``standardInput`` or ``standardOutput``/``standardError``.
    case pipe
    /// An open descriptor of the parent's, duplicated into the child; the
    /// parent keeps it (the `Subprocess` neither holds nor closes it).
    case descriptor(FileDescriptor)
  }

  /// The child's process id (`pid_t`).
  public let pid: Int32
  /// The parent's writing end of the child's stdin, when it was `.pipe`; owned by this
  /// value and closed with it (use ``closeStandardInput()`` to end the input early).
  public let standardInput: FileDescriptor?
  /// The parent's reading end of the child's stdout, when it was `.pipe`; owned, closed with this value.
  public let standardOutput: FileDescriptor?
  /// The parent's reading end of the child's stderr, when it was `.pipe`; owned, closed with this value.
  public let standardError: FileDescriptor?

  private let exit = ExitState()

  /// Starts `arguments[0]`, looked up in `PATH` when it has no slash.
  ///
  /// - Parameters:
  ///   - arguments: The whole argv, program first.
  ///   - environment: The child's environment; `nil` passes the parent's.
  ///   - standardInput, standardOutput, standardError: Where the streams go.
  ///   - newProcessGroup: Whether the child leads a process group of its own,
  ///     so that ``signalGroup(_:)`` reaches everything it starts.
  ///   - exited: Called once on the thread that waits for the child, when it
  ///     has ended and before it is reaped: until `exited` returns, the child
  ///     stays in the parent's list of children (as a zombie) and its pid is not reused.
  ///     It must not wait for this child (``wait()`` returns only after it).
  /// - Throws: ``SpawnError`` when the program cannot be started.
  public init(
    _ arguments: [String],
    environment: [String: String]? = nil,
    standardInput: Stream = .inherit,
    standardOutput: Stream = .inherit,
    standardError: Stream = .inherit,
    newProcessGroup: Bool = false,
    exited: (@Sendable (Termination) -> Void)? = nil
  ) throws(SpawnError) {
    guard let program = arguments.first, !program.isEmpty else {
      throw SpawnError(operation: "posix_spawn (no program)", code: EINVAL)
    }
    guard arguments.allSatisfy({ !$0.utf8.contains(0) }) else {
      throw SpawnError(operation: "posix_spawn \(program) (NUL in an argument)", code: EINVAL)
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }

    // The child starts with default signal handling and nothing blocked,
    // whatever the parent (a service that handles SIGTERM) has set up.
    var allSignals = sigset_t()
    sigfillset(&allSignals)
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    posix_spawnattr_setsigdefault(&attributes, &allSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    var flags = Int32(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK)
    if newProcessGroup {
      flags |= Int32(POSIX_SPAWN_SETPGROUP)
      posix_spawnattr_setpgroup(&attributes, 0)
    }
    posix_spawnattr_setflags(&attributes, Int16(flags))

    // Glibc offers no pipe2 to Swift, so pipes become close-on-exec a moment
    // after they are made; holding this lock from then until the child exists
    // keeps a concurrent spawn of ours from inheriting them.
    spawnLock.lock()
    defer { spawnLock.unlock() }
    // Owned from the moment they exist: a failure below closes them with these values.
    var parentEnds: [FileDescriptor?] = [nil, nil, nil]
    var childEnds: [FileDescriptor] = []
    defer { for descriptor in childEnds { try? descriptor.close() } }
    for (target, stream) in [standardInput, standardOutput, standardError].enumerated() {
      switch stream {
      case .inherit:
        break
      case .null:
        posix_spawn_file_actions_addopen(
          &actions, Int32(target), "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
      case .descriptor(let descriptor):
        posix_spawn_file_actions_adddup2(&actions, descriptor.rawValue, Int32(target))
      case .pipe:
        let (reading, writing): (FileDescriptor, FileDescriptor)
        do {
          (reading, writing) = try FileDescriptor.pipe()
        } catch {
          throw SpawnError(operation: "pipe2", code: error.rawValue)
        }
        let (childEnd, parentEnd) = target == 0 ? (reading, writing) : (writing, reading)
        childEnds.append(childEnd)
        parentEnds[target] = parentEnd
        posix_spawn_file_actions_adddup2(&actions, childEnd.rawValue, Int32(target))
      }
    }

    let environmentLines = (environment ?? Environment.all)
      .filter { !$0.key.isEmpty && !$0.key.contains("=") && !$0.key.utf8.contains(0) && !$0.value.utf8.contains(0) }
      .map { "\($0.key)=\($0.value)" }
    var childPID: pid_t = 0
    let result = withCStrings(arguments) { argv in
      withCStrings(environmentLines) { envp in
        posix_spawnp(&childPID, program, &actions, &attributes, argv, envp)
      }
    }
    guard result == 0 else { throw SpawnError(operation: "posix_spawn \(program)", code: result) }
    pid = childPID
    self.standardInput = parentEnds[0]
    self.standardOutput = parentEnds[1]
    self.standardError = parentEnds[2]
    // One thread per child waits for it, so that `wait(timeout:)` can be
    // bounded without polling and the child never lingers as a zombie. It
    // learns how the child ended without reaping it (WNOWAIT), so that the
    // pid stays the child's while `termination` is set (``signal(_:)`` can
    // never reach a process that took the pid over) and while `exited` runs.
    let pid = childPID
    let exit = self.exit
    detachThread {
      var info = siginfo_t()
      let waited = (try? valueOrErrno { waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) }) ?? -1
      let status = info._sifields._sigchld.si_status
      // -1, which no exit status can be, when the child was reaped elsewhere (SIGCHLD ignored).
      let ended: Termination =
        waited < 0 ? .exited(-1) : info.si_code == Int32(CLD_EXITED) ? .exited(status) : .signalled(status)
      exit.termination.withLock { $0 = ended }
      exited?(ended)
      var reaped: Int32 = 0
      _ = try? valueOrErrno { waitpid(pid, &reaped, 0) }
      exit.semaphore.signal()
    }
  }

  /// Sends `signal` to the child.
  public func signal(_ signal: Int32) {
    if exit.termination.withLock({ $0 }) == nil { kill(pid, signal) }
  }

  /// Sends `signal` to the child's process group (see `newProcessGroup`).
  public func signalGroup(_ signal: Int32) {
    kill(-pid, signal)
  }

  /// Waits until the child has ended.
  @discardableResult
  public func wait() -> Termination {
    if let ended = exit.termination.withLock({ $0 }) { return ended }
    exit.semaphore.wait()
    exit.semaphore.signal()
    return exit.termination.withLock { $0 } ?? .exited(-1)
  }

  /// Waits until the child has ended or `timeout` has passed; `nil` on timeout.
  public func wait(timeout: Duration) -> Termination? {
    if let ended = exit.termination.withLock({ $0 }) { return ended }
    guard exit.semaphore.wait(timeout: .now() + timeout.dispatchInterval) == .success else { return nil }
    exit.semaphore.signal()
    return exit.termination.withLock { $0 }
  }

  /// How the child ended, or `nil` while it runs.
  public var exitStatus: Termination? { exit.termination.withLock { $0 } }

  /// Asks the child to stop with SIGTERM, and kills it when it has not ended within `grace`.
  @discardableResult
  public func terminate(grace: Duration = .seconds(2)) -> Termination {
    signal(SIGTERM)
    if let ended = wait(timeout: grace) { return ended }
    signal(SIGKILL)
    return wait()
  }
}

/// How the child ended, shared with the thread that waits for it.
private final class ExitState: Sendable {
  let termination = Mutex<Termination?>(nil)
  /// Signalled once when the child ends; every waiter signals it again for the next.
  let semaphore = DispatchSemaphore(value: 0)
}

private let spawnLock = SpawnLock()

/// A plain mutex that can be held across a scope without a closure.
private final class SpawnLock: @unchecked Sendable {
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  init() { pthread_mutex_init(mutex, nil) }
  func lock() { pthread_mutex_lock(mutex) }
  func unlock() { pthread_mutex_unlock(mutex) }
}

extension Duration {
  var dispatchInterval: DispatchTimeInterval {
    let (seconds, attoseconds) = components
    return .nanoseconds(Int(clamping: seconds * 1_000_000_000 + attoseconds / 1_000_000_000))
  }
}

/// Calls `body` with a NULL-terminated C array of the strings.
func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
  let pointers = strings.map { strdup($0) } + [nil]
  defer { for pointer in pointers { free(pointer) } }
  return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}
