import DBus
import Foundation
import JSON
import Synchronization
import TestSupport
import Testing

@testable import ShieldBridge

/// One day of a person on a desktop, the same on every ``DayDesk`` (issue 21's "Done when").
///
/// A minute lasts a second (`--minute-length 1000`). One rule, `social`: the
/// covered app (class or Wayland app id `Instagram`) and its site (instagram.com, served
/// locally) share a limit of ``limitMinutes``, with a warning
/// ``warnMinutes`` before it, ``grantMinutes`` more per task and one task a
/// day; at the limit the app is hidden. The day:
///
/// 1. the service, the covered app, an uncovered app (`Other`), and where a
///    browser runs, the browser on instagram.com with the extension and the real host;
/// 2. 20 times to another window and back (the app and the browser in turn):
///    the rule's count is within 2 s of the time they were really in front,
///    measured from the moment the desktop said so;
/// 3. the app kept in front until the warning, on the desktop's server;
/// 4. the limit: the app hidden, the tab turned to the shield page;
/// 5. the shield clicked (every part the server acts on): the task opens, a
///    right answer lifts the limit, the app brought back counts again;
/// 6. the limit again: the shield and the shield page say the extra time is
///    used up, and a click on the bubble's body opens no task;
/// 7. a night's sleep (the service stopped as at logout, started again with
///    the wall clock a day on and the boot clock 86400 s on, in a time
///    namespace): a new day, nothing used, no grants, the app counts again.
///
/// Every wait polls a state within a generous bound; the dwell in front
/// (0.5 to 1 s) is the person's, not a wait for a state. A failure carries
/// serve's log and what the bus saw.
final class ScriptedDay: Sendable {
  static let limitMinutes = 40
  static let warnMinutes = 5
  static let grantMinutes = 8
  static let rounds = 20
  /// How far the count may be from the time in front.
  static let tolerance = 2.0

  static let shieldSummary = "Instagram is paused"

  /// The configuration: the desk's desktop setting and the one rule.
  static func configuration(desktop: String?) -> String {
    let rule =
      #"{"name":"social","apps":[{"name":"Instagram","class":"Instagram","appId":"Instagram","#
      + #""sites":["instagram.com"]}],"#
      + #""dailyLimitMinutes":\#(limitMinutes),"warnMinutes":\#(warnMinutes),"grantMinutes":\#(grantMinutes),"#
      + #""maxGrantsPerDay":1,"onLimit":"hide"}"#
    let setting = desktop.map { #""desktop":"\#($0)","# } ?? ""
    return #"{\#(setting)"rules":[\#(rule)]}"#
  }

  /// What the day measured, for the test's output and the report.
  struct Report: Sendable, CustomStringConvertible {
    var desk: String
    var browser: DayBrowser?
    /// Seconds the covered app or site was in front during the 20 rounds, as the desktop said.
    var inFront: Double = 0
    /// Seconds the rule counted meanwhile.
    var counted: Int = 0
    /// How long each step took, in order.
    var steps: [(String, Duration)] = []

    var description: String {
      let each = steps.map { "\($0.0) \(Self.seconds($0.1))" }.joined(separator: ", ")
      let total = steps.reduce(Duration.zero) { $0 + $1.1 }
      return "\(desk), \(browser.map(\.description) ?? "no browser"): counted \(counted) s, in front "
        + String(format: "%.2f", inFront) + " s; \(Self.seconds(total)) in all (\(each))"
    }

    static func seconds(_ duration: Duration) -> String {
      let value = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
      return String(format: "%.1f s", value)
    }
  }

  /// The day's failure: what went wrong, with serve's log and what the bus saw.
  struct Failed: Error, CustomStringConvertible {
    var description: String
  }

  let desk: any DayDesk
  let browserKind: DayBrowser?
  let sandbox: Sandbox
  let watcher: ServiceWatcher
  let monitor: BusMonitor
  /// The service now running (a new one after the night).
  let serve: Mutex<ServeProcess?>
  let site: BackgroundProcess
  let port: Int
  let launcher: String
  let hostLog: String

  /// Runs the day on `desk` with `browser` (none: the desk has no browser window); the figures.
  ///
  /// The desk is finished at the end, also when a step fails.
  @discardableResult
  static func run(on desk: some DayDesk, browser: DayBrowser? = .chromium) async throws -> Report {
    let day: ScriptedDay
    do {
      day = try await ScriptedDay(desk: desk, browser: desk.browserEnvironment == nil ? nil : browser)
    } catch {
      await desk.finish()
      throw error
    }
    var report = Report(desk: desk.name, browser: day.browserKind)
    var session: DayBrowserSession?
    do {
      try await day.live(&report, browser: &session)
    } catch {
      let context = await day.context(browser: session)
      await session?.close()
      await day.finish()
      let done = report.steps.map { "\($0.0) \(Report.seconds($0.1))" }.joined(separator: ", ")
      throw Failed(description: "\(desk.name): \(error)\nsteps done: \(done)\n\(context)")
    }
    await session?.close()
    await day.finish()
    print("scripted day: \(report)")
    return report
  }

  private init(desk: any DayDesk, browser: DayBrowser?) async throws {
    self.desk = desk
    browserKind = browser
    sandbox = try Sandbox()
    try sandbox.writeConfig(Self.configuration(desktop: desk.desktopSetting))
    let address = desk.bus.address
    watcher = try await ServiceWatcher(address: address)
    monitor = try await BusMonitor(address: address)
    (site, port) = try await BrowserSite.startServer(root: sandbox.root.path)
    hostLog = sandbox.root.file("native-host.log")
    launcher = sandbox.root.file("native-host")
    try BrowserSite.writeLauncher(
      at: launcher, environment: sandbox.serviceEnvironment(address: address), log: hostLog,
      pids: sandbox.root.file("native-host.pids"))
    serve = Mutex(nil)
  }

  // MARK: The day

  private func live(_ report: inout Report, browser session: inout DayBrowserSession?) async throws {
    var started = ContinuousClock.now
    func step(_ name: String) {
      let now = ContinuousClock.now
      report.steps.append((name, now - started))
      started = now
    }

    // 1. The service, the apps, the browser on the site.
    let first = try await ServeProcess(
      sandbox: sandbox, address: desk.bus.address, watcher: watcher, environment: desk.serveEnvironment,
      arguments: Self.serveArguments)
    serve.withLock { $0 = first }
    let app = try await desk.launchApp("Instagram")
    let other = try await desk.launchApp("Other")
    var browserWindow: DayWindow?
    if let browserKind, let environment = desk.browserEnvironment {
      let opened = try await DayBrowserSession(
        browserKind, environment: sandbox.serviceEnvironment(address: desk.bus.address).merging(environment) { $1 },
        root: sandbox.root.path, port: port, launcher: launcher)
      session = opened
      let window = try await desk.browserWindow(browserKind.windowClass)
      browserWindow = window
      try await desk.bringToFront(window)
      _ = try await poll("the site counted with \(browserKind) in front", timeout: .seconds(60)) {
        try await usage()["counting"]?.boolValue == true ? true : nil
      }
    }
    try await desk.bringToFront(app)
    _ = try await poll("the app counted in front") { try await usage()["counting"]?.boolValue == true ? true : nil }
    step("start")

    // 2. Away and back 20 times, the app and the browser in turn.
    try await desk.bringToFront(other)
    let before = try await settledCount()
    var inFront = Duration.zero
    for round in 0..<Self.rounds {
      let target = round.isMultiple(of: 2) ? app : (browserWindow ?? app)
      try await desk.bringToFront(target)
      let since = ContinuousClock.now
      // The person's dwell: between half a second and a second.
      try await Task.sleep(for: .milliseconds(500 + (round * 137) % 500))
      try await desk.bringToFront(other)
      inFront += ContinuousClock.now - since
      try await Task.sleep(for: .milliseconds(300 + (round * 89) % 300))
    }
    let after = try await settledCount()
    report.inFront = Double(inFront.components.seconds) + Double(inFront.components.attoseconds) / 1e18
    report.counted = after - before
    #expect(
      abs(Double(report.counted) - report.inFront) <= Self.tolerance,
      "counted \(report.counted) s, in front \(report.inFront) s; serve: \((try? currentServe)?.logLines ?? [])")
    step("20 rounds")

    // 3. The warning, on the desktop's server.
    try await desk.bringToFront(app)
    let warning = try await notify("the warning", after: 0, timeout: .seconds(60)) {
      $0.hasPrefix("Instagram: ") && $0.hasSuffix(" left today")
    }
    let serving = try currentServe
    #expect(warning.sender == serving.uniqueName.description)
    try await expectOnScreen("the warning")
    step("warning")

    // 4. The limit: the app hidden, the tab turned.
    let shield = try await notify("the shield", summary: Self.shieldSummary, after: 0, timeout: .seconds(60))
    #expect(shield.body.contains("Solve a short task") || shield.body.contains("unlock"), "\(shield.body)")
    try await expectOnScreen("the shield")
    _ = try await poll("the app hidden at the limit") { try await desk.isHidden(app) ? true : nil }
    #expect(try await usage()["overLimit"]?.boolValue == true)
    if let browserWindow, let session {
      try await desk.bringToFront(browserWindow)
      _ = try await poll("the tab turned to the shield page") {
        try await session.currentURL().contains("/shield.html?site=instagram.com") ? true : nil
      }
      // The extension reports the shield page (no site) just after it shows it.
      _ = try await poll("the count to stop with the shield page in front") {
        try await usage()["counting"]?.boolValue == false ? true : nil
      }
    }
    step("limit")

    // 5. The shield's parts lead to the task; a right answer lifts the limit.
    var shown = 0
    var shields = 1
    let parts = desk.shieldParts
    for (index, part) in parts.enumerated() {
      if index > 0 {
        // The task before closed unanswered; the app brought back over its limit offers the shield again.
        try await desk.closeTask()
        try await desk.bringBack(app)
        _ = try await notify("the shield again", summary: Self.shieldSummary, after: shields)
        shields += 1
        _ = try await poll("the app hidden again") { try await desk.isHidden(app) ? true : nil }
      }
      let dispatches = watcher.dispatched.count
      try await desk.click(part, summary: Self.shieldSummary)
      let record = try await watcher.record(after: dispatches, "the dispatch of a click on the \(part)")
      #expect(record.outcome != "dismissed", "\(record.serialized)")
      let task = try await taskText(after: shown, "the task opened by the \(part)") { BrowserSite.answer(to: $0) }
      if index == parts.count - 1 {
        let screen = try await desk.taskScreen()
        try await desk.answerTask(String(task))
        let solved = try await taskText(after: screen.count, "the task's answer taken") {
          $0.contains("unlocked for today") ? true : nil
        }
        #expect(solved, "the task said the minutes are unlocked")
      }
      shown = try await desk.taskScreen().count
    }
    let lifted = try await poll("the grant in Usage()") {
      let rule = try await usage()
      return rule["grantsToday"]?.integerValue == 1 && rule["overLimit"]?.boolValue == false ? rule : nil
    }
    #expect((lifted["remainingSeconds"]?.integerValue ?? 0) > 0, "\(lifted)")
    if let session {
      _ = try await poll("the tab back on the site") {
        try await session.currentURL().hasPrefix("https://") ? true : nil
      }
    }
    try await desk.bringBack(app)
    _ = try await poll("the app brought back counted") {
      try await usage()["counting"]?.boolValue == true ? true : nil
    }
    #expect(try await desk.isHidden(app) == false)
    step("task and grant")

    // 6. The limit again: the extra time is used up, said by the shield and the page; a click opens nothing.
    let usedUp = try await notify(
      "the used-up shield", summary: Self.shieldSummary, after: shields, timeout: .seconds(Self.grantMinutes * 3 + 30))
    #expect(usedUp.body.contains("is used up"), "\(usedUp.body)")
    _ = try await poll("the app hidden at the limit again") { try await desk.isHidden(app) ? true : nil }
    if let browserWindow, let session {
      try await desk.bringToFront(browserWindow)
      _ = try await poll("the shield page to say the extra time is used up") {
        try await session.text(ofElement: "status").contains("is used up") ? true : nil
      }
    }
    let dispatches = watcher.dispatched.count
    let mark = serving.logLines.count
    try await desk.click(.body, summary: Self.shieldSummary)
    _ = try await poll("serve to see the used-up shield dismissed") {
      serving.logLines.dropFirst(mark).contains { $0.contains("was dismissed") } ? true : nil
    }
    #expect(watcher.dispatched.count == dispatches, "\(watcher.dispatched.events.map(\.serialized))")
    step("used up")

    // 7. The night: logged out, the machine asleep for a day, logged in again.
    try await desk.bringToFront(other)
    let today = try await poll("today's date") { try await usageReport()["date"]?.stringValue }
    _ = await (try currentServe).terminate()
    _ = try await poll("the service's name released") { watcher.owner.owner == nil ? true : nil }
    let next = try await ServeProcess(
      sandbox: sandbox, address: desk.bus.address, watcher: watcher,
      environment: desk.serveEnvironment.merging([
        "LD_PRELOAD": try libfaketime(), "FAKETIME": "+1d", "FAKETIME_DONT_FAKE_MONOTONIC": "1",
      ]) { $1 },
      arguments: Self.serveArguments,
      launcher: [
        try requiredTool("unshare", package: "util-linux"), "--time", "--boottime", "86400", "--monotonic", "86400",
      ] + throughShell)
    serve.withLock { $0 = next }
    let morning = try await usageReport()
    let date = try #require(morning["date"]?.stringValue)
    #expect(date != today && date > today, "\(today) then \(morning.serialized)")
    let rule = try #require(morning.usageRule("social"))
    #expect(rule["usedSeconds"]?.integerValue == 0, "\(rule)")
    #expect(rule["grantsToday"]?.integerValue == 0, "\(rule)")
    #expect(rule["overLimit"]?.boolValue == false, "\(rule)")
    try await desk.bringBack(app)
    _ = try await poll("the app counted on the new day") {
      let rule = try await usage()
      return rule["counting"]?.boolValue == true && (rule["usedSeconds"]?.integerValue ?? 0) >= 1 ? true : nil
    }
    step("new day")
  }

  // MARK: Helpers

  static let serveArguments = ["--minute-length", "1000", "--save-interval", "1000", "--log-level", "debug"]

  private var currentServe: ServeProcess {
    get throws {
      guard let serve = serve.withLock({ $0 }) else { throw Failed(description: "no service runs") }
      return serve
    }
  }

  /// `Usage()` of the running service.
  private func usageReport() async throws -> JSONValue {
    let reply = try await watcher.call(ServiceInterface.usage.name)
    return try JSONValue(parsing: try reply.decode(String.self))
  }

  /// `Usage()`'s entry for `social`.
  private func usage() async throws -> JSONValue {
    guard let rule = try await usageReport().usageRule("social") else { throw Failed(description: "no rule social") }
    return rule
  }

  /// The count once it has stopped (nothing covered in front) and held still.
  private func settledCount() async throws -> Int {
    var last: Int?
    return try await poll("the count to stop", every: .milliseconds(300)) {
      let rule = try await usage()
      guard rule["counting"]?.boolValue == false, let used = rule["usedSeconds"]?.integerValue else { return nil }
      defer { last = Int(used) }
      return last == Int(used) ? Int(used) : nil
    }
  }

  /// The `Notify` call with `summary` after the first `after` of them, from the service.
  ///
  /// Only the service's own calls count: a server may pass each one on over the bus (GNOME
  /// Shell's notification daemon calls the same `Notify` on the shell).
  private func notify(
    _ what: String, summary: String? = nil, after: Int, timeout: Duration = HangBound.wait,
    matching: @escaping (String) -> Bool = { _ in true }
  ) async throws -> BusMonitor.NotifyCall {
    let sender = try currentServe.uniqueName.description
    return try await poll("\(what) on the bus", timeout: timeout) {
      let calls = monitor.notifyCalls.filter { call in
        call.sender == sender && (summary.map { call.summary == $0 } ?? matching(call.summary))
      }
      return calls.count > after ? calls[after] : nil
    }
  }

  /// Waits until the desk's server shows a bubble, where the desk can tell.
  private func expectOnScreen(_ what: String) async throws {
    guard try await desk.notificationOnScreen() != nil else { return }
    _ = try await poll("\(what) on \(desk.name)'s screen") {
      try await desk.notificationOnScreen() == true ? true : nil
    }
  }

  /// Waits until the task screen after its first `offset` characters gives `found` a value.
  private func taskText<T>(after offset: Int, _ what: String, _ found: @escaping (String) -> T?) async throws -> T {
    try await poll(what, timeout: .seconds(30)) {
      found(String(try await desk.taskScreen().dropFirst(offset)))
    }
  }

  /// What a failure message carries: serve's log, the notifications on the bus, the dispatches.
  private func context(browser: DayBrowserSession?) async -> String {
    let log = (serve.withLock { $0 })?.logLines.suffix(200).joined(separator: "\n") ?? ""
    let posts = monitor.notifyCalls.map { "\($0.summary) | \($0.body)" }.joined(separator: "\n")
    let records = watcher.dispatched.events.map(\.serialized).joined(separator: "\n")
    let screen = (try? await desk.taskScreen()) ?? ""
    let host = (try? String(contentsOfFile: hostLog, encoding: .utf8)) ?? ""
    let usage = (try? await usageReport()).map(\.serialized) ?? "no answer"
    return """
      serve said:
      \(log)
      Usage() says now:
      \(usage)
      Notify calls on the bus:
      \(posts)
      dispatches:
      \(records)
      the task screen:
      \(screen.suffix(2000))
      the native host said:
      \(host.suffix(2000))
      the browser said:
      \(browser?.standardError.suffix(2000) ?? "")
      """
  }

  private func finish() async {
    if let serve = serve.withLock({ $0 }) { _ = await serve.terminate() }
    site.process.signal(SIGTERM)
    _ = await site.finish()
    await desk.finish()
  }
}
