import Config
import Foundation
import Model
import Posix
import ShieldBridge
import Spawn
import TestSupport
import Testing

/// `shieldbridge rules pick` on a real X display with real windows, under i3
/// and under openbox: the window brought to the front after the terminal is
/// the one added, by its class, once confirmed.
@Suite("rules pick on Xvfb with i3 and openbox")
struct RulesPickTests {
  /// `shieldbridge ARGUMENTS` on pipes: its output read as it comes, answers written when asked.
  private final class Prompted: Sendable {
    let process: Subprocess
    private let output = Shared<[UInt8]>([])
    private let errors = Shared<[UInt8]>([])

    init(_ arguments: [String], environment: [String: String]) throws {
      process = try Subprocess(
        [ShieldBridgeTool.path] + arguments, environment: ShieldBridgeTool.mergedEnvironment(environment),
        standardInput: .pipe, standardOutput: .pipe, standardError: .pipe)
      for (stream, buffer) in [(process.standardOutput, output), (process.standardError, errors)] {
        guard let stream else { continue }
        detachThread {
          var chunk = [UInt8](repeating: 0, count: 4096)
          while let count = try? chunk.withUnsafeMutableBytes({ try stream.read(into: $0) }), count > 0 {
            buffer.value.withLock { $0 += chunk[..<count] }
          }
        }
      }
    }

    var text: String { output.value.withLock { String(decoding: $0, as: UTF8.self) } }
    var errorText: String { errors.value.withLock { String(decoding: $0, as: UTF8.self) } }

    func waitFor(_ text: String) async throws {
      _ = try await poll("'\(text)' from shieldbridge (it said: \(self.text) \(self.errorText))") {
        self.text.contains(text) ? true : nil
      }
    }

    func answer(_ line: String) throws {
      try process.standardInput?.writeAll(line + "\n")
    }

    func status() async throws -> Int32? {
      let process = self.process
      return await onOwnThread {
        if case .exited(let status)? = process.wait(timeout: HangBound.wait) { return status }
        return nil
      }
    }
  }

  private func pick(
    windowManager: XSession.WindowManager, answer: String, rule: String = "social",
    config before: String = #"{"rules": [{"name": "social", "apps": ["Instagram"]}], "futureKey": 1}"#,
    windowClass: String = "Pickme"
  ) async throws -> (Prompted, Int32?, String, String) {
    let session = try await XSession(windowManager: windowManager)
    let folder = session.home.path + "/shieldbridge"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let config = folder + "/config.json"
    try before.write(toFile: config, atomically: true, encoding: .utf8)
    // The terminal pick runs in: the window in front when it starts.
    _ = try await session.launchXterm(windowClass: "Terminal")
    let pick = try Prompted(["rules", "pick", rule], environment: session.environment)
    defer { pick.process.signal(SIGKILL) }
    try await pick.waitFor("Bring the app you want to limit to the front")
    let app = try await session.launchXterm(windowClass: windowClass)
    if windowManager == .openbox { try await session.xdotool(["windowactivate", "--sync", app.hexWindow]) }
    try await pick.waitFor("Add it? [Y/n]")
    try pick.answer(answer)
    let status = try await pick.status()
    let after = try String(contentsOfFile: config, encoding: .utf8)
    return (pick, status, before, after)
  }

  @Test(arguments: [XSession.WindowManager.i3, .openbox])
  func theWindowBroughtToTheFrontIsAddedByItsClass(windowManager: XSession.WindowManager) async throws {
    let (pick, status, _, after) = try await pick(windowManager: windowManager, answer: "")
    #expect(status == 0, "\(pick.errorText)")
    #expect(pick.text.contains("  class: Pickme\n  instance: xterm\n"), "\(pick.text)")
    #expect(pick.text.contains(#"It would be added to the rule "social" as {"name":"Pickme","class":"Pickme"}."#))
    #expect(!pick.text.contains("class: Terminal"))
    #expect(after.contains(#"{"name": "Pickme", "class": "Pickme"}"#), "\(after)")
    #expect(after.contains(#""futureKey": 1"#))
    let rule = try #require(try Configuration.parse(Array(after.utf8), file: "config.json").0.rules.rules.first)
    #expect(rule.apps.map(\.name) == ["Instagram", "Pickme"])
    #expect(rule.apps[1].classes == ["Pickme"])
  }

  @Test(arguments: [XSession.WindowManager.i3, .openbox])
  func answeringNoAddsNothing(windowManager: XSession.WindowManager) async throws {
    let (pick, status, before, after) = try await pick(windowManager: windowManager, answer: "n")
    #expect(status == 0, "\(pick.errorText)")
    #expect(pick.text.hasSuffix("Nothing was added.\n"))
    #expect(after == before)
  }

  /// setup's "another one", answered with Enter, picks the window as `rules pick` does.
  @Test func setupPicksTheOtherOneByItsWindow() async throws {
    let session = try await XSession(windowManager: .i3)
    _ = try await session.launchXterm(windowClass: "Terminal")
    let setup = try Prompted(["setup"], environment: session.environment)
    defer { setup.process.signal(SIGKILL) }
    let another = CommonApps.all.count + 1
    try await setup.waitFor("Which ones?")
    try setup.answer("1 \(another)")
    try await setup.waitFor("or Enter to pick its window:")
    try setup.answer("")
    for prompt in ["may be used, all together [5]:", "Minutes one solved task adds [5]:", "Tasks a day at most [5]:"] {
      try await setup.waitFor(prompt)
      try setup.answer("")
    }
    try await setup.waitFor("Bring the app you want to limit to the front")
    _ = try await session.launchXterm(windowClass: "Pickme")
    try await setup.waitFor("Add it? [Y/n]")
    try setup.answer("y")
    #expect(try await setup.status() == 0, "\(setup.errorText)")
    #expect(setup.text.contains("Wrote the rule \"social\""), "\(setup.text)")
    let config = session.home.path + "/shieldbridge/config.json"
    let rule = try #require(try Configuration.load(from: config).configuration.rules.rules.first)
    #expect(rule.apps.map(\.name) == ["Instagram", "Pickme"])
    #expect(rule.apps[1].classes == ["Pickme"])
  }

  /// Issue 33's second point: the list's Instagram as an earlier setup wrote it (its site alone) and a
  /// window of class Instagram, which it did not cover; the pick joins the entry instead of failing.
  @Test(arguments: [XSession.WindowManager.i3, .openbox])
  func aWindowOfAnAppTheRuleHasJoinsItsEntry(windowManager: XSession.WindowManager) async throws {
    let (pick, status, _, after) = try await pick(
      windowManager: windowManager, answer: "y",
      config: #"{"rules": [{"name": "social", "apps": [{"name": "Instagram", "sites": ["instagram.com"]}]}]}"#,
      windowClass: "Instagram")
    #expect(status == 0, "\(pick.errorText)")
    #expect(
      pick.text.contains(#"The rule "social" has Instagram already: class Instagram would be added to it."#),
      "\(pick.text)")
    #expect(pick.text.contains(#"the rule "social" has Instagram already: added class Instagram to it"#))
    #expect(after.contains(#"{"name": "Instagram", "class": "Instagram", "sites": ["instagram.com"]}"#), "\(after)")
    let rules = try Configuration.parse(Array(after.utf8), file: "config.json").0.rules
    #expect(rules.rules[0].apps.map(\.name) == ["Instagram"])
    #expect(rules.match(AppIdentity(instance: "xterm", windowClass: "Instagram"))?.app.name == "Instagram")
  }

  /// A window the rule covers already: nothing is asked, nothing added.
  @Test func aWindowTheRuleCoversAlreadyAddsNothing() async throws {
    let config = #"{"rules": [{"name": "social", "apps": [{"name": "Instagram", "class": "Instagram"}]}]}"#
    let session = try await XSession(windowManager: .i3)
    let folder = session.home.path + "/shieldbridge"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try config.write(toFile: folder + "/config.json", atomically: true, encoding: .utf8)
    _ = try await session.launchXterm(windowClass: "Terminal")
    let pick = try Prompted(["rules", "pick", "social"], environment: session.environment)
    defer { pick.process.signal(SIGKILL) }
    try await pick.waitFor("Bring the app you want to limit to the front")
    _ = try await session.launchXterm(windowClass: "Instagram")
    #expect(try await pick.status() == 0, "\(pick.errorText)")
    #expect(
      pick.text.contains(#"It is covered already by the rule "social" (app "Instagram"): there is nothing to add."#))
    #expect(!pick.text.contains("Add it?"))
    #expect(try String(contentsOfFile: folder + "/config.json", encoding: .utf8) == config)
  }

  /// Issue 33's tenth point: a rule that is not there yet is started by the pick, with the default limits.
  @Test func aRuleThatIsNotThereIsStartedByThePick() async throws {
    let (pick, status, _, after) = try await pick(windowManager: .i3, answer: "", rule: "video")
    #expect(status == 0, "\(pick.errorText)")
    #expect(
      pick.text.hasPrefix(
        "There is no rule \"video\" yet: the app you pick starts it, with the default limits (limit 5m a day, "
          + "5m per task, at most 5 tasks a day, warned 1m before, on limit hide).\n"), "\(pick.text)")
    #expect(pick.text.contains(#"started the rule "video" with Pickme and the default limits"#))
    let rules = try Configuration.parse(Array(after.utf8), file: "config.json").0.rules.rules
    #expect(rules.map(\.name) == ["social", "video"])
    #expect(rules[1].apps.map(\.name) == ["Pickme"] && rules[1].apps[0].classes == ["Pickme"])
    #expect(rules[1].dailyLimitMinutes == Rule.defaultDailyLimitMinutes)
    #expect(after.contains(#""futureKey": 1"#))
  }
}
