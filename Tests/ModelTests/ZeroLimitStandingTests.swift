import Model
import Store
import Testing

@Suite("A rule whose limit today is 0 minutes is at its limit from the start of the day")
struct ZeroLimitStandingTests {
  let day = LocalDay("2026-12-04")!

  @Test("Every daily limit, grant count, meter record and maximum: open exactly when at the limit or unmetered")
  func everyStanding() throws {
    for daily in [0, 1, 2] {
      for grantMinutes in [1, 5] {
        for maximum in [1, 2] {
          let rule = Rule(
            name: "social", apps: ["Instagram"], dailyLimitMinutes: daily, grantMinutes: grantMinutes,
            maxGrantsPerDay: maximum)
          for grants in 0...maximum {
            for reached in [nil, 0, 1, 2] as [Int?] {
              for metered in [false, true] {
                var ledger = Ledger()
                for _ in 0..<grants { try ledger.recordGrant(for: Rule(name: "social", apps: ["Instagram"]), on: day) }
                ledger.recordMeter(
                  metered: metered ? ["social"] : [], limitReached: reached.map { ["social": $0] } ?? [:], on: day)
                let atLimit = !metered || reached == grants || (daily == 0 && grants == 0)
                let expected: GrantStanding = grants >= maximum ? .usedUp : atLimit ? .open : .notAtLimit
                let context =
                  "daily \(daily), grants \(grants) of \(maximum), reached \(String(describing: reached)), "
                  + "metered \(metered)"
                #expect(ledger.isAtLimit(rule, on: day) == atLimit, "\(context)")
                #expect(ledger.grantStanding(of: rule, on: day) == expected, "\(context)")
              }
            }
          }
        }
      }
    }
  }

  @Test("A grant at 0 minutes is recorded before the meter saw the app; the next waits for the new limit")
  func grantBeforeTheAppWasSeen() throws {
    let rule = Rule(name: "social", apps: ["Instagram"], dailyLimitMinutes: 0, grantMinutes: 5)
    var ledger = Ledger()
    ledger.recordMeter(metered: ["social"], limitReached: [:], on: day)
    #expect(try ledger.recordGrant(for: rule, on: day) == 1)
    #expect(throws: GrantRefusal.self) { try ledger.recordGrant(for: rule, on: day) }
  }
}
