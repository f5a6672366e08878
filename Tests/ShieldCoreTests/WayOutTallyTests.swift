import Model
import ShieldCore
import Testing

@Suite("The shield page's way out counts once per shield shown, and never without one")
struct WayOutTallyTests {
  let day = LocalDay("2026-12-04")!

  @Test("No shield counts nothing; the same shield again counts nothing; the next limit and the next day count")
  func oncePerShield() {
    let social = WayOut.Shield(rule: "social", day: day, grants: 0)
    let afterAGrant = WayOut.Shield(rule: "social", day: day, grants: 1)
    let video = WayOut.Shield(rule: "video", day: day, grants: 1)
    let tomorrow = WayOut.Shield(rule: "social", day: day.adding(days: 1)!, grants: 0)
    let steps: [(WayOut.Shield?, Bool, Int)] = [
      (nil, false, 500), (social, true, 1), (social, false, 500), (afterAGrant, true, 1), (video, true, 1),
      (afterAGrant, false, 1), (video, false, 1), (tomorrow, true, 1), (nil, false, 500),
    ]
    var tally = WayOut.Tally()
    for (shield, counts, times) in steps {
      for time in 0..<times {
        let counted = tally.take(at: shield)
        #expect(counted == (counts && time == 0), "\(String(describing: shield)), time \(time)")
      }
    }
  }

  @Test("Over seeded sequences of shields, a way out counts exactly when its rule's shield is not the one counted last")
  func seededSequences() {
    var random = SeededRandom(seed: 33)
    let rules = ["social", "video"]
    for _ in 0..<500 {
      var tally = WayOut.Tally()
      var last: [String: WayOut.Shield] = [:]
      for _ in 0..<50 {
        let shield: WayOut.Shield? =
          Int.random(in: 0..<4, using: &random) == 0
          ? nil
          : WayOut.Shield(
            rule: rules[Int.random(in: 0..<2, using: &random)],
            day: day.adding(days: Int.random(in: 0..<2, using: &random))!,
            grants: Int.random(in: 0..<3, using: &random))
        let expected = shield.map { last[$0.rule] != $0 } ?? false
        let counted = tally.take(at: shield)
        #expect(counted == expected)
        if let shield, expected { last[shield.rule] = shield }
      }
    }
  }
}
