import Brake
import DBus
import Foundation
import JSON
import Localization
import Notifications
import TestSupport

@testable import ShieldBridge

/// A private bus with the embedded notification server and the service on it,
/// in this process, plus a third connection that watches `Dispatched`.
final class ServiceHarness: Sendable {
  let sandbox: Sandbox
  let bus: BusDaemon
  let server: NotificationServer
  let serviceConnection: Connection
  let service: ShieldService
  let watcher: Connection
  /// Every notification and event the server saw.
  let activity = EventLog<NotificationServer.Activity>()
  /// Every `Dispatched` record, parsed.
  let dispatched = EventLog<JSONValue>()
  private let tasks: [Task<Void, Never>]

  static let allCapabilities = [
    Capability.actions, Capability.body, Capability.bodyMarkup, Capability.bodyHyperlinks,
    Capability.inlineReply,
  ]

  init(
    capabilities: [String] = allCapabilities, configuration: Configuration = ServiceHarness.configuration(),
    environment: [String: String] = [:], sandbox: Sandbox? = nil
  ) async throws {
    let sandbox = try sandbox ?? Sandbox()
    self.sandbox = sandbox
    bus = try BusDaemon()
    server = try NotificationServer(
      connection: try Connection(.address(bus.address)),
      configuration: NotificationServer.Configuration(capabilities: capabilities))
    try await server.start()
    let activity = self.activity
    let dispatched = self.dispatched
    var tasks = [activity.collect(server.activity())]
    watcher = try Connection(.address(bus.address))
    let records = try await watcher.signals(
      matching: MatchRule(interface: ServiceNames.interface, member: ServiceNames.dispatched))
    tasks.append(
      Task {
        for await message in records {
          if let text = try? message.decode(String.self), let record = try? JSONValue(parsing: text) {
            dispatched.append(record)
          }
        }
      })
    self.tasks = tasks
    serviceConnection = try Connection(.address(bus.address))
    service = try await ShieldService.start(
      on: serviceConnection,
      options: ShieldService.Options(
        configuration: configuration, ledger: sandbox.store, localizer: .source,
        launcher: Launcher(environment: environment), executable: ShieldBridgeTool.path, puzzleSeed: 42,
        log: { _ in }))
  }

  deinit {
    for task in tasks { task.cancel() }
  }

  /// The rules and views the tests use unless they say otherwise.
  static func configuration(
    maxGrantsPerDay: Int = 5, puzzleHandler: [String]? = nil, viewHandler: [String]? = nil
  ) -> Configuration {
    var configuration = Configuration(
      rules: RuleSet([Rule(name: "social", apps: ["Instagram", "YouTube"], maxGrantsPerDay: maxGrantsPerDay)]),
      views: Views([
        Views.AppViews(
          app: "Instagram", views: [Views.View(name: "direct", target: "https://www.instagram.com/direct/inbox/")])
      ]))
    configuration.handlers.puzzle = puzzleHandler.flatMap { try? ArgvTemplate($0) }
    configuration.handlers.view = viewHandler.flatMap { try? ArgvTemplate($0) }
    return configuration
  }

  /// The next notification the server receives after position `after`.
  func notification(
    after: Int, _ what: String = "a notification",
    where matches: @escaping @Sendable (ReceivedNotification) -> Bool =
      { _ in true }
  ) async throws -> ReceivedNotification {
    let event = try await activity.first(what, after: after) { event in
      if case .notified(let notification) = event { return matches(notification) }
      return false
    }
    guard case .notified(let notification) = event else { throw PollTimedOut(what: what) }
    return notification
  }

  /// The next `Dispatched` record after position `after`.
  func record(after: Int, _ what: String = "a dispatch") async throws -> JSONValue {
    try await dispatched.first(what, after: after)
  }

  /// Calls one of the service's methods from the watcher connection, as a client would.
  func call(_ member: MemberName, _ argument: String? = nil) async throws -> Message {
    let message = try Message.methodCall(
      destination: ServiceNames.busName, path: ServiceNames.path, interface: ServiceNames.interface, member: member)
    if let argument { try message.append(argument) }
    return try await watcher.call(message, timeout: .seconds(10))
  }

  /// A handler script that writes its arguments and activation token to `name` in the sandbox.
  func recordingHandler(_ name: String) throws -> String {
    let script = sandbox.root.file("\(name).sh")
    let output = sandbox.root.file(name)
    try writeExecutable(
      script,
      """
      #!/bin/sh
      { for argument in "$@"; do echo "arg=$argument"; done
        echo "token=${XDG_ACTIVATION_TOKEN:-}"
        echo "startup=${DESKTOP_STARTUP_ID:-}"; } > "\(output).tmp"
      mv "\(output).tmp" "\(output)"

      """)
    return script
  }

  /// The lines the recording handler `name` wrote, once it has run.
  func handlerOutput(_ name: String, timeout: Duration = .seconds(10)) async throws -> [String] {
    let path = sandbox.root.file(name)
    return try await poll("the handler's output in \(name)", timeout: timeout) {
      (try? String(contentsOfFile: path, encoding: .utf8))?.split(separator: "\n").map(String.init)
    }
  }
}

extension JSONValue {
  /// The `outcome` of a dispatch record.
  var outcome: String? { self["outcome"]?.stringValue }
}
