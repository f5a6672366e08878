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
      // Ten minutes on, the downtime ends: what is left of the hour (60 min less 10 min 20 s used) is unlocked.
      let ended = harness.pass(.seconds(600))
      #expect(ended.contains(.unlocked(rule: "social", minutes: 49)), "\(ended)")
    }
  }
}
