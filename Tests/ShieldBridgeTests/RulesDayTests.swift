import DBus
import Foundation
import JSON
import Model
import Notifications
import Spawn
import Synchronization
import TestSupport
import Testing

@testable import Config
@testable import ShieldBridge

/// `shieldbridge serve` on Xvfb with i3 and the embedded notification server,
/// an `xterm -class Instagram` as the covered app and a plain xterm beside
/// it, the files changed as a person changes them.
final class RulesDayDesk: Sendable {
  let session: XSession
  let instagram: XClient
  /// A plain xterm beside it, which i3 focuses when Instagram is hidden; `nil`: Instagram alone.
  let other: XClient?
  let sandbox: Sandbox
  let desk: EmbeddedNotifications
  let watcher: ServiceWatcher
  let serve: Mutex<ServeProcess?> = Mutex(nil)

  static let arguments = ["--minute-length", "1000", "--save-interval", "1000"]

  /// The desktop and the bus; `config` (`nil`: none) written before `serve` starts.
  init(config: String?, withOtherWindow: Bool = true) async throws {
    session = try await XSession(windowManager: .i3)
    other = withOtherWindow ? try await session.launchXterm(windowClass: "Terminal") : nil
    instagram = try await session.launchXterm(windowClass: "Instagram")
    sandbox = try Sandbox()
    if let config { try sandbox.writeConfig(config) }
    desk = try await EmbeddedNotifications(capabilities: NotificationServer.Configuration.defaultCapabilities)
    watcher = try await ServiceWatcher(address: desk.bus.address)
    try await start()
  }

  var environment: [String: String] {
    ["DISPLAY": session.display, "I3SOCK": session.i3Socket ?? "", "TZ": TimeZone.current.identifier]
  }

  /// Starts `serve` (again).
  func start() async throws {
    let process = try await ServeProcess(
      sandbox: sandbox, address: desk.bus.address, watcher: watcher, environment: environment,
      arguments: Self.arguments)
    serve.withLock { $0 = process }
  }

  /// Stops `serve` with SIGTERM, as a logout or `systemctl --user restart` does.
  func stop() async {
    guard let process = serve.withLock({ $0 }) else { return }
    _ = await process.terminate()
    serve.withLock { $0 = nil }
  }

  /// Stops and starts `serve`.
  func restart() async throws {
    await stop()
    try await start()
  }

  var logLines: [String] { serve.withLock { $0 }?.logLines ?? [] }

  /// The first line of serve's log after position `after` that contains `text`.
  func logLine(after: Int = 0, containing text: String) async throws -> String {
    do {
      return try await poll("serve's log to say \"\(text)\"", timeout: HangBound.wait) {
        self.logLines.dropFirst(after).first { $0.contains(text) }
      }
    } catch {
      throw PollTimedOut(what: "serve's log to say \"\(text)\"; it said:\n" + logLines.joined(separator: "\n"))
    }
  }

  /// `Usage()` of the running service, parsed.
  func usage() async throws -> JSONValue {
    let reply = try await watcher.call(ServiceInterface.usage.name)
    return try JSONValue(parsing: try reply.decode(String.self))
  }

  /// Brings the Instagram window to the front, as a person does under i3: from the scratchpad when it is hidden.
  func bringBack() async throws {
    if try await isHidden() {
      _ = try await session.i3msg(["[class=\"Instagram\"] scratchpad show"])
    } else {
      _ = try await session.i3msg(["[class=\"Instagram\"] focus"])
    }
  }

  func isHidden() async throws -> Bool {
    try await session.isInScratchpad(instagram.window)
  }

  /// Waits until i3 keeps the Instagram window in its scratchpad.
  func waitUntilHidden(_ what: String = "the Instagram window hidden") async throws {
    do {
      _ = try await poll(what, timeout: HangBound.wait) { try await self.isHidden() ? true : nil }
    } catch {
      throw PollTimedOut(what: "\(what); serve said:\n" + logLines.joined(separator: "\n"))
    }
  }

  /// Writes config.json in place of the old one by rename, as editors and `sed -i` do.
  func writeConfig(_ text: String) throws {
    try sandbox.writeConfig(text)
  }

  /// `status` (and `status --json`) against the running service.
  func status(_ arguments: [String] = []) async throws -> Subprocess.Result {
    try await sandbox.run(["status", "--address", desk.bus.address] + arguments)
  }

  /// The `status --json` entry of `rule`.
  func statusJSON(_ rule: String) async throws -> JSONValue? {
    let result = try await status(["--json"])
    return try JSONValue(parsing: Array(result.output.utf8))["rules"]?.arrayValue?.first {
      $0["name"]?.stringValue == rule
    }
  }
}

@Suite("Today's rules belong to the apps, survive a lost file, and a reload is a fresh start")
struct RulesDayTests {
  /// A rule of 3 (one-second) minutes for the Instagram window.
  static func config(name: String = "social", limit: Int = 3, extra: String = "") -> String {
    #"{"desktop":"i3","rules":[{"name":"\#(name)","apps":["Instagram"],"dailyLimitMinutes":\#(limit),"grantMinutes":5,"maxGrantsPerDay":5,"warnMinutes":0\#(extra)}]}"#
  }

  /// Brings Instagram to the front and waits for its limit: hidden, and the shield posted.
  private func reachLimit(_ desk: RulesDayDesk, rule: String = "social") async throws {
    try await desk.bringBack()
    try await desk.waitUntilHidden("the Instagram window hidden at the limit")
    _ = try await desk.desk.notification(after: 0, "the shield") { $0.summary == "Instagram is paused" }
    _ = try await poll("the rule at its limit in Usage()") {
      try await desk.usage().usageRule(rule)?["overLimit"]?.boolValue == true ? true : nil
    }
  }

  @Test("serve started before any config.json: the rules written later are counted and shielded at their limit")
  func startedWithoutConfiguration() async throws {
    let desk = try await RulesDayDesk(config: nil)
    _ = try await desk.logLine(containing: "meter: off")
    // The file `setup --yes` writes: its folder made, the file put in place whole.
    try desk.writeConfig(
      #"{"rules":[{"name":"social","apps":["Instagram"],"dailyLimitMinutes":3,"grantMinutes":5,"maxGrantsPerDay":5,"warnMinutes":0}]}"#
    )
    _ = try await desk.logLine(containing: "config.json reloaded")
    _ = try await desk.logLine(containing: "watching the desktop through")
    try await desk.bringBack()
    _ = try await poll("Instagram counted") {
      try await desk.usage().usageRule("social")?["counting"]?.boolValue == true ? true : nil
    }
    let text = try await desk.status()
    #expect(!text.output.contains("watches no desktop"), "\(text.output)")
    try await desk.waitUntilHidden("the Instagram window hidden at its limit")
    _ = try await desk.desk.notification(after: 0, "the shield") { $0.summary == "Instagram is paused" }
    #expect(try await desk.usage()["source"]?["backend"]?.stringValue != "off")
    // Back to no rules: today's rules stay in force, as a start with the same files would have them.
    let mark = desk.logLines.count
    try FileManager.default.removeItem(atPath: desk.sandbox.configPath)
    _ = try await desk.logLine(after: mark, containing: "config.json reloaded")
    try await desk.bringBack()
    try await desk.waitUntilHidden("the Instagram window hidden with the file removed")
    await desk.stop()
  }

  @Test("A rename at the limit gives no fresh budget, in the running service and after a restart")
  func renameAtTheLimit() async throws {
    let desk = try await RulesDayDesk(config: Self.config())
    try await reachLimit(desk)
    let before = try #require(try await desk.usage().usageRule("social")?["usedSeconds"]?.integerValue)

    var mark = desk.logLines.count
    let path = desk.sandbox.configPath
    let sed = try await onOwnThread { try Subprocess.run(["sed", "-i", #"s/"social"/"social2"/"#, path]) }
    #expect(sed.status == 0, "\(sed.error)")
    _ = try await desk.logLine(after: mark, containing: "config.json reloaded")
    // Before the window is back: the new name has the day of the old one, at its limit.
    let renamed = try #require(try await desk.usage().usageRule("social2"))
    #expect(renamed["overLimit"]?.boolValue == true)
    #expect((renamed["usedSeconds"]?.integerValue ?? 0) >= before)
    #expect(renamed["limitSeconds"]?.integerValue == 3)
    try await desk.bringBack()
    try await desk.waitUntilHidden("the Instagram window hidden again after the rename")
    let shown = try #require(try await desk.usage().usageRule("social2")?["usedSeconds"]?.integerValue)
    #expect(shown - before <= 2, "counted as free after the rename: \(shown - before) s")

    // Renamed again with a higher limit, then restarted: one rule in force, the day's limit and use.
    mark = desk.logLines.count
    try desk.writeConfig(Self.config(name: "social3", limit: 500))
    _ = try await desk.logLine(after: mark, containing: "config.json reloaded")
    try await desk.restart()
    let kept = try #require(RulesInForce.load(from: RulesInForce.path(in: desk.sandbox.store)))
    #expect(kept.rules.rules.map(\.name) == ["social3"])
    _ = try await desk.logLine(containing: "watching the desktop through")
    let restarted = try #require(try await desk.usage().usageRule("social3"))
    #expect(restarted["overLimit"]?.boolValue == true)
    #expect(restarted["limitSeconds"]?.integerValue == 3)
    #expect((restarted["usedSeconds"]?.integerValue ?? 0) >= before)
    try await desk.bringBack()
    try await desk.waitUntilHidden("the Instagram window hidden after the restart")
    let afterRestart = try #require(try await desk.usage().usageRule("social3")?["usedSeconds"]?.integerValue)
    #expect(afterRestart - shown <= 2, "counted as free after the restart: \(afterRestart - shown) s")
    let json = try #require(try await desk.statusJSON("social3"))
    #expect(json["limitTodayMinutes"]?.integerValue == 3)
    await desk.stop()
  }

  @Test("rules-in-force.json deleted or damaged, the limit raised, serve restarted: today's limit holds")
  func lostFile() async throws {
    let desk = try await RulesDayDesk(config: Self.config())
    try await reachLimit(desk)
    for damage in ["deleted", "damaged"] {
      await desk.stop()
      let path = RulesInForce.path(in: desk.sandbox.store)
      if damage == "deleted" {
        try FileManager.default.removeItem(atPath: path)
      } else {
        try #"{"day":"#.write(toFile: path, atomically: true, encoding: .utf8)
      }
      try desk.writeConfig(Self.config(limit: 60))
      try await desk.start()
      let json = try #require(try await desk.statusJSON("social"), "\(damage)")
      #expect(json["limitTodayMinutes"]?.integerValue == 3, "\(damage)")
      #expect(json["limitSeconds"]?.integerValue == 3, "\(damage)")
      let text = try await desk.status()
      #expect(text.output.contains("  limit today: 3 minutes"), "\(damage): \(text.output)")
      #expect(text.output.contains("  from tomorrow: 60 minutes a day"), "\(damage): \(text.output)")
      try await desk.bringBack()
      try await desk.waitUntilHidden("the Instagram window hidden with rules-in-force.json \(damage)")
      #expect(try await desk.usage().usageRule("social")?["limitSeconds"]?.integerValue == 3, "\(damage)")
    }
    await desk.stop()
  }

  @Test(
    "Fifty reloads with the window brought back at once: hidden each time, never counted past the limit",
    arguments: [true, false])
  func noGapAtReloads(withOtherWindow: Bool) async throws {
    let desk = try await RulesDayDesk(config: Self.config(), withOtherWindow: withOtherWindow)
    try await reachLimit(desk)
    for round in 0..<50 {
      let used = try await desk.usage().usageRule("social")?["usedSeconds"]?.integerValue ?? 0
      // A change to the limits in force (the warning changes at once), and the window back at once.
      try desk.writeConfig(Self.config(limit: 3 - round % 2, extra: #","warnMinutes":\#(round % 2)"#))
      try await desk.bringBack()
      try await desk.waitUntilHidden("round \(round): the Instagram window hidden")
      let after = try #require(try await desk.usage().usageRule("social"))
      #expect(after["overLimit"]?.boolValue == true, "round \(round)")
      // The time it was in front before the hide, not a free run.
      #expect((after["usedSeconds"]?.integerValue ?? 0) - used <= 3, "round \(round)")
    }
    // Hidden for good: a second later still in the scratchpad.
    try await Task.sleep(for: .seconds(1))
    #expect(try await desk.isHidden())

    // And in downtime: a period around now, the file changed, the window back at once.
    let hour = Calendar.current.component(.hour, from: Date())
    let downtime = String(
      format: #","downtime":[{"from":"%02d:00","to":"%02d:00"}]"#, (hour + 23) % 24, (hour + 2) % 24)
    var mark = desk.logLines.count
    try desk.writeConfig(Self.config(limit: 60, extra: downtime))
    _ = try await desk.logLine(after: mark, containing: "config.json reloaded")
    for round in 0..<5 {
      mark = desk.logLines.count
      try desk.writeConfig(Self.config(limit: 60, extra: downtime + #","warnMinutes":\#(1 - round % 2)"#))
      try await desk.bringBack()
      try await desk.waitUntilHidden("downtime round \(round): the Instagram window hidden")
    }
    await desk.stop()
  }
}
