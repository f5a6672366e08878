import DBus
import Foundation
import JSON
import Localization
import Log
import Model
import Notifications
import TestSupport

@testable import Config
@testable import ShieldBridge

/// A private bus with the embedded notification server and the service on it,
/// in this process, plus a third connection that watches `Dispatched`.
final class ServiceHarness: Sendable {
  let sandbox: Sandbox
  let notifications: EmbeddedNotifications
  let serviceConnection: Connection
  let service: ShieldService
  let outside: ServiceWatcher

  static let allCapabilities = [
    Capability.actions, Capability.body, Capability.bodyMarkup, Capability.bodyHyperlinks,
    Capability.inlineReply,
  ]

  init(
    capabilities: [Capability] = allCapabilities, configuration: Configuration = ServiceHarness.configuration(),
    environment: [String: String] = [:], sandbox: Sandbox? = nil, configurationPath: String? = nil,
    logger: Logger = .discarding
  ) async throws {
    let sandbox = try sandbox ?? Sandbox()
    self.sandbox = sandbox
    notifications = try await EmbeddedNotifications(capabilities: capabilities)
    outside = try await ServiceWatcher(address: notifications.bus.address)
    serviceConnection = try Connection(.address(notifications.bus.address))
    service = try await ShieldService.start(
      on: serviceConnection,
      options: ShieldService.Options(
        configuration: configuration, ledger: sandbox.store, localizer: .source,
        launcher: Launcher(environment: environment), executable: ShieldBridgeTool.path, puzzleSeed: 42,
        notificationTimeout: HangBound.answer, configurationPath: configurationPath, logger: logger))
  }

  var bus: BusDaemon { notifications.bus }
  var server: NotificationServer { notifications.server }
  /// Every notification and event the server saw.
  var activity: EventLog<NotificationServer.Activity> { notifications.activity }
  /// The connection the tests call the service from, as a client would.
  var watcher: Connection { outside.connection }
  /// Every `Dispatched` record, parsed.
  var dispatched: EventLog<JSONValue> { outside.dispatched }

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
    where matches: @escaping @Sendable (ReceivedNotification) -> Bool = { _ in true }
  ) async throws -> ReceivedNotification {
    try await notifications.notification(after: after, what, where: matches)
  }

  /// The next `Dispatched` record after position `after`.
  func record(after: Int, _ what: String = "a dispatch") async throws -> JSONValue {
    try await outside.record(after: after, what)
  }

  /// Calls one of the service's methods from the watcher connection, as a client would.
  func call(_ member: MemberName, _ argument: String? = nil) async throws -> Message {
    try await outside.call(member, argument)
  }

  /// A handler script that records its arguments and token: ``Sandbox/recordingHandler(_:)``.
  func recordingHandler(_ name: String) throws -> String {
    try sandbox.recordingHandler(name)
  }

  /// The lines the recording handler `name` wrote, once it has run.
  func handlerOutput(_ name: String, timeout: Duration = HangBound.wait) async throws -> [String] {
    try await sandbox.handlerOutput(name, timeout: timeout)
  }
}
