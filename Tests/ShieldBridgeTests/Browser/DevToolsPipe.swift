import Foundation
import JSON
import Spawn
import Synchronization
import TestSupport

/// A real browser driven through its DevTools protocol on `--remote-debugging-pipe`.
///
/// The browser reads the protocol from its descriptor 3 and writes it to 4,
/// each message ended by a NUL byte. A short Python script (standard library
/// only) gives it those descriptors and relays them as lines on its own stdin
/// and stdout; so no port is opened and no WebSocket library is needed.
final class DevToolsPipe: Sendable {
  private let relayed: RelayedBrowser

  /// The relay: the browser's argv comes after the script's name.
  static let relay = #"""
    import os, sys, threading
    to_r, to_w = os.pipe()
    from_r, from_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        # Through high numbers first: the pipes may themselves be 3 and 4.
        os.dup2(to_r, 100); os.dup2(from_w, 101)
        os.dup2(100, 3); os.dup2(101, 4)
        os.close(100); os.close(101)
        os.execvp(sys.argv[1], sys.argv[1:] + ["--remote-debugging-pipe"])
    os.close(to_r); os.close(from_w)
    def relay_out():
        pending = b""
        while True:
            chunk = os.read(from_r, 65536)
            if not chunk:
                break
            pending += chunk
            *messages, pending = pending.split(b"\0")
            for message in messages:
                sys.stdout.buffer.write(message.replace(b"\n", b" ") + b"\n")
            sys.stdout.buffer.flush()
    reader = threading.Thread(target=relay_out, daemon=True)
    reader.start()
    for line in sys.stdin.buffer:
        line = line.strip()
        if line:
            os.write(to_w, line + b"\0")
    os.close(to_w)
    _, status = os.waitpid(pid, 0)
    reader.join(timeout=5)
    sys.exit(os.waitstatus_to_exitcode(status))
    """#

  /// Starts `browser` (its argv, program first) under the relay written into `folder`.
  init(browser: [String], environment: [String: String], folder: String) throws {
    relayed = try RelayedBrowser(
      script: Self.relay, name: "devtools-relay.py", arguments: browser, environment: environment, folder: folder
    ) { $0["id"]?.integerValue.map(Int.init) }
  }

  /// What the browser and the relay wrote on stderr so far.
  var standardError: String { relayed.standardError }

  /// Sends `method` with `params` (to the target of `session`, when given) and waits for its reply's `result`.
  ///
  /// - Throws: ``DevToolsError`` when the browser answers with an error, ``PollTimedOut`` when it does not answer.
  @discardableResult
  func call(
    _ method: String, _ params: JSONValue = .object([]), session: String? = nil, timeout: Duration = .seconds(20)
  ) async throws -> JSONValue {
    let id = relayed.nextID()
    var fields: [(String, JSONValue)] = [("id", .integer(Int64(id))), ("method", .string(method)), ("params", params)]
    if let session { fields.append(("sessionId", .string(session))) }
    let reply = try await relayed.send(JSONValue.object(fields), id: id, what: method, timeout: timeout)
    if let error = reply["error"] { throw DevToolsError(message: "\(method): \(error.serialized)") }
    return reply["result"] ?? .object([])
  }

  /// Evaluates `expression` in the target of `session`, awaiting a promise; its value (by value).
  func evaluate(_ expression: String, session: String) async throws -> JSONValue {
    let result = try await call(
      "Runtime.evaluate",
      .object([("expression", .string(expression)), ("awaitPromise", true), ("returnByValue", true)]),
      session: session)
    if let exception = result["exceptionDetails"] {
      throw DevToolsError(message: "\(expression): \(exception.serialized)")
    }
    return result["result"]?["value"] ?? .null
  }

  /// The browser's targets: pages, service workers, the browser itself.
  func targets() async throws -> [JSONValue] {
    try await call("Target.getTargets")["targetInfos"]?.arrayValue ?? []
  }

  /// Attaches to the target `id` (flat mode); the session to give ``call(_:_:session:timeout:)``.
  func attach(_ id: String) async throws -> String {
    let result = try await call("Target.attachToTarget", .object([("targetId", .string(id)), ("flatten", true)]))
    guard let session = result["sessionId"]?.stringValue else {
      throw DevToolsError(message: "no session for target \(id)")
    }
    return session
  }

  /// Closes the browser (`Browser.close`, then the pipe) and waits for its end.
  func close() async -> Termination? {
    _ = try? await call("Browser.close", timeout: .seconds(5))
    return await relayed.close()
  }
}

/// The browser refused or failed a DevTools command.
struct DevToolsError: Error, CustomStringConvertible {
  var message: String
  var description: String { message }
}

/// A browser under a Python relay that turns its protocol into lines: one JSON message a line each way.
///
/// Replies are matched to requests by the id `replyID` finds in a message;
/// messages without one are kept as events.
final class RelayedBrowser: Sendable {
  private let process: Subprocess
  private let state = Shared()
  private let replyID: @Sendable (JSONValue) -> Int?

  private struct State {
    var nextID = 1
    var replies: [Int: JSONValue] = [:]
    var events: [JSONValue] = []
    var standardError: [UInt8] = []
    var open = true
  }

  /// The replies, events and stderr, shared with the reading threads.
  private final class Shared: Sendable {
    let mutex = Mutex<State>(State())

    func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
      try mutex.withLock { try body(&$0) }
    }
  }

  /// Writes `script` as `name` into `folder` and runs it with `arguments`.
  init(
    script: String, name: String, arguments: [String], environment: [String: String], folder: String,
    replyID: @escaping @Sendable (JSONValue) -> Int?
  ) throws {
    let python = try requiredTool("python3", package: "python3")
    let path = folder + "/" + name
    try writeExecutable(path, script)
    self.replyID = replyID
    process = try Subprocess(
      [python, path] + arguments, environment: ShieldBridgeTool.mergedEnvironment(environment),
      standardInput: .pipe, standardOutput: .pipe, standardError: .pipe, newProcessGroup: true)
    let state = self.state
    if let output = process.standardOutput {
      detachThread {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while let count = try? output.read(into: &buffer), count > 0 {
          pending.append(contentsOf: buffer[..<count])
          while let newline = pending.firstIndex(of: 0x0A) {
            let line = Array(pending[..<newline])
            pending.removeSubrange(...newline)
            guard let message = try? JSONValue(parsing: line) else { continue }
            state.withLock { state in
              if let id = replyID(message) {
                state.replies[id] = message
              } else {
                state.events.append(message)
              }
            }
          }
        }
        state.withLock { $0.open = false }
      }
    }
    if let error = process.standardError {
      detachThread {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while let count = try? error.read(into: &buffer), count > 0 {
          state.withLock { $0.standardError.append(contentsOf: buffer[..<count]) }
        }
      }
    }
  }

  deinit {
    if process.exitStatus == nil {
      process.signalGroup(SIGKILL)
      process.wait()
    }
  }

  /// What the browser and the relay wrote on stderr so far.
  var standardError: String {
    state.withLock { String(decoding: $0.standardError, as: UTF8.self) }
  }

  /// The events received so far (messages without an id).
  var events: [JSONValue] { state.withLock { $0.events } }

  /// A fresh request id.
  func nextID() -> Int {
    state.withLock { state in
      defer { state.nextID += 1 }
      return state.nextID
    }
  }

  /// Sends `message` and waits for the reply with `id`.
  func send(_ message: JSONValue, id: Int, what: String, timeout: Duration) async throws -> JSONValue {
    guard let input = process.standardInput else { throw DevToolsError(message: "no pipe to the browser") }
    try input.writeAll(message.serialized + "\n")
    return try await poll("the browser's reply to \(what)", timeout: timeout) {
      try self.state.withLock { state -> JSONValue? in
        if let reply = state.replies.removeValue(forKey: id) { return reply }
        if !state.open { throw DevToolsError(message: "the browser ended before answering \(what)") }
        return nil
      }
    }
  }

  /// Ends the relay's input (the browser's pipe) and waits for the end; kills the group after 10 seconds.
  func close() async -> Termination? {
    process.closeStandardInput()
    let process = self.process
    let ended = await onOwnThread { process.wait(timeout: .seconds(10)) }
    if ended == nil {
      process.signalGroup(SIGKILL)
      process.wait()
    }
    return ended
  }
}
