import Config
import DBus
import Foundation
import JSON
import Notifications
import Spawn
import TestSupport

/// `shieldbridge serve` as a real process on the bus at `address`, with the
/// sandbox's configuration and state.
final class ServeProcess: Sendable {
  let process: BackgroundProcess
  /// Its unique name on the bus, once it owns the service's name.
  let uniqueName: BusName

  /// Starts `serve --address ADDRESS ARGUMENTS…` and returns once it owns `org.shieldbridge.ShieldBridge`.
  ///
  /// - Parameters:
  ///   - environment: Set on top of the sandbox's service environment.
  ///   - launcher: The command that runs `shieldbridge serve …` (none: it is started itself).
  init(
    sandbox: Sandbox, address: String, watcher: ServiceWatcher, environment: [String: String] = [:],
    arguments: [String] = [], launcher: [String] = []
  ) async throws {
    // After a restart the watcher may not have seen the service before leave the bus yet: its
    // owner then is not this one. Unique names are never given twice on a bus.
    let before = watcher.owner.owner
    process = try BackgroundProcess(
      launcher + [ShieldBridgeTool.path, "serve", "--address", address] + arguments,
      environment: sandbox.serviceEnvironment(address: address).merging(environment) { $1 })
    let tracker = watcher.owner
    let newOwner = try? await poll("serve to own the service's name", every: .milliseconds(20)) {
      tracker.owner.flatMap { $0 == before ? nil : $0 }
    }
    guard let owner = newOwner else {
      let ended = await process.finish(timeout: .milliseconds(100))
      throw PollTimedOut(what: "serve to own the service's name (it said: \(ended.error))")
    }
    uniqueName = owner
  }

  /// Sends `signal` (SIGTERM unless told) and waits for the end.
  func terminate(with signal: Int32 = SIGTERM) async -> BackgroundProcess.Finished {
    process.process.signal(signal)
    return await process.finish()
  }

  /// The lines of its log so far.
  var logLines: [String] {
    process.standardError.split(separator: "\n").map(String.init)
  }

  /// Its log lines for dispatches, once there are `count` of them.
  func dispatchLines(_ count: Int) async throws -> [String] {
    try await poll("\(count) dispatch line(s) in serve's log") {
      let lines = self.logLines.filter { $0.hasPrefix("shieldbridge serve: notice: dispatched ") }
      return lines.count >= count ? lines : nil
    }
  }
}

/// `shieldbridge serve` as a real process on a private bus, with the embedded
/// notification server in this process, a recording puzzle handler and a
/// third connection that watches the service's name and `Dispatched`.
final class RunningService: Sendable {
  let sandbox: Sandbox
  let desk: EmbeddedNotifications
  let watcher: ServiceWatcher
  let serve: ServeProcess

  /// - Parameters:
  ///   - answersZeroIDs: whether the notification server answers `Notify` with 0, as notify-osd does.
  ///   - arguments: Given to `serve` after its `--address`.
  ///   - environment: Set on top of the sandbox's service environment.
  init(answersZeroIDs: Bool = false, arguments: [String] = [], environment: [String: String] = [:]) async throws {
    sandbox = try Sandbox()
    try sandbox.writeServiceConfig(
      puzzleHandler: [try sandbox.recordingHandler("puzzle"), "{app}", "{grant}"],
      viewHandler: [try sandbox.recordingHandler("view"), "{target}"])
    desk = try await EmbeddedNotifications(
      capabilities: NotificationServer.Configuration.defaultCapabilities, answersZeroIDs: answersZeroIDs)
    watcher = try await ServiceWatcher(address: desk.bus.address)
    serve = try await ServeProcess(
      sandbox: sandbox, address: desk.bus.address, watcher: watcher, environment: environment, arguments: arguments)
  }

  /// Runs `shieldbridge` with the service's environment, on the same bus.
  func run(_ arguments: [String]) async throws -> Subprocess.Result {
    try await sandbox.run(arguments, address: desk.bus.address)
  }

  /// `shieldbridge shield --app APP`; the id it printed.
  func shield(_ app: String) async throws -> UInt32 {
    try await sandbox.shield(app, address: desk.bus.address)
  }
}

/// A command that was to succeed did not.
struct CommandFailed: Error, CustomStringConvertible {
  var description: String
}

extension Sandbox {
  /// The sandbox's folders (its own runtime folder too), no display, no
  /// session bus, and English messages whatever the machine's locale.
  var isolatedEnvironment: [String: String] {
    environment.merging([
      "XDG_RUNTIME_DIR": root.path, "DISPLAY": "", "WAYLAND_DISPLAY": "", "DBUS_SESSION_BUS_ADDRESS": "",
      "LANG": "C.UTF-8", "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "SHIELDBRIDGE_LOG_LEVEL": "",
    ]) { $1 }
  }

  /// The environment for the service and its commands: ``isolatedEnvironment``
  /// with the bus at `address` as the session bus.
  func serviceEnvironment(address: String) -> [String: String] {
    isolatedEnvironment.merging(["DBUS_SESSION_BUS_ADDRESS": address]) { $1 }
  }

  /// Runs `shieldbridge` with ``serviceEnvironment(address:)`` and `changes`
  /// on top, on a thread of its own; after `timeout` it is killed and the result has no status.
  func run(
    _ arguments: [String], address: String, changes: [String: String] = [:], timeout: Duration = HangBound.wait
  ) async throws -> Subprocess.Result {
    let environment = serviceEnvironment(address: address).merging(changes) { $1 }
    return try await ShieldBridgeTool.run(arguments, environment: environment, timeout: timeout)
  }

  /// `shieldbridge shield --app APP` against the service on the bus at `address`; the id it printed.
  ///
  /// - Throws: ``CommandFailed`` when it did not print an id and exit 0.
  func shield(_ app: String, address: String) async throws -> UInt32 {
    let result = try await run(["shield", "--app", app], address: address)
    guard result.status == 0, let id = UInt32(result.output.trimmingCharacters(in: .newlines)) else {
      throw CommandFailed(description: "shield --app \(app): \(String(describing: result.termination)) \(result.error)")
    }
    return id
  }

  /// Writes a config.json with the rule `social` for `apps`, Instagram's
  /// `direct` view, and the handlers given.
  func writeServiceConfig(
    apps: [String] = ["Instagram", "YouTube"], puzzleHandler: [String]? = nil, viewHandler: [String]? = nil
  ) throws {
    var handlers: [(String, JSONValue)] = []
    if let puzzleHandler { handlers.append(("puzzle", .array(puzzleHandler.map { .string($0) }))) }
    if let viewHandler { handlers.append(("view", .array(viewHandler.map { .string($0) }))) }
    let configuration = JSONValue.object([
      ("rules", [.object([("name", "social"), ("apps", .array(apps.map { .string($0) }))])]),
      ("views", .object([("Instagram", .object([("direct", "https://www.instagram.com/direct/inbox/")]))])),
      ("handlers", .object(handlers)),
    ])
    try writeConfig(configuration.serialized)
  }
}
