public import Brake
import DBus
public import Localization
import Notifications
import Posix

/// `shieldbridge demo`: the whole flow on a machine with no desktop and no session bus.
///
/// A private `dbus-daemon`, the embedded notification server (with actions and
/// inline replies) and the service, all on the private bus, with the ledger in
/// a temporary directory so that the user's own state is never touched. It
/// shields an app, shows the notification as the server received it, clicks
/// it, answers the task once wrongly and once rightly through the server, and
/// shows the grant in the status. Everything it started is stopped again.
public enum Demo {
  /// Why the demo could not go on.
  public struct Failure: Error, CustomStringConvertible {
    public var description: String
  }

  /// Runs the demo; `say` receives each step as a line of text.
  ///
  /// - Parameters:
  ///   - localizer: The language the notifications are in.
  ///   - timeout: How long the whole demo may wait for the server and the service.
  /// - Throws: ``Failure`` naming the step that did not happen.
  public static func run(
    localizer: Localizer, executable: String, timeout: Duration = .seconds(12),
    say: @escaping @Sendable (String) -> Void
  ) async throws -> DayStatus {
    let directory = try temporaryDirectory()
    defer { FileSystem.removeTree(directory) }
    let bus: BusDaemon
    do { bus = try BusDaemon() } catch { throw Failure(description: "no private bus: \(error.message)") }
    defer { bus.stop() }
    say("Started a private message bus at \(bus.address)")

    let capabilities = [
      Capability.actions, Capability.body, Capability.bodyMarkup, Capability.bodyHyperlinks,
      Capability.inlineReply, Capability.persistence,
    ]
    let server: NotificationServer
    do {
      server = try NotificationServer(
        connection: try connect(bus), configuration: NotificationServer.Configuration(capabilities: capabilities))
      try await server.start()
    } catch {
      throw Failure(description: "the notification server: \(error)")
    }
    // What the server receives, relayed with a watchdog: a `nil` means the demo took too long.
    let (relay, relayContinuation) = AsyncStream.makeStream(of: NotificationServer.Activity?.self)
    let activity = server.activity()
    let forward = Task {
      for await event in activity { relayContinuation.yield(event) }
    }
    let watchdog = Task {
      try? await Task.sleep(for: timeout)
      relayContinuation.yield(nil)
    }
    defer {
      forward.cancel()
      watchdog.cancel()
    }
    var events = relay.makeAsyncIterator()
    say("Started the embedded notification server (actions, body markup, hyperlinks, inline replies)")

    let rule = Rule(name: "social", apps: ["Instagram", "TikTok", "YouTube"])
    let options = ShieldService.Options(
      configuration: Configuration(rules: RuleSet([rule])),
      ledger: LedgerStore(directory: directory + "/state"), localizer: localizer,
      launcher: Launcher(environment: [:]), executable: executable, log: { _ in })
    let serviceConnection = try connect(bus)
    let service: ShieldService
    do {
      service = try await ShieldService.start(on: serviceConnection, options: options)
    } catch {
      throw Failure(description: "the service: \(error.message)")
    }
    say("Started the ShieldBridge service as \(serviceConnection.uniqueName)")

    let id: UInt32
    do { id = try await service.shield(app: "YouTube") } catch { throw Failure(description: error.message) }
    let shield = try await nextNotification(&events, step: "the shield notification")
    say("Shielded YouTube; the server received notification \(id):")
    describe(shield, say: say)

    do { try server.click(id) } catch { throw Failure(description: "clicking: \(error.message)") }
    say("Clicked it (the default action)")
    var puzzle = try await nextNotification(&events, step: "the task")
    say("The service asked the task in a notification with a reply field:")
    describe(puzzle, say: say)

    let wrong = try answer(of: puzzle) + 1
    do { try server.reply(puzzle.id, text: String(wrong)) } catch { throw Failure(description: error.message) }
    say("Answered \(wrong), which is wrong")
    puzzle = try await nextNotification(&events, step: "the new task")
    describe(puzzle, say: say)

    let right = try answer(of: puzzle)
    do { try server.reply(puzzle.id, text: String(right)) } catch { throw Failure(description: error.message) }
    say("Answered \(right), which is right")
    let solved = try await nextNotification(&events, step: "the solved notification")
    describe(solved, say: say)

    let status: DayStatus
    do { status = try service.status() } catch { throw Failure(description: error.message) }
    for ruleStatus in status.rules {
      say(
        "Status on \(status.date): \(ruleStatus.grantsToday) grant today for \(ruleStatus.rule.name), "
          + "limit today \(ruleStatus.limitTodayMinutes) minutes")
    }
    await service.stop()
    serviceConnection.close()
    await server.stop()
    server.connection.close()
    say("Stopped the service, the server and the bus")
    return status
  }

  private static func connect(_ bus: BusDaemon) throws -> Connection {
    do { return try Connection(.address(bus.address)) } catch {
      throw Failure(description: "cannot connect to the private bus: \(error.message)")
    }
  }

  /// The next notification the server received.
  private static func nextNotification(
    _ events: inout AsyncStream<NotificationServer.Activity?>.Iterator, step: String
  ) async throws -> ReceivedNotification {
    while let event = await events.next() {
      guard let event else { break }
      if case .notified(let notification) = event { return notification }
    }
    throw Failure(description: "\(step) did not arrive in time")
  }

  private static func describe(_ notification: ReceivedNotification, say: (String) -> Void) {
    say("    summary: \(notification.summary)")
    for line in notification.body.split(separator: "\n", omittingEmptySubsequences: false) {
      say("    body:    \(line)")
    }
    for action in notification.actions {
      say("    action:  \(action.key) → “\(action.label)”")
    }
  }

  /// The answer to the task in a notification's body, read from its numbers and sign.
  static func answer(of notification: ReceivedNotification) throws -> Int {
    let words = notification.body.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "?" || $0 == "؟" })
    for index in words.indices.dropLast(2) {
      let operation = Puzzle.Operation.allCases.first { $0.symbol == words[index + 1] }
      if let left = Int(words[index].filter(\.isNumber)), let operation,
        let right = Int(words[index + 2].filter(\.isNumber)), let puzzle = Puzzle(left, operation, right)
      {
        return puzzle.answer
      }
    }
    throw Failure(description: "no task in “\(notification.body)”")
  }

  private static func temporaryDirectory() throws -> String {
    let base = Environment.value("TMPDIR") ?? "/tmp"
    do {
      return try FileSystem.makeTemporaryDirectory(prefix: base + "/shieldbridge-demo.")
    } catch {
      throw Failure(description: "cannot make a temporary directory")
    }
  }
}
