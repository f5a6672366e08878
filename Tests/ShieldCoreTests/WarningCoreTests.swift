import Model
import ShieldCore
import Testing

/// The plain warning before the limit, as the core posts it: `warnMinutes`
/// before the limit, with the whole minutes left, and none where the warning
/// would come at the first second of the day's time (docs/using/meter.md).
@Suite struct WarningCoreTests {
  private func harness(limit: Int, warn: Int) -> CoreHarness {
    CoreHarness(
      rule: Rule(
        name: "social", apps: ["Instagram"], dailyLimitMinutes: limit, grantMinutes: 1, maxGrantsPerDay: 2,
        warnMinutes: warn))
  }

  /// The warnings posted, as (seconds in use when posted, minutes said), and the second the shield came.
  private func day(limit: Int, warn: Int) -> (warnings: [(second: Int, minutes: Int)], shield: Int?) {
    var harness = harness(limit: limit, warn: warn)
    var warnings: [(Int, Int)] = []
    var shield: Int?
    let effects = harness.send(.focus(CoreHarness.instagram))
    func look(_ effects: [ShieldEffect], at second: Int) {
      for effect in effects {
        if case .post(.warning(_, let minutes), _) = effect { warnings.append((second, minutes)) }
        if CoreHarness.isShieldPost(effect), shield == nil { shield = second }
      }
    }
    look(effects, at: 0)
    for second in 1...(limit * 60 + 2) { look(harness.pass(.seconds(1)), at: second) }
    return (warnings, shield)
  }

  @Test("A 1-minute limit warned 1 minute before: no warning at its first second, the shield at the limit")
  func aWarningAsLongAsTheLimitIsNone() {
    let (warnings, shield) = day(limit: 1, warn: 1)
    #expect(warnings.isEmpty, "\(warnings)")
    #expect(shield == 60)
  }

  @Test("A warning longer than the limit is none either")
  func aWarningLongerThanTheLimitIsNone() {
    let (warnings, shield) = day(limit: 2, warn: 5)
    #expect(warnings.isEmpty, "\(warnings)")
    #expect(shield == 120)
  }

  @Test(
    "Otherwise the warning comes warnMinutes before the limit and says them",
    arguments: [(2, 1), (3, 1), (3, 2), (5, 4)])
  func aWarningBeforeTheLimit(limit: Int, warn: Int) {
    let (warnings, shield) = day(limit: limit, warn: warn)
    #expect(warnings.map(\.second) == [(limit - warn) * 60])
    #expect(warnings.map(\.minutes) == [warn])
    #expect(shield == limit * 60)
  }
}
