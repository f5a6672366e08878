import Model
import Posix
import Testing

/// Issue 22, point 3: a change is booked at the moment it happened (the
/// source's stamp), even when it is handled after time was booked past it.
@Suite("The meter books a change at its stamp, and a span nobody saw as no use")
struct UsageMeterStampTests {
  let big = socialRule(dailyLimitMinutes: 600, warnMinutes: 0)

  /// `clock`'s reading `back` ago, as a stamped event handled now carries it.
  func stamped(_ clock: MeterClock, ago back: Duration) -> MeterInstant {
    clock.now.backdated(
      to: MonotonicTime(nanoseconds: clock.now.monotonic.nanoseconds - UInt64(back / .nanoseconds(1))))
  }

  @Test("Stamps in order are booked as they come, exactly as handling times were")
  func inOrder() {
    var clock = MeterClock(wall: localNoon("2026-06-15"))
    var meter = makeMeter([big], clock: clock)
    _ = meter.inUse(["social"], at: clock.now)
    clock.pass(.seconds(3))
    // Handled 1 s after it happened, but nothing was booked past it yet.
    clock.pass(.seconds(1))
    _ = meter.inUse([], at: stamped(clock, ago: .seconds(1)))
    #expect(meter.used("social") == .seconds(3))
    clock.pass(.seconds(50))
    _ = meter.advance(to: clock.now)
    #expect(meter.used("social") == .seconds(3))
  }

  @Test("The timer first, then the late event: the time after the stamp leaves the old state")
  func timerFirstThenLateEvent() {
    var clock = MeterClock(wall: localNoon("2026-06-15"))
    var meter = makeMeter([big], clock: clock)
    _ = meter.inUse(["social"], at: clock.now)
    // Stopped for 120 s; the focus moved to an uncovered window 2 s in.
    clock.pass(.seconds(120))
    _ = meter.advance(to: clock.now)
    #expect(meter.used("social") == .seconds(120))
    _ = meter.inUse([], at: stamped(clock, ago: .seconds(118)))
    #expect(meter.used("social") == .seconds(2))
    #expect(meter.usage(of: "social")?.counting == false)
    clock.pass(.seconds(30))
    _ = meter.advance(to: clock.now)
    #expect(meter.used("social") == .seconds(2))
  }

  @Test("The late event first, then the timer: the same 2 s")
  func lateEventThenTimer() {
    var clock = MeterClock(wall: localNoon("2026-06-15"))
    var meter = makeMeter([big], clock: clock)
    _ = meter.inUse(["social"], at: clock.now)
    clock.pass(.seconds(120))
    _ = meter.inUse([], at: stamped(clock, ago: .seconds(118)))
    _ = meter.advance(to: clock.now)
    #expect(meter.used("social") == .seconds(2))
  }

  @Test("A late change to a covered app books its time since the stamp to it")
  func lateChangeToCovered() {
    var clock = MeterClock(wall: localNoon("2026-06-15"))
    var meter = makeMeter([big], clock: clock)
    clock.pass(.seconds(60))
    _ = meter.advance(to: clock.now)
    _ = meter.inUse(["social"], at: stamped(clock, ago: .seconds(40)))
    #expect(meter.used("social") == .seconds(40))
    #expect(meter.usage(of: "social")?.counting == true)
  }

  @Test("One batch hides A→B→A: each event keeps its stamp, and B's seconds are not A's")
  func batchABA() {
    var clock = MeterClock(wall: localNoon("2026-06-15"))
    var meter = makeMeter([big], clock: clock)
    _ = meter.inUse(["social"], at: clock.now)
    clock.pass(.seconds(100))
    _ = meter.advance(to: clock.now)
    // B (uncovered) from 10 s to 30 s, then A again; read together at 100 s.
    _ = meter.inUse([], at: stamped(clock, ago: .seconds(90)))
    _ = meter.inUse(["social"], at: stamped(clock, ago: .seconds(70)))
    #expect(meter.used("social") == .seconds(80))
    clock.pass(.seconds(5))
    _ = meter.advance(to: clock.now)
    #expect(meter.used("social") == .seconds(85))
  }

  @Test("A stamp before the previous change is booked from that change, never across it")
  func notAcrossThePreviousChange() {
    var clock = MeterClock(wall: localNoon("2026-06-15"))
    var meter = makeMeter([big], clock: clock)
    _ = meter.inUse(["social"], at: clock.now)
    clock.pass(.seconds(10))
    _ = meter.idle(false, at: clock.now)  // a change handled at 10 s, from an unstamped source
    clock.pass(.seconds(10))
    _ = meter.advance(to: clock.now)
    _ = meter.inUse([], at: stamped(clock, ago: .seconds(15)))  // stamped at 5 s: taken as 10 s
    #expect(meter.used("social") == .seconds(10))
  }

  @Test("The screen saver started during a stop is not use from its stamp on; idle likewise")
  func screenSaverAndIdleStamped() {
    var clock = MeterClock(wall: localNoon("2026-06-15"))
    var meter = makeMeter([big], clock: clock)
    _ = meter.inUse(["social"], at: clock.now)
    clock.pass(.seconds(60))
    _ = meter.advance(to: clock.now)
    _ = meter.screenVisible(false, at: stamped(clock, ago: .seconds(57)))
    #expect(meter.used("social") == .seconds(3))
    _ = meter.screenVisible(true, at: clock.now)
    clock.pass(.seconds(60))
    _ = meter.advance(to: clock.now)
    _ = meter.idle(true, at: stamped(clock, ago: .seconds(50)))
    #expect(meter.used("social") == .seconds(13))
    clock.pass(.seconds(10))
    _ = meter.idle(false, at: stamped(clock, ago: .seconds(4)))
    _ = meter.advance(to: clock.now)
    #expect(meter.used("social") == .seconds(17))
  }

  @Test("A late change moves the time on both sides of midnight")
  func acrossMidnight() throws {
    var clock = MeterClock(wall: LocalDay("2026-06-15")!.start.adding(seconds: 24 * 3_600 - 60))
    var meter = makeMeter([big], clock: clock)
    _ = meter.inUse(["social"], at: clock.now)
    clock.pass(.seconds(120))
    _ = meter.advance(to: clock.now)
    #expect(meter.day.description == "2026-06-16")
    #expect(
      meter.usedSecondsByDay.mapKeys(\.description) == ["2026-06-15": ["social": 60], "2026-06-16": ["social": 60]])
    _ = meter.inUse([], at: stamped(clock, ago: .seconds(90)))
    #expect(meter.usedSecondsByDay.mapKeys(\.description) == ["2026-06-15": ["social": 30]])
  }

  @Test("A late change to a covered app can reach the limit, which is reported")
  func lateChangeReachesTheLimit() {
    var clock = MeterClock(wall: localNoon("2026-06-15"))
    var meter = makeMeter([socialRule(dailyLimitMinutes: 1, warnMinutes: 0)], clock: clock)
    clock.pass(.seconds(100))
    _ = meter.advance(to: clock.now)
    #expect(meter.inUse(["social"], at: stamped(clock, ago: .seconds(70))) == [.limitReached(rule: "social")])
  }

  @Test("No stamp and a stop: the span the process did not run is no use; the time before it counts")
  func unobservedSpan() {
    var clock = MeterClock(wall: localNoon("2026-06-15"))
    var meter = makeMeter([big], clock: clock)
    _ = meter.inUse(["social"], at: clock.now)
    clock.pass(.seconds(5))
    let due = clock.now.monotonic  // the timer was due here, and fired 115 s late
    clock.pass(.seconds(115))
    _ = meter.unobserved(since: due, at: clock.now)
    #expect(meter.used("social") == .seconds(5))
    // The state holds: it counts again from now.
    #expect(meter.usage(of: "social")?.counting == true)
    clock.pass(.seconds(10))
    _ = meter.advance(to: clock.now)
    #expect(meter.used("social") == .seconds(15))
    // A late stamp inside the unseen span moves nothing from before it back.
    _ = meter.inUse([], at: stamped(clock, ago: .seconds(60)))
    #expect(meter.used("social") == .seconds(5))
  }

  @Test("A span nobody saw that began before the latest input books nothing back")
  func unobservedBeforeLatest() {
    var clock = MeterClock(wall: localNoon("2026-06-15"))
    var meter = makeMeter([big], clock: clock)
    _ = meter.inUse(["social"], at: clock.now)
    clock.pass(.seconds(20))
    _ = meter.advance(to: clock.now)
    let earlier = MonotonicTime(nanoseconds: clock.now.monotonic.nanoseconds - 10_000_000_000)
    clock.pass(.seconds(30))
    _ = meter.unobserved(since: earlier, at: clock.now)
    #expect(meter.used("social") == .seconds(20))
  }
}

extension Dictionary {
  fileprivate func mapKeys<NewKey: Hashable>(_ transform: (Key) -> NewKey) -> [NewKey: Value] {
    [NewKey: Value](uniqueKeysWithValues: map { (transform($0.key), $0.value) })
  }
}

@Suite("The ledger takes a lower count from the meter only in place of the meter's own")
struct LedgerReplacingTests {
  @Test("A count still equal to the meter's last save is replaced by a lower one; any other keeps the larger")
  func replacing() throws {
    let day = try #require(LocalDay("2026-06-15"))
    var ledger = Ledger()
    ledger.recordUsedSeconds(["social": 11, "video": 20], on: day)
    ledger.recordUsedSeconds(["social": 3, "video": 5], on: day, replacing: ["social": 11, "video": 19])
    #expect(ledger.usedSeconds(for: "social", on: day) == 3)
    // Another writer stored more than the meter saved: it stays.
    #expect(ledger.usedSeconds(for: "video", on: day) == 20)
    ledger.recordUsedSeconds(["social": 7], on: day, replacing: ["social": 3])
    #expect(ledger.usedSeconds(for: "social", on: day) == 7)
  }
}
