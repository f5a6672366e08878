import DeepLink
import Model
import Posix
import ShieldCore
import Testing

@Suite("The core takes a task's grant for a rule at 0 minutes before the meter has seen its app")
struct ZeroLimitCoreTests {
  @Test("A shield asked by name, its task answered in the notification: the grant is asked for, not refused")
  func inlineTaskAtZeroMinutes() throws {
    let rule = Rule(name: "social", apps: ["Instagram"], dailyLimitMinutes: 0, grantMinutes: 1, warnMinutes: 0)
    var now = CoreHarness.start
    var core = ShieldCore(
      rules: RuleSet([rule]), ledger: Ledger(), settings: ShieldCore.Settings(calendar: .system), now: now)
    // A desktop is watched (the rule is metered), and nothing of the rule is in front.
    _ = core.handle(.desktopStarted(countsRunning: false), at: now)
    _ = core.handle(.focus(CoreHarness.terminal), at: now)
    now = MeterInstant(monotonic: MonotonicTime(nanoseconds: now.monotonic.nanoseconds + 5_000_000_000), wall: now.wall)
    _ = core.handle(.tick, at: now)
    #expect(core.overLimit["social"] == nil)
    #expect(core.usages.first?.overLimit == true)

    let effects = core.handle(.shieldAsked(app: "Instagram", rule: "social", key: PostKey(1)), at: now)
    guard case .post(_, let shieldKey)? = effects.first(where: { if case .post = $0 { true } else { false } }) else {
      Issue.record("no shield posted: \(effects)")
      return
    }
    _ = core.handle(
      .posted(shieldKey, id: 1, links: ["default": "shieldbridge://puzzle?app=Instagram&grant=1&id=shield-open"]),
      at: now)
    let clicked = core.handle(.action(id: 1, key: "default", token: nil), at: now)
    guard case .openTask(let request)? = clicked.first(where: { if case .openTask = $0 { true } else { false } })
    else {
      Issue.record("the click opened no task: \(clicked)")
      return
    }
    let asked = core.handle(
      .taskOpened(identifier: request.activation, rule: "social", .inline(app: "Instagram", grantMinutes: 1)), at: now)
    guard case .post(.task(_, _, let puzzle, _, _, _, _), let taskKey)? = asked.first else {
      Issue.record("no task posted: \(asked)")
      return
    }
    _ = core.handle(.posted(taskKey, id: 2, links: [:]), at: now)
    let answered = core.handle(.replied(id: 2, text: String(puzzle.answer)), at: now)
    #expect(answered.contains(.recordGrant(rule: "social")), "\(answered)")
  }
}
