import Desktop
import Foundation
import JSON
import Model
import TestSupport
import Testing

@testable import ShieldBridge

extension XSession {
  /// Whether i3 keeps `window` in its scratchpad (under the `__i3_scratch` workspace), from `get_tree`.
  func isInScratchpad(_ window: UInt64) async throws -> Bool {
    let tree = try JSONValue(parsing: Array(try await i3msg(["-t", "get_tree"]).utf8))
    func search(_ node: JSONValue, inScratchpad: Bool) -> Bool? {
      let here = inScratchpad || node["name"]?.stringValue == "__i3_scratch"
      if node["window"]?.integerValue == Int64(window) { return here }
      for key in ["nodes", "floating_nodes"] {
        for child in node[key]?.arrayValue ?? [] {
          if let found = search(child, inScratchpad: here) { return found }
        }
      }
      return nil
    }
    return search(tree, inScratchpad: false) ?? false
  }
}

@Suite("The meter on Xvfb with i3: focus counts, the limit hides, a solved puzzle lifts it")
struct MeterI3Tests {
  static let rule = Rule(
    name: "social", apps: ["Instagram"], dailyLimitMinutes: 1, grantMinutes: 5, warnMinutes: 0, onLimit: .hide)

  /// i3 with an Instagram xterm, and the service watching it as `serve` would with `"desktop": "i3"`.
  private func start(_ choice: DesktopChoice = .i3) async throws -> (XSession, XClient, MeterHarness) {
    let session = try await XSession(windowManager: .i3)
    let xterm = try await session.launchXterm(windowClass: "Instagram")
    let harness = try await MeterHarness(
      rules: [Self.rule], desktop: nil, choice: choice, environment: session.environment)
    return (session, xterm, harness)
  }

  @Test(
    "Limit → shield and scratchpad; shown again → hidden again; inline answer → Unlocked and it stays",
    arguments: [DesktopChoice.i3, .auto])
  func hideAndUnlock(choice: DesktopChoice) async throws {
    let (session, xterm, harness) = try await start(choice)
    try await session.i3msg(["[class=\"Instagram\"] focus"])
    _ = try await harness.signal(.limitReached(rule: "social", app: "Instagram"))
    let shield = try await harness.notification(summary: "Instagram is paused")
    _ = try await poll("the xterm in the scratchpad") { try await session.isInScratchpad(xterm.window) ? true : nil }
    #expect(try harness.storedSeconds("social") >= 1)

    // Shown again while over the limit: hidden again.
    var mark = harness.log.count
    try await session.i3msg(["[class=\"Instagram\"] scratchpad show"])
    _ = try await harness.logLine(after: mark, containing: "rule social: hid 1 window(s)")
    _ = try await poll("the xterm in the scratchpad again") {
      try await session.isInScratchpad(xterm.window) ? true : nil
    }

    // The shield's puzzle, answered inline: a grant, Unlocked, and no more hiding.
    try await harness.solveInlinePuzzle(of: shield, rule: "social")
    mark = harness.log.count
    try await session.i3msg(["[class=\"Instagram\"] scratchpad show"])
    // Once Usage() says the rule counts, the focus event was handled, and with it any hiding.
    _ = try await poll("the rule to count again") {
      try await harness.usage().usageRule("social")?["counting"]?.boolValue == true ? true : nil
    }
    #expect(try await !session.isInScratchpad(xterm.window))
    #expect(!harness.log.events.dropFirst(mark).contains { $0.contains("hid") })
    let usage = try await harness.usage()
    #expect(usage["source"]?["backend"]?.stringValue == "i3")
    #expect(usage["source"]?["counting"]?.stringValue == "focus")
    #expect(usage.usageRule("social")?["grantsToday"]?.integerValue == 1)
    #expect(usage.usageRule("social")?["overLimit"]?.boolValue == false)
    await harness.stop()
  }

  @Test("When i3 goes away the meter says so and falls back to the running processes")
  func windowManagerLost() async throws {
    let (session, _, harness) = try await start()
    _ = try await harness.logLine(containing: "watching the desktop through i3")
    await session.killWindowManager()
    _ = try await harness.logLine(containing: "the i3 desktop was lost")
    _ = try await harness.logLine(containing: "falling back to processes")
    let usage = try await harness.usage()
    #expect(usage["source"]?["backend"]?.stringValue == "processes")
    await harness.stop()
  }
}
