import Foundation
import JSON
import Model
import Posix
import Spawn
import Synchronization
import TestSupport

/// `shieldbridge native-host` as a browser runs it: a real process on real
/// pipes, messages framed by hand here (a 32-bit length in the machine's byte
/// order, then the JSON), so that the host's framing is checked against an
/// independent reading of the protocol.
final class NativeHostProcess: Sendable {
  /// The origin Chromium passes for an extension (any 32 letters a–p).
  static let origin = "chrome-extension://" + String(repeating: "b", count: 32) + "/"

  let process: Subprocess
  /// Every message the host wrote, parsed, in order.
  let received = EventLog<JSONValue>()
  /// Set when the host's output ended in the middle of a frame or with a frame that is not JSON.
  let brokenOutput = EventLog<String>()
  private let errorText = Shared<[UInt8]>([])
  private let outputEnded = EventLog<Bool>()
  private let errorEnded = EventLog<Bool>()

  /// Starts `native-host ARGUMENTS` with `environment` on top of this process's.
  ///
  /// - Parameter browser: Without it the host is this test process's child,
  ///   and names it as its browser. With it a stand-in browser, `/bin/sh`,
  ///   starts the host as its own child on these pipes and then runs this
  ///   shell text (`wait` stays until the host ends; `exec xterm …` becomes
  ///   the browser's window, under the pid the host names); ``process`` is
  ///   then the stand-in, and the host its child.
  init(arguments: [String] = [NativeHostProcess.origin], environment: [String: String], browser: String? = nil) throws {
    let host = [ShieldBridgeTool.path, "native-host"] + arguments
    // Without job control an asynchronous command's stdin is /dev/null unless redirected: hence fd 3.
    let command =
      browser.map { ["/bin/sh", "-c", "exec 3<&0; \"$@\" <&3 3<&- & exec 3<&- </dev/null; \($0)", "sh"] + host }
      ?? host
    process = try Subprocess(
      command, environment: ShieldBridgeTool.mergedEnvironment(environment),
      standardInput: .pipe, standardOutput: .pipe, standardError: .pipe, newProcessGroup: true)
    if let output = process.standardOutput {
      detachThread { [received, brokenOutput, outputEnded] in
        while true {
          guard let prefix = Self.read(output, count: 4) else { break }
          guard prefix.count == 4 else {
            brokenOutput.append("a length prefix of \(prefix.count) bytes")
            break
          }
          let length = prefix.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
          guard length <= 1 << 20, let body = Self.read(output, count: Int(length)), body.count == Int(length),
            let message = try? JSONValue(parsing: body)
          else {
            brokenOutput.append("a frame of \(length) bytes that is not whole JSON")
            break
          }
          received.append(message)
        }
        outputEnded.append(true)
      }
    }
    if let error = process.standardError {
      detachThread { [errorText, errorEnded] in
        var buffer = [UInt8](repeating: 0, count: 4096)
        while let count = try? error.read(into: &buffer), count > 0 {
          errorText.value.withLock { $0 += buffer[..<count] }
        }
        errorEnded.append(true)
      }
    }
  }

  deinit {
    if process.exitStatus == nil {
      process.killTree()
      process.wait()
    }
  }

  /// Up to `count` bytes (fewer at the end of the output); `nil` when it ended before the first.
  private static func read(_ descriptor: FileDescriptor, count: Int) -> [UInt8]? {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: min(count, 65536))
    while bytes.count < count {
      buffer = [UInt8](repeating: 0, count: min(count - bytes.count, 65536))
      guard let got = try? descriptor.read(into: &buffer), got > 0 else { break }
      bytes += buffer[..<got]
    }
    return bytes.isEmpty && count > 0 ? nil : bytes
  }

  /// What the host wrote on stderr so far.
  var standardError: String { String(decoding: errorText.value.withLock { $0 }, as: UTF8.self) }

  /// Writes raw bytes to the host's stdin.
  func write(raw bytes: [UInt8]) throws {
    guard let input = process.standardInput else { throw CommandFailed(description: "no stdin pipe") }
    try input.writeAll(bytes)
  }

  /// The frame of `body`: its length in the machine's byte order, then the bytes.
  static func frame(_ body: [UInt8]) -> [UInt8] {
    var length = UInt32(body.count)
    return withUnsafeBytes(of: &length) { Array($0) } + body
  }

  /// Sends one message as a frame.
  func send(_ message: JSONValue) throws {
    try write(raw: Self.frame(Array(message.serialized.utf8)))
  }

  /// Sends `{"type":"focus","site":…}`.
  func focus(_ site: String?) throws {
    try send(.object([("type", "focus"), ("site", site.map { .string($0) } ?? .null)]))
  }

  /// Closes the host's stdin, as a browser does when it lets the host go.
  func closeInput() throws {
    try process.standardInput?.close()
  }

  /// The first message after position `after` that matches.
  func message(
    _ what: String, after: Int = 0, timeout: Duration = HangBound.wait,
    where matches: @escaping @Sendable (JSONValue) -> Bool = { _ in true }
  ) async throws -> JSONValue {
    do {
      return try await received.first(what, after: after, timeout: timeout, where: matches)
    } catch {
      throw PollTimedOut(what: "\(what); the host said: \(standardError)")
    }
  }

  /// The first `"type":"state"` message after `after` for `site` (`nil`: the site null) that matches.
  func state(
    _ site: String?, after: Int = 0, timeout: Duration = HangBound.wait,
    where matches: @escaping @Sendable (JSONValue) -> Bool = { _ in true }
  ) async throws -> JSONValue {
    try await message("a state for \(site ?? "null")", after: after, timeout: timeout) { message in
      guard message["type"]?.stringValue == "state" else { return false }
      let shown = message["site"]
      let same = site.map { shown?.stringValue == $0 } ?? (shown == .null)
      return same && matches(message)
    }
  }

  /// Waits for the host to end and for all it wrote to be read; its exit
  /// status, or `nil` when it did not end in time.
  func exitStatus(timeout: Duration = HangBound.wait) async -> Int32? {
    let process = self.process
    let termination = await onOwnThread { process.wait(timeout: timeout) }
    _ = try? await outputEnded.first("the host's stdout to end", timeout: timeout)
    _ = try? await errorEnded.first("the host's stderr to end", timeout: timeout)
    if case .exited(let status) = termination { return status }
    return nil
  }
}

/// A value behind a lock that closures on other threads can share.
final class Shared<Value: Sendable>: Sendable {
  let value: Mutex<Value>

  init(_ value: Value) {
    self.value = Mutex(value)
  }
}

/// The answer to a task such as "7 + 5", "47 - 38", "7 × 13" or "47 + 38 − 19".
func answer(toQuestion question: String) -> Int? {
  Puzzle.find(in: question)?.answer
}
