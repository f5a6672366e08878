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
    if let stdin = child.standardInput { _ = fcntl(stdin, F_SETFL, fcntl(stdin, F_GETFL) | O_NONBLOCK) }
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
      var descriptors: [pollfd] = []
      if outputOpen, let fd = child.standardOutput {
        descriptors.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0))
      }
      if errorOpen, let fd = child.standardError {
        descriptors.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0))
      }
      if inputOpen, let fd = child.standardInput {
        descriptors.append(pollfd(fd: fd, events: Int16(POLLOUT), revents: 0))
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
      for descriptor in descriptors where descriptor.revents != 0 {
        let stream = FileDescriptor(borrowing: descriptor.fd)
        if descriptor.fd == child.standardInput {
          var failed = false
          do {
            pending = pending.dropFirst(try stream.write(pending))
          } catch  where error == .wouldBlock {
          } catch {
            failed = true
          }
          if failed || pending.isEmpty {
            shutdownWriting(descriptor.fd)
            inputOpen = false
          }
          continue
        }
        let count = (try? stream.read(into: &buffer)) ?? 0
        if count > 0 {
          if descriptor.fd == child.standardOutput {
            output.append(contentsOf: buffer[..<count])
          } else {
            errorOutput.append(contentsOf: buffer[..<count])
          }
        } else {
          if descriptor.fd == child.standardOutput { outputOpen = false } else { errorOpen = false }
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
/// the descriptor number stays owned (and closed once) by its ``Subprocess``.
private func shutdownWriting(_ descriptor: Int32) {
  guard let null = try? FileDescriptor.open("/dev/null", .writeOnly) else { return }
  dup2(null.rawValue, descriptor)
  try? null.close()
}
