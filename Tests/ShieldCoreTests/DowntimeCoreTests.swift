import Foundation
import Model
import Posix
import ShieldCore
import Testing

/// Issue 25, point 5: the core at a downtime's start and end.
@Suite("The core in downtime: shielded at the start, the end unlocks what is left")
struct DowntimeCoreTests {
  @Test("Shielded at the start with an hour left; the end unlocks what is left of it")
  func startAndEnd() async {
    await #expect(processExitsWith: .success) {
      setenv("TZ", "UTC", 1)
      tzset()
      var harness = CoreHarness()
      // CoreHarness.start is 20:26:40 UTC; a downtime from 20:27 to 20:37 on every day, and an hour a day.
      var rule = Rule(name: "social", apps: ["Instagram"], dailyLimitMinutes: 60, warnMinutes: 0)
      rule.downtime = [DowntimePeriod(from: ClockTime("20:27")!, to: ClockTime("20:37")!)]
      harness.core = ShieldCore(
        rules: RuleSet([rule]), ledger: Ledger(), settings: ShieldCore.Settings(calendar: .system),
        now: CoreHarness.start)
      harness.send(.desktopStarted(countsRunning: false))
      harness.send(.focus(CoreHarness.instagram))
      #expect(harness.pass(.seconds(19)).contains(.enforce(rule: "social")) == false)
      #expect(harness.pass(.seconds(1)).contains(.enforce(rule: "social")))
      // The shield offers no task: it says until when, as the core decided at the post.
      #expect(harness.notifications.values.contains { $0.shieldKind == .downtime(until: "20:37") })
      // Ten minutes on, the downtime ends: what is left of the hour (60 min less 10 min 20 s used) is unlocked.
      let ended = harness.pass(.seconds(600))
      #expect(ended.contains(.unlocked(rule: "social", minutes: 49)), "\(ended)")
    }
  }

  @Test("A shield offers a task with the rule's minutes, or nothing once today's grants are used up")
  func kinds() {
    for maxGrants in [0, 3] {
      var harness = CoreHarness()
      var rule = Rule(name: "social", apps: ["Instagram"], dailyLimitMinutes: 1, warnMinutes: 0)
      rule.grantMinutes = 7
      rule.maxGrantsPerDay = maxGrants
      harness.core = ShieldCore(
        rules: RuleSet([rule]), ledger: Ledger(), settings: ShieldCore.Settings(calendar: .utc),
        now: CoreHarness.start)
      harness.send(.desktopStarted(countsRunning: false))
      harness.send(.focus(CoreHarness.instagram))
      #expect(harness.pass(.seconds(61)).contains(.enforce(rule: "social")))
      let kinds = harness.notifications.values.compactMap(\.shieldKind)
      #expect(kinds == [maxGrants == 0 ? .usedUp : .task(grantMinutes: 7)], "\(kinds)")
    }
  }
}

extension ShieldEffect.Post {
  /// What a shield offers; `nil` for any other notification.
  fileprivate var shieldKind: ShieldEffect.ShieldKind? {
    if case .shield(_, _, let kind) = self { kind } else { nil }
  }
}
