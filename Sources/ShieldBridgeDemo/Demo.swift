import Config
import DBus
import Desktop
public import Localization
public import Model
import Notifications
import Posix
import ShieldBridge
import Store

/// `shieldbridge demo`: the whole loop on a machine with no desktop and no session bus.
///
/// A private `dbus-daemon`, the embedded notification server (with actions and
/// inline replies), a headless X display with i3 and an xterm of the covered
/// app, and the service with its meter on that display, all private: the
/// ledger lives in a temporary directory, so the user's own state is never
/// touched. Minutes are shortened (``minuteLength``) so that the limit comes
/// within seconds, and the demo says so. It shows the time counted, the
/// warning, the limit reached and the window hidden (as i3's tree shows it),
/// takes the shield's way out once (the window stays hidden, the ledger
/// counts it), asks for the shield again and clicks its task, answers the task once wrongly and once rightly through
/// the server, and shows the window usable again: activated, it stays, and its
/// time counts. Everything it started is stopped again on every way out.
public enum Demo {
  /// Why the demo could not go on.
  public struct Failure: Error, CustomStringConvertible {
    public var description: String
  }

  /// How long a minute of the demo's rule lasts.
  public static let minuteLength = Duration.seconds(2)
  /// The covered app's window class.
  static let windowClass = "Instagram"

  /// Runs the demo; `say` receives each step as a line of text.
  ///
  /// - Parameters:
  ///   - localizer: The language the notifications are in.
  ///   - timeout: How long the whole demo may wait for the server, the desktop and the service.
  ///   - report: The lines of `shieldbridge report` for figures, to end the demo with its own report.
  /// - Throws: ``Failure`` naming the step that did not happen.
  public static func run(
    localizer: Localizer, executable: String, timeout: Duration = .seconds(25),
    report: @escaping @Sendable (HistoryReport) -> [String] = { _ in [] },
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
    defer { server.connection.close() }
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

    let desktop = try await DemoDesktop(directory: directory, timeout: .seconds(10))
    defer { desktop.stop() }
    say("Started a headless X display \(desktop.display) with i3 (its own configuration and IPC socket)")
    let window = try await desktop.openWindow(windowClass: windowClass, timeout: .seconds(10))
    say(
      "Opened an xterm of class \(windowClass), the covered app: window "
        + "0x\(String(window.window, radix: 16)), \(window.isFocused ? "focused" : "not focused yet")")

    let rule = Rule(name: "social", apps: ["Instagram", "TikTok", "YouTube"], dailyLimitMinutes: 2)
    let rules = RuleSet([rule])
    let backend: any DesktopBackend
    do {
      guard let opened = try DesktopChoice.i3.open(environment: desktop.environment, covers: { rules.match($0) != nil })
      else { throw DesktopError("no backend") }
      backend = opened
    } catch {
      throw Failure(description: "cannot watch the demo's desktop: \(error)")
    }
    let options = ShieldService.Options(
      configuration: Configuration(rules: rules), ledger: LedgerStore(directory: directory + "/state"),
      localizer: localizer, launcher: Launcher(environment: [:]), executable: executable, desktop: backend,
      meter: MeterSettings(minuteLength: minuteLength, saveInterval: .seconds(5)), logger: .discarding)
    let serviceConnection = try connect(bus)
    defer { serviceConnection.close() }
    let service: ShieldService
    do {
      service = try await ShieldService.start(on: serviceConnection, options: options)
    } catch {
      throw Failure(description: "the service: \(error.message)")
    }
    say("Started the ShieldBridge service as \(serviceConnection.uniqueName), metering the focused window through i3")
    let limit = seconds(rule.dailyLimitMinutes)
    say(
      "    rule social: Instagram, TikTok, YouTube; \(rule.dailyLimitMinutes) minutes a day, "
        + "\(rule.grantMinutes) more per task, a warning \(rule.warnMinutes) minute before the limit")
    say(
      "    in this demo a minute lasts \(minuteLength.components.seconds) s, so the limit is \(limit) s of use")

    do {
      let warning = try await nextNotification(&events, step: "the warning")
      say("The warning came after \(await usedSeconds(service)) s of \(limit) s:")
      describe(warning, say: say)

      let shield = try await nextNotification(&events, step: "the shield notification")
      say(
        "The limit was reached at \(await usedSeconds(service)) s of \(limit) s; the shield notification \(shield.id):")
      describe(shield, say: say)
      guard
        let hidden = await DemoDesktop.poll(
          timeout: .seconds(5), { (try? desktop.window(windowClass)).flatMap { $0?.isHidden == true ? $0 : nil } })
      else {
        throw Failure(description: "the window was not hidden at the limit")
      }
      say("i3's tree shows the window hidden: it is on the scratchpad (workspace \(hidden.workspace ?? "?"))")

      // The way out first, as the shield offers it (issue 25 point 1): counted, and the window stays hidden.
      do { try server.click(shield.id, action: shield.actions.first?.key ?? "") } catch {
        throw Failure(description: "clicking the way out: \(error.message)")
      }
      let backedOut = await DemoDesktop.poll(timeout: .seconds(5)) { () async -> Int? in
        guard let ledger = try? options.ledger.load().value else { return nil }
        let count = ledger.backedOut(for: rule.name, on: options.ledger.today)
        return count > 0 ? count : nil
      }
      guard let backedOut, (try? desktop.window(windowClass))??.isHidden == true else {
        throw Failure(description: "the way out was not counted, or the window not kept hidden")
      }
      say(
        "Clicked \"\(shield.actions.first?.label ?? "")\", the shield's first button: the window stays hidden, "
          + "and the ledger counts \(backedOut) way out today")

      let again: UInt32
      do { again = try await service.shield(app: windowClass) } catch {
        throw Failure(description: "asking for the shield again: \(error.message)")
      }
      _ = try await nextNotification(&events, step: "the shield asked again")
      say("Asked for the shield again, as shieldbridge shield --app Instagram does: notification \(again)")
      do { try server.click(again) } catch { throw Failure(description: "clicking: \(error.message)") }
      say("Clicked the shield (the default action, Solve a task)")
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

      try desktop.activate(windowClass)
      // Usable again: shown, in front, and counted (the service saw the focus and did not hide it).
      let counted = await DemoDesktop.poll(timeout: .seconds(5)) { () async -> RuleUsage? in
        guard let usage = await service.usage().rules.first, usage.counting, !usage.overLimit else { return nil }
        return usage
      }
      guard counted != nil, let shown = try desktop.window(windowClass), !shown.isHidden, shown.isFocused else {
        throw Failure(description: "the window was not usable again after the task")
      }
      let usage = await service.usage().rules.first
      say(
        "Activated the window as an app switcher does: it stays in front on workspace \(shown.workspace ?? "?"), "
          + "and its time counts again: \(usage?.usedSeconds ?? 0) s of \(usage?.limitSeconds ?? 0) s")
    } catch {
      await service.stop()
      throw error
    }

    let status: DayStatus
    do { status = try service.status() } catch {
      await service.stop()
      throw Failure(description: error.message)
    }
    for ruleStatus in status.rules {
      say(
        "Status on \(status.date): \(ruleStatus.grantsToday) grant today for \(ruleStatus.rule.name), "
          + "limit today \(ruleStatus.limitTodayMinutes) minutes")
    }
    await service.stop()
    await server.stop()
    desktop.stop()
    say("Stopped the service, the desktop, the server and the bus")
    // The history the service wrote as it saved the ledger, in the demo's own folder.
    let history = (try? HistoryStore(beside: options.ledger).load().value) ?? History()
    let ledger = (try? options.ledger.load().value) ?? Ledger()
    let figures = HistoryReport(history: history, ledger: ledger, rules: rules, from: status.date, to: status.date)
    say("The demo's own report, from the history its service kept (shieldbridge report --days 1):")
    for line in report(figures) { say("    " + line) }
    if let day = figures.days.first?.rules.first {
      let split = day.apps.filter { $0.usedSeconds > 0 }.map { "\($0.name) \($0.usedSeconds) s" }
      say(
        "    in this demo a minute lasts \(minuteLength.components.seconds) s: the history holds \(day.usedSeconds) s "
          + "used of a \(day.limitSeconds) s limit (\(split.isEmpty ? "no split" : split.joined(separator: ", "))), "
          + "\(day.grants) grant, \(day.shieldsShown) shield shown")
    }
    return status
  }

  /// Seconds of the demo's shortened minutes.
  private static func seconds(_ minutes: Int) -> Int {
    minutes * Int(minuteLength.components.seconds)
  }

  /// The seconds the demo's rule has been used so far.
  private static func usedSeconds(_ service: ShieldService) async -> Int {
    await service.usage().rules.first?.usedSeconds ?? 0
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
    // A summary alone (the warning) has no body line.
    let lines =
      notification.body.isEmpty ? [] : notification.body.split(separator: "\n", omittingEmptySubsequences: false)
    for line in lines {
      say("    body:    \(line)")
    }
    for action in notification.actions {
      say("    action:  \(action.key) → “\(action.label)”")
    }
  }

  /// The answer to the task in a notification's body, read from its numbers and sign.
  static func answer(of notification: ReceivedNotification) throws -> Int {
    if let puzzle = Puzzle.find(in: notification.body) { return puzzle.answer }
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
