import DeepLink
import Model
import Posix
import ShieldCore
import Testing

/// A core over two rules, not metered (a link may ask for a task any time), and what it asked to open.
private struct TwoRules {
  var core: ShieldCore
  let now = CoreHarness.start
  var key: UInt64 = 1
  /// The tasks the core asked the service to open and that have not ended, by activation: their rules.
  var open: [String: String?] = [:]
  /// Every task the core asked to open.
  var opened: [TaskRequest] = []
  var coalesced = 0

  init() {
    let rules = RuleSet([
      Rule(name: "social", apps: ["Instagram"]), Rule(name: "video", apps: ["TikTok"]),
    ])
    core = ShieldCore(
      rules: rules, ledger: Ledger(), settings: ShieldCore.Settings(calendar: .system), now: CoreHarness.start)
  }

  /// Sends `link` as `Open(s link)` does; whether it opened a task (the service would then open it as a
  /// process). `rule` is the rule the test knows covers the link's app (`nil`: none), kept with the open task.
  @discardableResult
  mutating func open(_ link: String, rule: String? = nil) throws -> Bool {
    let action = try Router<ShieldAction>(configuration: .standard).resolve(link).action
    key += 1
    let effects = core.handle(.linkOpened(action, link: link, key: PostKey(key)), at: now)
    for effect in effects {
      switch effect {
      case .openTask(let request):
        opened.append(request)
        open[request.activation] = rule
        _ = core.handle(.taskOpened(identifier: request.activation, rule: request.rule, .process), at: now)
        return true
      case .dispatched(_, .coalesced, _, _):
        coalesced += 1
      default:
        break
      }
    }
    return false
  }

  /// The task's process ended (its terminal closed, solved or not).
  mutating func end(_ activation: String) {
    open[activation] = nil
    _ = core.handle(.taskEnded(identifier: activation), at: now)
  }
}

@Suite("A rule has at most one open task: a request for more time is one event, however many links ask")
struct OneTaskPerRuleTests {
  @Test("30 puzzle links with 30 ids open one task; the other 29 are coalesced with the open one")
  func thirtyLinks() throws {
    var core = TwoRules()
    for index in 0..<30 {
      try core.open("shieldbridge://puzzle?app=Instagram&id=attack-\(index)", rule: "social")
    }
    #expect(core.opened.count == 1)
    #expect(core.opened.first?.rule == "social")
    #expect(core.coalesced == 29)
    // Another rule's task is another request.
    #expect(try core.open("shieldbridge://puzzle?app=TikTok&id=attack-video", rule: "video"))
    // Once the task ended, the next link opens the next one.
    core.end("attack-0")
    #expect(try core.open("shieldbridge://puzzle?app=Instagram&id=attack-30", rule: "social"))
    #expect(!(try core.open("shieldbridge://puzzle?app=Instagram&id=attack-31", rule: "social")))
  }

  @Test("A shield's click while a link's task is open for the rule opens nothing, and a view is not a task")
  func clickWhileOpen() throws {
    var harness = CoreHarness(metered: false)
    let shield = try harness.askShield()
    let link = "shieldbridge://puzzle?app=Instagram&id=from-a-caller"
    let action = try Router<ShieldAction>(configuration: .standard).resolve(link).action
    let opened = harness.send(.linkOpened(action, link: link, key: PostKey(7))).compactMap(CoreHarness.isTaskRequest)
    #expect(opened.map(\.rule) == ["social"])
    harness.send(.taskOpened(identifier: "from-a-caller", rule: "social", .process))
    let click = harness.send(.action(id: shield, key: "default", token: nil))
    #expect(!click.contains { CoreHarness.isTaskRequest($0) != nil })
    #expect(
      click.contains {
        if case .dispatched(_, .coalesced, let detail, _) = $0 { detail.contains("rule social") } else { false }
      })
    // A view of the app opens beside it.
    let view = "shieldbridge://view?app=Instagram&view=messages&id=from-a-caller"
    let viewAction = try Router<ShieldAction>(configuration: .standard).resolve(view).action
    #expect(
      harness.send(.linkOpened(viewAction, link: view, key: PostKey(8))).contains {
        CoreHarness.isTaskRequest($0) != nil
      })
  }

  @Test(
    "Over seeded sequences of links, clicks and ends, no rule ever has two tasks open, and a link opens one exactly when none is"
  )
  func seededSequences() throws {
    var random = SeededRandom(seed: 34)
    let apps = ["Instagram", "TikTok", "Unknown", ""]
    for _ in 0..<200 {
      var core = TwoRules()
      for step in 0..<40 {
        if !core.open.isEmpty, Int.random(in: 0..<4, using: &random) == 0 {
          let activation = core.open.keys.sorted()[Int.random(in: 0..<core.open.count, using: &random)]
          core.end(activation)
          continue
        }
        let app = apps[Int.random(in: 0..<apps.count, using: &random)]
        // Now and then the same id as an open task (a double click, a link sent twice).
        let id =
          !core.open.isEmpty && Bool.random(using: &random)
          ? core.open.keys.sorted()[0] : "link-\(step)-\(Int.random(in: 0..<1_000, using: &random))"
        let rule: String? = ["Instagram": "social", "TikTok": "video"][app]
        let ruleOpen = rule.map { rule in core.open.values.contains(rule) } ?? false
        let idOpen = core.open[id] != nil
        let link = "shieldbridge://puzzle?" + (app.isEmpty ? "" : "app=\(app)&") + "id=\(id)"
        let opened = try core.open(link, rule: rule)
        #expect(opened == (!ruleOpen && !idOpen), "\(link) with \(core.open)")
        for rule in ["social", "video"] {
          #expect(core.open.values.filter { $0 == rule }.count <= 1, "\(core.open)")
        }
      }
    }
  }
}
