import Foundation
import Posix
public import Spawn
import Synchronization

/// A child process that runs while the test goes on: its output is collected
/// as it comes, and the test can wait (bounded) for a line or for its end.
public final class BackgroundProcess: Sendable {
  public let process: Subprocess
  private let output = Collected()

  /// The output read so far, shared with the reading threads.
  private final class Collected: Sendable {
    let state = Mutex<(standardOutput: [UInt8], standardError: [UInt8], open: Int)>(([], [], 2))

    func withLock<R>(
      _ body: (inout (standardOutput: [UInt8], standardError: [UInt8], open: Int)) -> R
    ) -> R {
      state.withLock { body(&$0) }
    }
  }

  /// Starts `arguments` with stdin from `/dev/null` and both outputs collected.
  ///
  /// - Parameter environment: Variables set on top of this process's environment (empty removes).
  public init(_ arguments: [String], environment: [String: String] = [:]) throws {
    process = try Subprocess(
      arguments, environment: ShieldBridgeTool.mergedEnvironment(environment), standardInput: .null,
      standardOutput: .pipe, standardError: .pipe, newProcessGroup: true)
    for (descriptor, isError) in [(process.standardOutput, false), (process.standardError, true)] {
      guard let descriptor else { continue }
      detachThread { [output] in
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
          // `read` retries EINTR itself; a failure ends the output as its end does.
          guard let count = try? descriptor.read(into: &buffer), count > 0 else { break }
          output.withLock { state in
            if isError {
              state.standardError.append(contentsOf: buffer[..<count])
            } else {
              state.standardOutput.append(contentsOf: buffer[..<count])
            }
          }
        }
        output.withLock { $0.open -= 1 }
      }
    }
  }

  /// Runs the built `shieldbridge` with `arguments`.
  public convenience init(shieldbridge arguments: [String], environment: [String: String] = [:])
    throws
  {
    try self.init([ShieldBridgeTool.path] + arguments, environment: environment)
  }

  deinit {
    if process.exitStatus == nil {
      process.killTree()
      process.wait()
    }
  }

  /// What it printed on stdout so far.
  public var standardOutput: String {
    output.withLock { String(decoding: $0.standardOutput, as: UTF8.self) }
  }
  /// What it printed on stderr so far.
  public var standardError: String {
    output.withLock { String(decoding: $0.standardError, as: UTF8.self) }
  }

  /// The complete lines of stdout so far (a line still being written is left out).
  public var outputLines: [String] {
    let text = standardOutput
    guard let end = text.lastIndex(of: "\n") else { return [] }
    return text[..<end].split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  }

  /// Waits until stdout has a complete line containing `text`; returns that line.
  public func waitForLine(containing text: String, timeout: Duration = HangBound.wait) async throws
    -> String
  {
    try await poll("a line with '\(text)' from \(process.pid)", timeout: timeout) {
      self.outputLines.first { $0.contains(text) }
    }
  }

  /// Waits until stdout has a first complete line; returns it.
  public func waitForFirstLine(timeout: Duration = HangBound.wait) async throws -> String {
    try await poll("a line from \(process.pid)", timeout: timeout) { self.outputLines.first }
  }

  /// Waits for the process to end and for its output to be read; kills it after `timeout`.
  ///
  /// - Returns: how it ended (`nil` when it had to be killed), with everything it printed.
  public func finish(timeout: Duration = HangBound.wait) async -> Finished {
    let process = self.process
    let termination = await onOwnThread { process.wait(timeout: timeout) }
    if termination == nil {
      process.killTree()
      process.wait()
    }
    _ = try? await poll("the end of the output", timeout: .seconds(5)) {
      self.output.withLock { $0.open == 0 } ? true : nil
    }
    return output.withLock {
      Finished(
        termination: termination, output: String(decoding: $0.standardOutput, as: UTF8.self),
        error: String(decoding: $0.standardError, as: UTF8.self))
    }
  }

  /// How a background process ended and what it printed.
  public struct Finished: Sendable {
    /// `nil` when it was killed because it did not end in time.
    public var termination: Termination?
    public var output: String
    public var error: String

    /// The exit status, or `nil` when it did not exit normally in time.
    public var status: Int32? {
      if case .exited(let status)? = termination { status } else { nil }
    }
  }
}

/// Why a bounded wait ended without what it waited for.
public struct PollTimedOut: Error, CustomStringConvertible {
  public var what: String
  public init(what: String) { self.what = what }
  public var description: String { "timed out waiting for \(what)" }
}

/// Asks `check` every few milliseconds until it returns a value, for at most `timeout`.
///
/// For states that announce themselves in no other way (a file appears, a
/// window maps); never a fixed sleep in place of a condition.
public func poll<T>(
  _ what: String, timeout: Duration = HangBound.wait, every interval: Duration = .milliseconds(10),
  _ check: () async throws -> T?
) async throws -> T {
  let deadline = ContinuousClock.now + timeout
  while true {
    if let value = try await check() { return value }
    guard ContinuousClock.now < deadline else { throw PollTimedOut(what: what) }
    try await Task.sleep(for: interval)
  }
}
