import Model
import ShieldCore
import Testing

/// Issue 40, point 2: the weekly summary is the core's to decide, and its
/// wait is one more deadline of the service's one timer.
@Suite("The weekly summary in the core: due at its time once a week, its wait one of the core's")
struct WeeklySummaryCoreTests {
  /// CoreHarness.start is Thursday 2026-05-28 20:26:40 UTC.
  static let thursday = LocalDay("2026-05-28")!
  static let schedule = WeeklySchedule("thursday 20:30")!

  static func harness() -> CoreHarness {
    CoreHarness(metered: false, settings: ShieldCore.Settings(calendar: .utc))
  }

  static func posts(_ effects: [ShieldEffect]) -> [LocalDay] {
    effects.compactMap { if case .postWeeklySummary(let week) = $0 { week } else { nil } }
  }

  @Test("None configured: nothing waits, nothing is posted")
  func none() {
    var harness = Self.harness()
    #expect(Self.posts(harness.send(.weeklySummary(nil, lastShown: nil))).isEmpty)
    #expect(harness.core.wait(after: harness.now) == nil)
    #expect(Self.posts(harness.pass(.seconds(7 * 24 * 3600))).isEmpty)
  }

  @Test("Waits until its time, is posted once, and waits the longest wait after it was shown")
  func postedAtItsTime() {
    var harness = Self.harness()
    #expect(Self.posts(harness.send(.weeklySummary(Self.schedule, lastShown: nil))).isEmpty)
    // 3 min 20 s to 20:30, and 100 ms more so that the minute has come.
    #expect(harness.core.wait(after: harness.now) == .seconds(200) + .milliseconds(100))
    #expect(Self.posts(harness.pass(.seconds(199))).isEmpty)
    let due = harness.pass(.seconds(1))
    #expect(Self.posts(due) == [Self.thursday])
    // While the post is under way nothing else is asked, and nothing waits for it.
    #expect(Self.posts(harness.send(.tick)).isEmpty)
    #expect(harness.core.wait(after: harness.now) == nil)
    harness.send(.weeklySummaryPosted(week: Self.thursday, posted: true))
    #expect(harness.core.wait(after: harness.now) == ShieldCore.longestWeeklyWait)
    #expect(Self.posts(harness.pass(.seconds(3600))).isEmpty)
    // A week later, the next one.
    #expect(Self.posts(harness.pass(.seconds(7 * 24 * 3600 - 3600))) == [Self.thursday.adding(days: 7)!])
  }

  @Test("A post that failed is tried again a minute later; an answer for another week changes nothing")
  func retried() {
    var harness = Self.harness()
    harness.pass(.seconds(200))
    #expect(Self.posts(harness.send(.weeklySummary(Self.schedule, lastShown: nil))) == [Self.thursday])
    harness.send(.weeklySummaryPosted(week: Self.thursday.adding(days: -7)!, posted: true))
    #expect(harness.core.wait(after: harness.now) == nil)
    harness.send(.weeklySummaryPosted(week: Self.thursday, posted: false))
    #expect(harness.core.wait(after: harness.now) == ShieldCore.weeklyRetry)
    #expect(Self.posts(harness.pass(.seconds(59))).isEmpty)
    #expect(Self.posts(harness.pass(.seconds(1))) == [Self.thursday])
  }

  @Test("Shown already (a restart), or a day late: nothing; a reload to none stops the wait")
  func shownOrLate() {
    var harness = Self.harness()
    harness.pass(.seconds(200))
    #expect(Self.posts(harness.send(.weeklySummary(Self.schedule, lastShown: Self.thursday))).isEmpty)
    // The service did not run on the day: a summary a day late is left out.
    var late = Self.harness()
    late.pass(.seconds(24 * 3600 + 200))
    #expect(Self.posts(late.send(.weeklySummary(Self.schedule, lastShown: nil))).isEmpty)
    #expect(late.core.wait(after: late.now) == ShieldCore.longestWeeklyWait)
    late.send(.weeklySummary(nil, lastShown: nil))
    #expect(late.core.wait(after: late.now) == nil)
  }

  @Test("The wall clock set forward past its time while the core waited: posted at the next look")
  func clockJump() {
    var harness = Self.harness()
    harness.send(.weeklySummary(WeeklySchedule("friday 09:00")!, lastShown: nil))
    #expect(harness.core.wait(after: harness.now) == ShieldCore.longestWeeklyWait)
    // The monotonic clock moves an hour, the wall clock 13 hours (to 09:26:40 on Friday).
    harness.now = MeterInstant(
      monotonic: harness.now.monotonic.advanced(by: .seconds(3600)), wall: harness.now.wall.adding(seconds: 13 * 3600))
    #expect(Self.posts(harness.send(.tick)) == [Self.thursday.adding(days: 1)!])
  }
}
