import DeepLink
import Log
import Model
import ShieldCore
import Testing

/// A shield's life, decided once for every notification server (issue 20, point 3).
@Suite("A shield's life")
struct ShieldLifeTests {
  @Test func theLimitHidesTheAppFirstThenPostsOneShieldAndSaysSo() throws {
    var harness = CoreHarness()
    harness.send(.focus(CoreHarness.instagram))
    let effects = harness.pass(.seconds(61))
    let enforce = try #require(effects.firstIndex(of: .enforce(rule: "social")))
    let shield = try #require(effects.firstIndex(where: CoreHarness.isShieldPost))
    #expect(enforce < shield)
    #expect(effects.contains(.limitReached(rule: "social", app: "Instagram")))
    #expect(CoreHarness.count(effects, CoreHarness.isShieldPost) == 1)
    #expect(effects.contains { if case .save(let save) = $0 { save.limitReached == ["social": 0] } else { false } })
  }

  @Test func anActionFollowedByACloseIsAnActionNotADismissal() throws {
    // xfce4-notifyd: ActionInvoked("default"), then NotificationClosed(2) for the same click.
    var harness = CoreHarness()
    let shield = try harness.reachLimit()
    let request = try harness.clickTask(on: shield)
    #expect(request.rule == "social")
    harness.send(.closed(id: shield, byUser: true))
    harness.send(.taskOpened(identifier: request.activation, rule: "social", .process))
    // The terminal is closed unsolved, and the app brought back: the shield is offered again at once.
    harness.send(.taskEnded(identifier: request.activation))
    harness.send(.focus(CoreHarness.terminal))
    let back = harness.send(.focus(CoreHarness.instagram))
    #expect(back.contains(.enforce(rule: "social")))
    #expect(CoreHarness.count(back, CoreHarness.isShieldPost) == 1)
  }

  @Test func aDismissalHoldsTheShieldBackForAMinuteThenTheAppBroughtBackOffersItAgain() throws {
    var harness = CoreHarness()
    let shield = try harness.reachLimit()
    let dismissed = harness.send(.closed(id: shield, byUser: true))
    #expect(dismissed.contains { if case .log(let entry) = $0 { entry.message.contains("dismissed") } else { false } })
    harness.send(.focus(CoreHarness.terminal))
    let soon = harness.send(.focus(CoreHarness.instagram))
    #expect(soon.contains(.enforce(rule: "social")))
    #expect(CoreHarness.count(soon, CoreHarness.isShieldPost) == 0)
    harness.send(.focus(CoreHarness.terminal))
    harness.pass(.seconds(60))
    let later = harness.send(.focus(CoreHarness.instagram))
    #expect(later.contains(.enforce(rule: "social")))
    #expect(CoreHarness.count(later, CoreHarness.isShieldPost) == 1)
    // And not again within the minute, while that shield is shown.
    harness.send(.focus(CoreHarness.terminal))
    let again = harness.send(.focus(CoreHarness.instagram))
    #expect(CoreHarness.count(again, CoreHarness.isShieldPost) == 0)
  }

  @Test func aShieldShownIsNotPostedTwiceWhenTheAppComesBack() throws {
    var harness = CoreHarness()
    _ = try harness.reachLimit()
    harness.pass(.seconds(120))
    harness.send(.focus(CoreHarness.terminal))
    let back = harness.send(.focus(CoreHarness.instagram))
    #expect(back.contains(.enforce(rule: "social")))
    #expect(CoreHarness.count(back, CoreHarness.isShieldPost) == 0)
  }

  @Test func anInlineTaskClosedUnansweredLeavesTheShieldOfferable() throws {
    var harness = CoreHarness()
    let shield = try harness.reachLimit()
    let request = try harness.clickTask(on: shield)
    harness.send(.closed(id: shield, byUser: false))
    let (taskID, _, asked) = try harness.openInline(request)
    #expect(asked.contains { if case .post(.task, _) = $0 { true } else { false } })
    harness.send(.closed(id: taskID, byUser: true))
    harness.send(.focus(CoreHarness.terminal))
    let back = harness.send(.focus(CoreHarness.instagram))
    #expect(CoreHarness.count(back, CoreHarness.isShieldPost) == 1)
  }

  @Test func aSecondClickWhileATaskIsOpenIsCoalescedAndARepeatIsADuplicate() throws {
    var harness = CoreHarness()
    let shield = try harness.reachLimit()
    let request = try harness.clickTask(on: shield)
    harness.send(.taskOpened(identifier: request.activation, rule: "social", .process))
    let repeated = harness.send(.action(id: shield, key: "default", token: nil))
    #expect(repeated.contains { if case .dispatched(_, .duplicate, _, _) = $0 { true } else { false } })
    harness.pass(.seconds(2))
    let second = harness.send(.action(id: shield, key: "default", token: nil))
    #expect(second.contains { if case .dispatched(_, .coalesced, _, _) = $0 { true } else { false } })
    #expect(second.compactMap(CoreHarness.isTaskRequest).isEmpty)
  }

  @Test func withoutAMeterAShieldAskedForByNameLeadsToATask() throws {
    var harness = CoreHarness(metered: false)
    let shield = try harness.askShield()
    let click = harness.send(.action(id: shield, key: "default", token: nil))
    #expect(click.compactMap(CoreHarness.isTaskRequest).count == 1)
  }

  @Test func aSolvedInlineTaskGrantsOnceAndLiftsTheRuleOnce() throws {
    var harness = CoreHarness()
    let shield = try harness.reachLimit()
    let (taskID, puzzle, _) = try harness.openInline(try harness.clickTask(on: shield))
    let solved = harness.send(.replied(id: taskID, text: String(puzzle.answer)))
    #expect(solved.contains(.recordGrant(rule: "social")))
    let lifted = harness.send(.grant(rule: "social", .recorded(grantsToday: 1)))
    #expect(CoreHarness.count(lifted) { if case .unlocked = $0 { true } else { false } } == 1)
    #expect(CoreHarness.count(lifted) { $0 == .close(shield) } == 1)
    #expect(lifted.contains { if case .post(.solved, _) = $0 { true } else { false } })
    #expect(harness.core.overLimit.isEmpty)
  }

  @Test func aGrantFromAnotherProcessClosesTheShieldAndTheOpenInlineTask() throws {
    var harness = CoreHarness()
    let shield = try harness.reachLimit()
    let (taskID, _, _) = try harness.openInline(try harness.clickTask(on: shield))
    var ledger = Ledger()
    try ledger.recordGrant(for: harness.social, on: harness.core.meter.day)
    let lifted = harness.send(.ledger(ledger))
    #expect(lifted.contains(.close(taskID)))
    #expect(lifted.contains(.close(shield)))
    #expect(CoreHarness.count(lifted) { if case .unlocked = $0 { true } else { false } } == 1)
    // The task is gone: a late answer grants nothing.
    #expect(!harness.send(.replied(id: taskID, text: "1")).contains(.recordGrant(rule: "social")))
  }

  @Test func aGrantThatLiftsNothingRecordsTheLimitAtTheNewCount() throws {
    var harness = CoreHarness()
    _ = try harness.reachLimit()
    // Instagram stays in front past the limit (a rule that only notifies): 2 minutes used of 1.
    harness.pass(.seconds(60))
    var ledger = Ledger()
    try ledger.recordGrant(for: harness.social, on: harness.core.meter.day)
    let granted = harness.send(.ledger(ledger))
    #expect(CoreHarness.count(granted) { if case .unlocked = $0 { true } else { false } } == 0)
    // The limit at one grant is reached too, and saved as such: the next task may be taken.
    let saves = granted.compactMap { if case .save(let save) = $0 { save } else { nil } }
    #expect(saves.last?.limitReached["social"] == 1, "\(granted)")
    #expect(CoreHarness.count(granted, CoreHarness.isShieldPost) == 0)
  }

  @Test func aSolvedTaskBeforeTheLimitRecordsNoGrant() throws {
    var harness = CoreHarness(metered: false)
    let shield = try harness.askShield()
    let (taskID, puzzle, _) = try harness.openInline(try harness.clickTask(on: shield))
    // A desktop starts meanwhile: the rule is now metered, and under its limit.
    harness.send(.desktopStarted(countsRunning: false))
    let solved = harness.send(.replied(id: taskID, text: String(puzzle.answer)))
    #expect(!solved.contains(.recordGrant(rule: "social")))
    #expect(solved.contains(.close(taskID)))
  }

  @Test func aWrongAnswerAsksANewTaskInTheSameNotification() throws {
    var harness = CoreHarness(metered: false)
    let shield = try harness.askShield()
    let (taskID, _, _) = try harness.openInline(try harness.clickTask(on: shield))
    let wrong = harness.send(.replied(id: taskID, text: "-1"))
    #expect(
      wrong.contains {
        if case .post(.task(_, _, _, true, _, _, taskID), _) = $0 { true } else { false }
      })
    #expect(!wrong.contains(.recordGrant(rule: "social")))
  }
}
