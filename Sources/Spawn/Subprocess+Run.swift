import Posix

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension Subprocess {
  /// What a finished child printed, and how it ended.
  public struct Result: Sendable {
    /// How the child ended; `nil` when it was killed because the timeout passed.
    public var termination: Termination?
    public var standardOutput: [UInt8]
    public var standardError: [UInt8]

    /// The exit status, or `nil` when the child did not exit normally in time.
    public var status: Int32? {
      if case .exited(let status)? = termination { status } else { nil }
    }

    /// stdout as text.
    public var output: String { String(decoding: standardOutput, as: UTF8.self) }
    /// stderr as text.
    public var error: String { String(decoding: standardError, as: UTF8.self) }
  }

  /// Runs a command to its end, feeding `input` to its stdin and collecting stdout and stderr.
  ///
  /// The streams are served together by `poll`, so a child that writes a lot
  /// to one while we wait on the other never blocks. When `timeout` passes the
  /// child is killed (with its process group) and the result says so. A child
  /// that exits before reading all of `input` raises SIGPIPE in this process
  /// unless it is ignored, as the `shieldbridge` executable and the tests do.
  ///
  /// - Throws: ``SpawnError`` when the command cannot be started.
  public static func run(
    _ arguments: [String],
    input: [UInt8] = [],
    environment: [String: String]? = nil,
    timeout: Duration = .seconds(30)
  ) throws(SpawnError) -> Result {
    let child = try Subprocess(
      arguments, environment: environment, standardInput: .pipe, standardOutput: .pipe,
      standardError: .pipe, newProcessGroup: true)
    let deadline = ContinuousClock.now + timeout
    var output: [UInt8] = []
    var errorOutput: [UInt8] = []
    var pending = input[...]
    var inputOpen = true
    // Never block on stdin: a child that writes much before it reads would
    // otherwise wait for us while we wait for it.
    if let stdin = child.standardInput {
      _ = fcntl(stdin.rawValue, F_SETFL, fcntl(stdin.rawValue, F_GETFL) | O_NONBLOCK)
    }
    if pending.isEmpty, let stdin = child.standardInput {
      shutdownWriting(stdin)
      inputOpen = false
    }
    var outputOpen = true
    var errorOpen = true
    var timedOut = false
    var buffer = [UInt8](repeating: 0, count: 65536)
    while outputOpen || errorOpen {
      let remaining = deadline - ContinuousClock.now
      guard remaining > .zero else {
        timedOut = true
        break
      }
      // `streams[i]` is the descriptor `descriptors[i]` polls.
      var streams: [FileDescriptor] = []
      var descriptors: [pollfd] = []
      if outputOpen, let stdout = child.standardOutput {
        streams.append(stdout)
        descriptors.append(pollfd(fd: stdout.rawValue, events: Int16(POLLIN), revents: 0))
      }
      if errorOpen, let stderr = child.standardError {
        streams.append(stderr)
        descriptors.append(pollfd(fd: stderr.rawValue, events: Int16(POLLIN), revents: 0))
      }
      if inputOpen, let stdin = child.standardInput {
        streams.append(stdin)
        descriptors.append(pollfd(fd: stdin.rawValue, events: Int16(POLLOUT), revents: 0))
      }
      let milliseconds = Int32(
        clamping: remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000 + 1)
      let ready: Int32
      do {
        ready = try valueOrErrno(retryOnInterrupt: false) {
          poll(&descriptors, nfds_t(descriptors.count), milliseconds)
        }
      } catch  where error == .interrupted {
        continue
      } catch {
        break
      }
      guard ready > 0 else { continue }
      for (stream, descriptor) in zip(streams, descriptors) where descriptor.revents != 0 {
        if stream === child.standardInput {
          var failed = false
          do {
            pending = pending.dropFirst(try stream.write(pending))
          } catch  where error == .wouldBlock {
          } catch {
            failed = true
          }
          if failed || pending.isEmpty {
            shutdownWriting(stream)
            inputOpen = false
          }
          continue
        }
        let isOutput = stream === child.standardOutput
        let count = (try? stream.read(into: &buffer)) ?? 0
        if count > 0 {
          if isOutput {
            output.append(contentsOf: buffer[..<count])
          } else {
            errorOutput.append(contentsOf: buffer[..<count])
          }
        } else {
          if isOutput { outputOpen = false } else { errorOpen = false }
        }
      }
    }
    if timedOut {
      child.signalGroup(SIGKILL)
      child.wait()
      return Result(termination: nil, standardOutput: output, standardError: errorOutput)
    }
    let left = deadline - ContinuousClock.now
    guard let termination = child.wait(timeout: max(left, .milliseconds(1))) else {
      child.signalGroup(SIGKILL)
      child.wait()
      return Result(termination: nil, standardOutput: output, standardError: errorOutput)
    }
    return Result(termination: termination, standardOutput: output, standardError: errorOutput)
  }
}

extension Subprocess {
  /// Ends the child's stdin (it reads end of file), when it was a `.pipe`.
  ///
  /// The descriptor stays open on `/dev/null` and is closed once, with the
  /// `Subprocess`; never `close` ``standardInput`` yourself.
  public func closeStandardInput() {
    if let standardInput { shutdownWriting(standardInput) }
  }
}

/// Closes the writing end of a pipe by duplicating `/dev/null` over it, so that
/// the descriptor number stays owned (and closed once) by its ``Subprocess``:
/// a `FileDescriptor` someone still holds never names a number the kernel gave
/// to another file meanwhile.
private func shutdownWriting(_ descriptor: FileDescriptor) {
  guard let null = try? FileDescriptor.open("/dev/null", .writeOnly) else { return }
  _ = try? valueOrErrno { dup2(null.rawValue, descriptor.rawValue) }
  // dup2 clears close-on-exec on the copy; a later child must not inherit it.
  _ = fcntl(descriptor.rawValue, F_SETFD, FD_CLOEXEC)
  try? null.close()
}
