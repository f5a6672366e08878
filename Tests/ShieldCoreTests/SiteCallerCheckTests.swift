import ShieldCore
import Testing

@Suite("Who may report a browser's site: only a descendant of the browser it names")
struct SiteCallerCheckTests {
  @Test("A host the browser started, or one a launcher in between started, is accepted")
  func descendantsAreAccepted() {
    #expect(SiteCallerCheck.verdict(caller: 500, ancestry: [400, 300, 1], browser: 400) == .accepted(generations: 1))
    #expect(SiteCallerCheck.verdict(caller: 500, ancestry: [450, 400, 1], browser: 400) == .accepted(generations: 2))
    #expect(
      SiteCallerCheck.verdict(caller: 500, ancestry: [499, 498, 497, 400], browser: 400) == .accepted(generations: 4))
  }

  @Test("A process that does not descend from the pid it names is refused, however it names it")
  func othersAreRefused() {
    // A sibling, an unrelated window's process, a child of the forger.
    #expect(
      SiteCallerCheck.verdict(caller: 500, ancestry: [300, 1], browser: 400)
        == .notAnAncestor(caller: 500, browser: 400))
    #expect(SiteCallerCheck.verdict(caller: 400, ancestry: [300, 1], browser: 500) != .accepted(generations: 1))
    // Its own process, init, nothing.
    #expect(SiteCallerCheck.verdict(caller: 500, ancestry: [400, 1], browser: 500) == .namedItself(500))
    #expect(SiteCallerCheck.verdict(caller: 500, ancestry: [400, 1], browser: 1) == .notABrowser(1))
    #expect(SiteCallerCheck.verdict(caller: 500, ancestry: [400, 1], browser: 0) == .notABrowser(0))
    #expect(SiteCallerCheck.verdict(caller: 500, ancestry: [400, 1], browser: -7) == .notABrowser(-7))
    // The bus could not tell the caller's process.
    #expect(SiteCallerCheck.verdict(caller: nil, ancestry: [], browser: 400) == .unknownCaller)
    #expect(SiteCallerCheck.verdict(caller: 0, ancestry: [], browser: 400) == .unknownCaller)
  }

  @Test("An ancestor further up than the bound is not looked at")
  func theWalkIsBounded() {
    let deep: [Int32] = [499, 498, 497, 496, 400]
    #expect(SiteCallerCheck.maximumGenerations == 4)
    #expect(
      SiteCallerCheck.verdict(caller: 500, ancestry: deep, browser: 400) == .notAnAncestor(caller: 500, browser: 400))
  }

  @Test("Every refusal says why, naming the pids")
  func reasonsNameThePids() {
    let refused = SiteCallerCheck.verdict(caller: 500, ancestry: [300], browser: 400)
    #expect(!refused.isAccepted)
    #expect(refused.reason.contains("500") && refused.reason.contains("400"))
    #expect(SiteCallerCheck.verdict(caller: 500, ancestry: [400], browser: 400).isAccepted)
    for verdict: SiteCallerCheck.Verdict in [.unknownCaller, .notABrowser(1), .namedItself(5)] {
      #expect(!verdict.isAccepted && !verdict.reason.isEmpty && !verdict.reason.contains("!"))
    }
  }
}
