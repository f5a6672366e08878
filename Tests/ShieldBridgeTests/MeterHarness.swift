import DBus
import Desktop
import Foundation
import JSON
import Log
import Model
import Notifications
import Store
import TestSupport

@testable import Config
@testable import ShieldBridge

/// A signal of the meter, as a client on the bus sees it.
enum MeterSignal: Hashable, Sendable {
  case limitReached(rule: String, app: String)
  case unlocked(rule: String, minutes: UInt32)
}

/// The service with a real desktop backend on a private bus with the embedded
/// notification server; the meter's signals and the service's log are collected.
final class MeterHarness: Sendable {
  let sandbox: Sandbox
  /// The sandbox's ledger, on the harness's wall clock.
  let store: LedgerStore
  let notifications: EmbeddedNotifications
  let outside: ServiceWatcher
  let service: ShieldService
  let serviceConnection: Connection
  /// `LimitReached` and `Unlocked`, in the order the bus delivered them.
  let signals = EventLog<MeterSignal>()
  /// Every entry the service logged, at every level, as `subsystem: message`.
  let log = EventLog<String>()
  private let collector: Task<Void, Never>

  /// The timings the tests use: a minute lasts a second, the ledger is written every second.
  static let quick = MeterSettings(
    idleLimit: .seconds(300), minuteLength: .seconds(1), saveInterval: .seconds(1), closeGrace: .seconds(1),
    killGrace: .seconds(1))

  /// The service with `desktop`, or (`desktop` `nil`) with what `openDesktop` opens for
  /// `choice` in `environment`, fallbacks included, as `serve` does. With
  /// `watchesConfiguration` the sandbox's config.json is watched and reloaded, as `serve` does.
  init(
    rules: [Rule], desktop: (any DesktopBackend)?, choice: DesktopChoice = .auto, environment: [String: String] = [:],
    settings: MeterSettings = MeterHarness.quick, sandbox: Sandbox? = nil, clock: WallClock = .system,
    watchesConfiguration: Bool = false
  ) async throws {
    let sandbox = try sandbox ?? Sandbox()
    self.sandbox = sandbox
    store = LedgerStore(directory: sandbox.stateDirectory, clock: clock)
    notifications = try await EmbeddedNotifications(capabilities: ServiceHarness.allCapabilities)
    outside = try await ServiceWatcher(address: notifications.bus.address)
    let messages = try await outside.connection.signals(matching: MatchRule(interface: ServiceInterface.name))
    let signals = self.signals
    collector = Task {
      for await message in messages {
        switch message.member {
        case ServiceInterface.limitReached.name:
          if let (rule, app) = try? message.decode(String.self, String.self) {
            signals.append(.limitReached(rule: rule, app: app))
          }
        case ServiceInterface.unlocked.name:
          if let (rule, minutes) = try? message.decode(String.self, UInt32.self) {
            signals.append(.unlocked(rule: rule, minutes: minutes))
          }
        default: break
        }
      }
    }
    serviceConnection = try Connection(.address(notifications.bus.address))
    let log = self.log
    var options = ShieldService.Options(
      configuration: Configuration(rules: RuleSet(rules), desktop: choice), ledger: store,
      localizer: .source, launcher: Launcher(environment: sandbox.environment), executable: ShieldBridgeTool.path,
      puzzleSeed: 42, notificationTimeout: HangBound.answer, desktop: desktop, meter: settings,
      logger: Logger(threshold: .debug, sink: LogSink { log.append($0.description) }))
    if watchesConfiguration { options.configurationPath = sandbox.configPath }
    if desktop == nil { options.openDesktop(environment: environment) }
    service = try await ShieldService.start(on: serviceConnection, options: options)
  }

  deinit {
    collector.cancel()
  }

  var server: NotificationServer { notifications.server }

  /// The next notification after position `after` whose summary is `summary`.
  func notification(after: Int = 0, summary: String) async throws -> ReceivedNotification {
    try await notifications.notification(after: after, "a notification \"\(summary)\"") { $0.summary == summary }
  }

  /// The next meter signal after position `after` that matches.
  func signal(after: Int = 0, _ wanted: MeterSignal, timeout: Duration = HangBound.wait) async throws -> MeterSignal {
    try await signals.first("the signal \(wanted)", after: after, timeout: timeout) { $0 == wanted }
  }

  /// The first log line after position `after` that contains `text`.
  func logLine(after: Int = 0, containing text: String, timeout: Duration = HangBound.wait) async throws -> String {
    do {
      return try await log.first("a log line with \"\(text)\"", after: after, timeout: timeout) { $0.contains(text) }
    } catch {
      throw PollTimedOut(what: "a log line with \"\(text)\"; the log:\n" + log.events.joined(separator: "\n"))
    }
  }

  /// `Usage()`, called over the bus and parsed.
  func usage() async throws -> JSONValue {
    let reply = try await outside.call(ServiceInterface.usage.name)
    return try JSONValue(parsing: try reply.decode(String.self))
  }

  /// The seconds stored in the ledger for `rule` today.
  func storedSeconds(_ rule: String) throws -> Int {
    try store.load().value.usedSeconds(for: rule, on: store.today)
  }

  func stop() async {
    await service.stop()
    serviceConnection.close()
  }
}

extension JSONValue {
  /// The `Usage()` entry of `rule`.
  func usageRule(_ rule: String) -> JSONValue? {
    self["rules"]?.arrayValue?.first { $0["name"]?.stringValue == rule }
  }
}
