import Model
import ShieldCore
import Testing

/// Issue 36: what a panel shows, decided by the core, told when it changes,
/// and a wake-up per minute shown only while the rule in front counts.
@Suite("The glance: the rule in front and its minutes left, told once per change")
struct GlanceCoreTests {
  static func glances(_ effects: [ShieldEffect]) -> [Glance?] {
    effects.compactMap { if case .glance(let glance) = $0 { glance } else { nil } }
  }

  static func harness(limit: Int = 3) -> CoreHarness {
    CoreHarness(
      settings: ShieldCore.Settings(calendar: .utc),
      rule: Rule(name: "social", apps: ["Instagram"], dailyLimitMinutes: limit, warnMinutes: 0))
  }

  @Test("In front: 3 minutes left, then 2 when the first minute has gone; away: nothing, and no wake-up for it")
  func minutesLeft() {
    var harness = Self.harness()
    #expect(
      Self.glances(harness.send(.focus(CoreHarness.instagram))) == [
        Glance(rule: "social", app: "Instagram", state: .left(minutes: 3))
      ])
    // The next minute shown is the earliest deadline (no warning, the limit 3 minutes away, the save 30 s).
    #expect(harness.core.wait(after: harness.now) == .seconds(30))
    #expect(Self.glances(harness.pass(.seconds(30))).isEmpty)
    #expect(harness.core.wait(after: harness.now) == .seconds(30))
    #expect(
      Self.glances(harness.pass(.seconds(30))) == [
        Glance(rule: "social", app: "Instagram", state: .left(minutes: 2))
      ])
    // The same window again says nothing new.
    #expect(Self.glances(harness.send(.focus(CoreHarness.instagram))).isEmpty)
    let away = harness.send(.focus(CoreHarness.terminal))
    #expect(away.contains(.glance(nil)))
    // Saved once more, then nothing is due: no timer for the panel while nothing covered is in front.
    harness.pass(.seconds(30))
    #expect(harness.core.wait(after: harness.now) == nil)
  }

  @Test("At the limit: used up; idle in front: no wake-up for the panel")
  func usedUpAndIdle() {
    var harness = Self.harness(limit: 1)
    harness.send(.focus(CoreHarness.instagram))
    let limit = harness.pass(.seconds(60))
    #expect(Self.glances(limit) == [Glance(rule: "social", app: "Instagram", state: .usedUp)])

    var idle = Self.harness(limit: 5)
    idle.send(.focus(CoreHarness.instagram))
    idle.pass(.seconds(30))
    idle.send(.idle(true))
    idle.pass(.seconds(30))
    #expect(idle.core.wait(after: idle.now) == nil)
  }

  @Test("Minutes shown are rounded up: a part of a minute shows as one more")
  func rounding() {
    var harness = Self.harness(limit: 2)
    harness.send(.focus(CoreHarness.instagram))
    harness.pass(.seconds(1))
    #expect(harness.core.glance(at: harness.now)?.state == .left(minutes: 2))
    harness.pass(.seconds(59))
    #expect(harness.core.glance(at: harness.now)?.state == .left(minutes: 1))
    harness.pass(.seconds(59))
    #expect(harness.core.glance(at: harness.now)?.state == .left(minutes: 1))
  }
}
