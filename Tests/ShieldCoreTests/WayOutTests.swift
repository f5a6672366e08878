import Model
import ShieldCore
import Testing

@Suite("The shield's way out: decided per onLimit, counted once, the shield closed")
struct WayOutTests {
  @Test("Hide keeps the app hidden; close and notify close it")
  func decision() {
    #expect(WayOut.decide(onLimit: .hide) == .hide)
    #expect(WayOut.decide(onLimit: .close) == .close)
    #expect(WayOut.decide(onLimit: .notify) == .close)
    #expect(WayOut.actionKey == "way-out")
  }

  @Test("A click on the way out: counted and the apps hidden, the shield closed; a repeat does nothing")
  func takenOnce() throws {
    var harness = CoreHarness()
    let shield = try harness.reachLimit()
    let effects = harness.send(.action(id: shield, key: WayOut.actionKey, token: nil))
    #expect(effects.contains(.wayOut(rule: "social", .hide)))
    #expect(effects.contains(.close(shield)))
    #expect(!effects.contains { CoreHarness.isTaskRequest($0) != nil })
    #expect(!effects.contains(.recordGrant(rule: "social")))

    let again = harness.send(.action(id: shield, key: WayOut.actionKey, token: nil))
    #expect(!again.contains { if case .wayOut = $0 { true } else { false } })
    // The server closes it, as asked: no dismissal, and a click from its history counts nothing more.
    harness.send(.closed(id: shield, byUser: false))
    let fromHistory = harness.send(.action(id: shield, key: WayOut.actionKey, token: nil))
    #expect(!fromHistory.contains { if case .wayOut = $0 { true } else { false } })
  }

  @Test("After the way out the app coming back is hidden; the shield comes again after the re-offer interval")
  func notOfferedAtOnce() throws {
    var harness = CoreHarness()
    let shield = try harness.reachLimit()
    harness.send(.action(id: shield, key: WayOut.actionKey, token: nil))
    harness.send(.closed(id: shield, byUser: false))
    harness.send(.focus(CoreHarness.terminal))
    let back = harness.send(.focus(CoreHarness.instagram))
    #expect(back.contains(.enforce(rule: "social")))
    #expect(CoreHarness.count(back, CoreHarness.isShieldPost) == 0)
    harness.send(.focus(CoreHarness.terminal))
    harness.pass(.seconds(61))
    let later = harness.send(.focus(CoreHarness.instagram))
    #expect(CoreHarness.count(later, CoreHarness.isShieldPost) == 1)
  }

  @Test("A rule that only notifies: its way out closes the app")
  func notifyCloses() throws {
    let rule = Rule(
      name: "social", apps: ["Instagram"], dailyLimitMinutes: 1, grantMinutes: 1, maxGrantsPerDay: 2, warnMinutes: 0,
      onLimit: .notify)
    var core = ShieldCore(
      rules: RuleSet([rule]), ledger: Ledger(), settings: ShieldCore.Settings(calendar: .system), now: CoreHarness.start
    )
    var effects = core.handle(.shieldAsked(app: "Instagram", rule: "social", key: PostKey(1)), at: CoreHarness.start)
    #expect(effects.contains { if case .post(.shield, _) = $0 { true } else { false } })
    _ = core.handle(.posted(PostKey(1), id: 7, links: [:]), at: CoreHarness.start)
    effects = core.handle(.action(id: 7, key: WayOut.actionKey, token: nil), at: CoreHarness.start)
    #expect(effects.contains(.wayOut(rule: "social", .close)))
    #expect(effects.contains(.close(7)))
  }
}
