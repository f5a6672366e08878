import Model
import Posix
import TestSupport
import Testing

@Suite("The meter counts a rule's time while its app is in use, the screen is visible and input is not idle")
struct UsageMeterCountingTests {
  let big = socialRule(dailyLimitMinutes: 600, warnMinutes: 0)

  @Test("Focus, idle, inhibition and the screen decide together whether time counts")
  func combinations() {
    var clock = MeterClock(wall: localNoon("2026-06-15"))
    var meter = makeMeter([big], clock: clock)
    // Nothing in use yet: nothing counts.
    clock.pass(.seconds(10))
    #expect(meter.advance(to: clock.now) == [])
    #expect(meter.used("social") == .zero)

    #expect(meter.inUse(["social"], at: clock.now) == [])
    clock.pass(.seconds(10))
    #expect(meter.advance(to: clock.now) == [])
    #expect(meter.used("social") == .seconds(10))
    #expect(meter.usage(of: "social")?.counting == true)

    // Idle stops the count; the time before the idle report still counted.
    clock.pass(.seconds(5))
    _ = meter.idle(true, at: clock.now)
    #expect(meter.used("social") == .seconds(15))
    #expect(meter.usage(of: "social")?.counting == false)
    clock.pass(.seconds(30))
    _ = meter.advance(to: clock.now)
    #expect(meter.used("social") == .seconds(15))

    // Idle but inhibited (a video plays): it counts.
    _ = meter.inhibited(true, at: clock.now)
    clock.pass(.seconds(20))
    _ = meter.advance(to: clock.now)
    #expect(meter.used("social") == .seconds(35))

    // The screen blanks or locks: nothing counts, inhibited or not.
    _ = meter.screenVisible(false, at: clock.now)
    clock.pass(.seconds(40))
    _ = meter.idle(false, at: clock.now)
    _ = meter.inhibited(false, at: clock.now)
    clock.pass(.seconds(40))
    _ = meter.advance(to: clock.now)
    #expect(meter.used("social") == .seconds(35))

    // Visible, not idle, in use: counts again, until the focus moves elsewhere.
    _ = meter.screenVisible(true, at: clock.now)
    clock.pass(.seconds(7))
    _ = meter.inUse([], at: clock.now)
    clock.pass(.seconds(100))
    _ = meter.advance(to: clock.now)
    #expect(meter.used("social") == .seconds(42))
    #expect(meter.usage(of: "social")?.usedSeconds == 42)
    #expect(meter.usage(of: "social")?.limitSeconds == 36_000)
    #expect(meter.usage(of: "social")?.remainingSeconds == 36_000 - 42)
  }

  @Test("Several rules in use at once each count once; names no rule has are ignored")
  func severalRules() {
    let video = Rule(name: "video", apps: ["mpv"], dailyLimitMinutes: 600, warnMinutes: 0)
    var clock = MeterClock(wall: localNoon("2026-06-15"))
    var meter = makeMeter([big, video], clock: clock)
    _ = meter.inUse(["social", "video", "nonesuch"], at: clock.now)
    #expect(meter.rulesInUse == ["social", "video"])
    clock.pass(.seconds(30))
    _ = meter.inUse(["video"], at: clock.now)
    clock.pass(.seconds(30))
    _ = meter.advance(to: clock.now)
    #expect(meter.used("social") == .seconds(30))
    #expect(meter.used("video") == .seconds(60))
    #expect(meter.usage(of: "nonesuch") == nil)
    #expect(meter.usages.map(\.rule) == ["social", "video"])
    #expect(meter.usedSecondsToday == ["social": 30, "video": 60])
  }

  @Test("Many short focus changes lose no fraction of a second")
  func fractions() async {
    var clock = MeterClock(wall: localNoon("2026-06-15"))
    var meter = makeMeter([big], clock: clock)
    for round in 0..<10_000 {
      _ = meter.inUse(["social"], at: clock.now)
      clock.pass(.nanoseconds(123_456_789))
      _ = meter.inUse([], at: clock.now)
      clock.pass(.nanoseconds(876_543_211))
      await yieldToOtherTests(round: round)
    }
    #expect(meter.used("social") == .nanoseconds(1_234_567_890_000))
    #expect(meter.usage(of: "social")?.usedSeconds == 1_234)
  }

  @Test("A monotonic reading that goes backwards counts nothing, and nothing is counted twice")
  func monotonicBackwards() {
    var clock = MeterClock(wall: localNoon("2026-06-15"))
    var meter = makeMeter([big], clock: clock)
    _ = meter.inUse(["social"], at: clock.now)
    clock.pass(.seconds(10))
    _ = meter.advance(to: clock.now)
    clock.setMonotonicBack(by: .seconds(5))
    _ = meter.advance(to: clock.now)
    #expect(meter.used("social") == .seconds(10))
    clock.pass(.seconds(8))  // 3 s after the latest reading the meter saw
    _ = meter.advance(to: clock.now)
    #expect(meter.used("social") == .seconds(13))
  }

  @Test("Nothing is due while nothing counts: no deadline while idle, unfocused or blanked")
  func noDeadlineWhileNothingCounts() {
    let clock = MeterClock(wall: localNoon("2026-06-15"))
    var meter = makeMeter([big], clock: clock)
    #expect(meter.nextDeadline() == nil)
    _ = meter.inUse(["social"], at: clock.now)
    #expect(meter.nextDeadline() != nil)
    _ = meter.idle(true, at: clock.now)
    #expect(meter.nextDeadline() == nil)
    _ = meter.inhibited(true, at: clock.now)
    #expect(meter.nextDeadline() != nil)
    _ = meter.screenVisible(false, at: clock.now)
    #expect(meter.nextDeadline() == nil)
    _ = meter.screenVisible(true, at: clock.now)
    _ = meter.inUse([], at: clock.now)
    #expect(meter.nextDeadline() == nil)
    _ = meter.inUse(["nonesuch"], at: clock.now)
    #expect(meter.nextDeadline() == nil)
  }
}

@Suite("The meter warns once before the limit and reports the limit once")
struct UsageMeterLimitTests {
  @Test("The warning comes warnMinutes before the limit, the limit at the limit, each once")
  func warningThenLimit() {
    var clock = MeterClock(wall: localNoon("2026-06-15"))
    let start = clock.now.monotonic
    var meter = makeMeter([socialRule()], clock: clock)
    #expect(meter.inUse(["social"], at: clock.now) == [])
    #expect(meter.nextDeadline() == MonotonicTime(nanoseconds: start.nanoseconds + 240_000_000_000))
    clock.pass(until: meter.nextDeadline()!)
    #expect(meter.advance(to: clock.now) == [.warning(rule: "social", remaining: .seconds(60))])
    clock.pass(.seconds(1))
    #expect(meter.advance(to: clock.now) == [])
    // Away and back: no second warning for the same limit.
    _ = meter.inUse([], at: clock.now)
    #expect(meter.inUse(["social"], at: clock.now) == [])
    #expect(meter.nextDeadline() == MonotonicTime(nanoseconds: start.nanoseconds + 300_000_000_000))
    clock.pass(until: meter.nextDeadline()!)
    #expect(meter.advance(to: clock.now) == [.limitReached(rule: "social")])
    #expect(meter.usage(of: "social")?.overLimit == true)
    #expect(meter.usage(of: "social")?.remainingSeconds == 0)
    // Over the limit the time still counts (onLimit "notify"), without a second report.
    clock.pass(.seconds(30))
    #expect(meter.advance(to: clock.now) == [])
    #expect(meter.used("social") == .seconds(330))
    _ = meter.inUse([], at: clock.now)
    #expect(meter.inUse(["social"], at: clock.now) == [])
    // Only midnight is due now.
    let midnight = meter.nextDeadline()!
    #expect(midnight.nanoseconds > clock.now.monotonic.nanoseconds + 3_600_000_000_000)
  }

  @Test("A late call that jumps past both the warning and the limit reports the limit alone")
  func lateCall() {
    var clock = MeterClock(wall: localNoon("2026-06-15"))
    var meter = makeMeter([socialRule()], clock: clock)
    _ = meter.inUse(["social"], at: clock.now)
    clock.pass(.seconds(400))
    #expect(meter.advance(to: clock.now) == [.limitReached(rule: "social")])
  }

  @Test("No warning with warnMinutes 0")
  func noWarning() {
    var clock = MeterClock(wall: localNoon("2026-06-15"))
    var meter = makeMeter([socialRule(warnMinutes: 0)], clock: clock)
    _ = meter.inUse(["social"], at: clock.now)
    clock.pass(until: meter.nextDeadline()!)
    #expect(meter.used("social") == .zero)
    #expect(meter.advance(to: clock.now) == [.limitReached(rule: "social")])
    #expect(meter.used("social") == .seconds(300))
  }

  @Test("A limit of 0 is reached as soon as the app comes into use, once a day")
  func limitZero() {
    var clock = MeterClock(wall: localNoon("2026-06-15"))
    var meter = makeMeter([socialRule(dailyLimitMinutes: 0)], clock: clock)
    #expect(meter.usage(of: "social")?.overLimit == true)
    #expect(meter.inUse(["social"], at: clock.now) == [.limitReached(rule: "social")])
    clock.pass(.seconds(5))
    _ = meter.inUse([], at: clock.now)
    #expect(meter.inUse(["social"], at: clock.now) == [])
    #expect(meter.usage(of: "social")?.overLimit == true)
  }

  @Test(
    "A warning as long as the limit or longer is none: the limit comes alone",
    arguments: [(1, 1), (1, 2), (5, 10)])
  func warningAsLongAsTheLimit(limit: Int, warn: Int) {
    var clock = MeterClock(wall: localNoon("2026-06-15"))
    var meter = makeMeter([socialRule(dailyLimitMinutes: limit, warnMinutes: warn)], clock: clock)
    #expect(meter.inUse(["social"], at: clock.now) == [])
    #expect(
      meter.nextDeadline()
        == MonotonicTime(nanoseconds: clock.now.monotonic.nanoseconds + UInt64(limit) * 60_000_000_000))
    clock.pass(.seconds(1))
    #expect(meter.advance(to: clock.now) == [])
    clock.pass(until: meter.nextDeadline()!)
    #expect(meter.advance(to: clock.now) == [.limitReached(rule: "social")])
  }

  @Test("Minutes may be shorter for the demo and the tests")
  func shortMinutes() {
    var clock = MeterClock(wall: localNoon("2026-06-15"))
    var meter = UsageMeter(
      settings: UsageMeter.Settings(
        rules: RuleSet([socialRule()]), calendar: .system, minuteLength: .milliseconds(500)),
      ledger: Ledger(), now: clock.now)
    _ = meter.inUse(["social"], at: clock.now)
    clock.pass(.seconds(2))
    #expect(meter.advance(to: clock.now) == [.warning(rule: "social", remaining: .milliseconds(500))])
    clock.pass(.milliseconds(500))
    #expect(meter.advance(to: clock.now) == [.limitReached(rule: "social")])
    #expect(meter.usage(of: "social")?.limitSeconds == 2)
  }
}

@Suite("A solved puzzle raises today's limit and lifts the shield")
struct UsageMeterGrantTests {
  @Test("A grant lifts a rule over its limit, and a new warning comes before the new limit")
  func liftAndWarnAgain() {
    var clock = MeterClock(wall: localNoon("2026-06-15"))
    var meter = makeMeter([socialRule()], clock: clock)
    _ = meter.inUse(["social"], at: clock.now)
    clock.pass(.seconds(240))
    #expect(meter.advance(to: clock.now) == [.warning(rule: "social", remaining: .seconds(60))])
    clock.pass(.seconds(60))
    #expect(meter.advance(to: clock.now) == [.limitReached(rule: "social")])
    clock.pass(.seconds(2))
    #expect(meter.granted("social", grantsToday: 1, at: clock.now) == [.lifted(rule: "social")])
    let usage = meter.usage(of: "social")
    #expect(usage?.grantsToday == 1)
    #expect(usage?.limitSeconds == 600)
    #expect(usage?.usedSeconds == 302)
    #expect(usage?.overLimit == false)
    // The new warning at 9 minutes, the new limit at 10.
    #expect(meter.nextDeadline() == MonotonicTime(nanoseconds: clock.now.monotonic.nanoseconds + 238_000_000_000))
    clock.pass(until: meter.nextDeadline()!)
    #expect(meter.advance(to: clock.now) == [.warning(rule: "social", remaining: .seconds(60))])
    clock.pass(until: meter.nextDeadline()!)
    #expect(meter.advance(to: clock.now) == [.limitReached(rule: "social")])
    #expect(meter.used("social") == .seconds(600))
  }

  @Test("A grant too small for its warning gets none, only the new limit")
  func grantTooCloseForWarning() {
    var clock = MeterClock(wall: localNoon("2026-06-15"))
    var meter = makeMeter([socialRule(warnMinutes: 10)], clock: clock)
    // A warning longer than the limit is none.
    #expect(meter.inUse(["social"], at: clock.now) == [])
    clock.pass(.seconds(300))
    #expect(meter.advance(to: clock.now) == [.limitReached(rule: "social")])
    #expect(meter.granted("social", grantsToday: 1, at: clock.now) == [.lifted(rule: "social")])
    clock.pass(until: meter.nextDeadline()!)
    #expect(meter.advance(to: clock.now) == [.limitReached(rule: "social")])
    #expect(meter.used("social") == .seconds(600))
  }

  @Test("A grant while under the limit lifts nothing; a count no higher changes nothing")
  func grantUnderLimit() {
    let clock = MeterClock(wall: localNoon("2026-06-15"))
    var meter = makeMeter([socialRule()], clock: clock)
    #expect(meter.granted("social", grantsToday: 1, at: clock.now) == [])
    #expect(meter.granted("social", grantsToday: 1, at: clock.now) == [])
    #expect(meter.granted("social", grantsToday: 0, at: clock.now) == [])
    #expect(meter.granted("nonesuch", grantsToday: 3, at: clock.now) == [])
    #expect(meter.usage(of: "social")?.limitSeconds == 600)
  }

  @Test("With today's grants used up the rule stays over its limit")
  func grantsUsedUp() throws {
    var clock = MeterClock(wall: localNoon("2026-06-15"))
    var ledger = Ledger()
    let rule = socialRule(maxGrantsPerDay: 2)
    let today = LocalDay.containing(clock.now.wall)
    try ledger.recordGrant(for: rule, on: today)
    try ledger.recordGrant(for: rule, on: today)
    var meter = makeMeter([rule], ledger: ledger, clock: clock)
    #expect(meter.usage(of: "social")?.limitSeconds == 900)
    _ = meter.inUse(["social"], at: clock.now)
    clock.pass(.seconds(900))
    #expect(meter.advance(to: clock.now) == [.limitReached(rule: "social")])
    // The ledger refused a third grant; the service has nothing new to tell.
    #expect(meter.granted("social", grantsToday: 2, at: clock.now) == [])
    #expect(meter.usage(of: "social")?.overLimit == true)
    #expect(meter.usage(of: "social")?.grantsToday == 2)
  }

  @Test("A grant that another process recorded is taken in from the ledger")
  func absorbLedger() throws {
    var clock = MeterClock(wall: localNoon("2026-06-15"))
    let rule = socialRule()
    var meter = makeMeter([rule], clock: clock)
    _ = meter.inUse(["social"], at: clock.now)
    clock.pass(.seconds(300))
    #expect(meter.advance(to: clock.now) == [.limitReached(rule: "social")])
    var ledger = Ledger()
    try ledger.recordGrant(for: rule, on: meter.day)
    ledger.recordUsedSeconds(250, for: "social", on: meter.day)
    #expect(meter.absorb(ledger, at: clock.now) == [.lifted(rule: "social")])
    #expect(meter.used("social") == .seconds(300))
    ledger.recordUsedSeconds(700, for: "social", on: meter.day)
    #expect(meter.absorb(ledger, at: clock.now) == [.limitReached(rule: "social")])
    #expect(meter.used("social") == .seconds(700))
  }
}

@Suite("The meter starts from the ledger, so a restart keeps the day's use")
struct UsageMeterRestartTests {
  @Test("Restored use counts on, with the warning and the limit where they were")
  func restored() {
    var clock = MeterClock(wall: localNoon("2026-06-15"))
    var ledger = Ledger()
    let today = LocalDay.containing(clock.now.wall)
    ledger.recordUsedSeconds(200, for: "social", on: today)
    ledger.recordUsedSeconds(9_999, for: "social", on: today.adding(days: -1)!)
    var meter = makeMeter([socialRule()], ledger: ledger, clock: clock)
    #expect(meter.usage(of: "social")?.usedSeconds == 200)
    _ = meter.inUse(["social"], at: clock.now)
    clock.pass(until: meter.nextDeadline()!)
    #expect(meter.advance(to: clock.now) == [.warning(rule: "social", remaining: .seconds(60))])
    #expect(meter.used("social") == .seconds(240))
    #expect(meter.usedSecondsToday == ["social": 240])
    #expect(meter.usedSecondsByDay[today.adding(days: -1)!] == ["social": 9_999])
  }

  @Test("A restart inside the warning's minute warns at the first use")
  func restoredInsideWarning() {
    var clock = MeterClock(wall: localNoon("2026-06-15"))
    var ledger = Ledger()
    ledger.recordUsedSeconds(290, for: "social", on: LocalDay.containing(clock.now.wall))
    var meter = makeMeter([socialRule()], ledger: ledger, clock: clock)
    #expect(meter.inUse(["social"], at: clock.now) == [.warning(rule: "social", remaining: .seconds(10))])
    clock.pass(until: meter.nextDeadline()!)
    #expect(meter.advance(to: clock.now) == [.limitReached(rule: "social")])
  }

  @Test("A rule already over its limit reports it at its first use")
  func restoredOverLimit() {
    let clock = MeterClock(wall: localNoon("2026-06-15"))
    var ledger = Ledger()
    ledger.recordUsedSeconds(300, for: "social", on: LocalDay.containing(clock.now.wall))
    var meter = makeMeter([socialRule()], ledger: ledger, clock: clock)
    #expect(meter.usage(of: "social")?.overLimit == true)
    #expect(meter.nextDeadline() == nil)
    #expect(meter.inUse(["social"], at: clock.now) == [.limitReached(rule: "social")])
  }
}

@Suite("Days: a new local day starts from the base limit, and a moved wall clock moves only the bucket")
struct UsageMeterDayTests {
  @Test("Time that spans midnight is split, the new day starts from the base limit and lifts the shield")
  func midnightSplit() throws {
    let day = LocalDay("2026-06-15")!
    let next = day.adding(days: 1)!
    var clock = MeterClock(wall: next.start.adding(seconds: -600))
    var ledger = Ledger()
    let rule = socialRule(warnMinutes: 0)
    try ledger.recordGrant(for: rule, on: day)
    ledger.recordUsedSeconds(240, for: "social", on: day)
    var meter = makeMeter([rule], ledger: ledger, clock: clock)
    #expect(meter.day == day)
    _ = meter.inUse(["social"], at: clock.now)
    clock.pass(until: meter.nextDeadline()!)
    #expect(meter.advance(to: clock.now) == [.limitReached(rule: "social")])
    #expect(meter.used("social") == .seconds(600))
    // The next deadline is midnight, 4 minutes on.
    #expect(meter.nextDeadline() == MonotonicTime(nanoseconds: clock.now.monotonic.nanoseconds + 240_000_000_000))
    // The service comes 30 s late: those 30 s belong to the new day.
    clock.pass(.seconds(270))
    #expect(meter.advance(to: clock.now) == [.newDay(next), .lifted(rule: "social")])
    #expect(meter.day == next)
    #expect(meter.usedSeconds(on: day) == ["social": 840])
    #expect(meter.usedSecondsToday == ["social": 30])
    let usage = meter.usage(of: "social")
    #expect(usage?.grantsToday == 0)
    #expect(usage?.limitSeconds == 300)
    // The base limit again: the limit comes 270 s later.
    clock.pass(until: meter.nextDeadline()!)
    #expect(meter.advance(to: clock.now) == [.limitReached(rule: "social")])
  }

  @Test("A new day begins at the first input after midnight when nothing counted across it")
  func newDayWhileNothingCounts() {
    let day = LocalDay("2026-06-15")!
    var clock = MeterClock(wall: localNoon("2026-06-15"))
    var meter = makeMeter([socialRule(dailyLimitMinutes: 0)], clock: clock)
    #expect(meter.inUse(["social"], at: clock.now) == [.limitReached(rule: "social")])
    _ = meter.inUse([], at: clock.now)
    clock.pass(.seconds(20 * 3_600))
    // Limit 0 stays reached on the new day: it is lifted by nothing, and reported again at use.
    #expect(meter.inUse(["social"], at: clock.now) == [.newDay(day.adding(days: 1)!), .limitReached(rule: "social")])
  }

  @Test("A wall clock set a day forward and a day back neither invents nor loses a second, nor opens a day")
  func wallClockJumps() {
    let monday = LocalDay("2026-06-15")!
    var clock = MeterClock(wall: localNoon("2026-06-15"))
    var meter = makeMeter([socialRule(dailyLimitMinutes: 600, warnMinutes: 0)], clock: clock)
    _ = meter.inUse(["social"], at: clock.now)
    clock.pass(.seconds(60))
    clock.setWall(by: .seconds(86_400))
    // The boot time says a minute passed, not a day: it is still Monday.
    #expect(meter.advance(to: clock.now) == [])
    clock.pass(.seconds(60))
    #expect(meter.advance(to: clock.now) == [])
    #expect(meter.day == monday)
    #expect(meter.usedSecondsByDay == [monday: ["social": 120]])
    // Back to Monday's wall time: nothing to begin again.
    clock.pass(.seconds(60))
    clock.setWall(by: .seconds(-86_400))
    #expect(meter.advance(to: clock.now) == [])
    clock.pass(.seconds(60))
    _ = meter.advance(to: clock.now)
    #expect(meter.usedSecondsToday == ["social": 240])
    // A clock set back by hours within the day changes nothing at all.
    clock.setWall(by: .seconds(-3 * 3_600))
    clock.pass(.seconds(60))
    #expect(meter.advance(to: clock.now) == [])
    let total = meter.usedSecondsByDay.values.reduce(0) { $0 + ($1["social"] ?? 0) }
    #expect(total == 300)
  }

  @Test("A day the ledger holds ahead of the clock (set back across a restart) continues its count when it comes")
  func backToStoredDay() {
    let monday = LocalDay("2026-06-15")!
    let tuesday = monday.adding(days: 1)!
    var clock = MeterClock(wall: tuesday.start.adding(seconds: -1))
    var ledger = Ledger()
    ledger.recordUsedSeconds(290, for: "social", on: tuesday)
    var meter = makeMeter([socialRule()], ledger: ledger, clock: clock)
    _ = meter.inUse(["social"], at: clock.now)
    clock.pass(.seconds(2))
    // Not a new day: Tuesday's count goes on, and warns again, as after a restart.
    #expect(meter.advance(to: clock.now) == [.dayResumed(tuesday), .warning(rule: "social", remaining: .seconds(9))])
    #expect(meter.usedSeconds(on: monday) == ["social": 1])
    #expect(meter.usage(of: "social")?.usedSeconds == 291)
    clock.pass(until: meter.nextDeadline()!)
    #expect(meter.advance(to: clock.now) == [.limitReached(rule: "social")])
    #expect(meter.usage(of: "social")?.usedSeconds == 300)
  }
}
