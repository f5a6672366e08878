import Model
import ShieldCore
import Testing

@Suite("The notification's task says the requests counted and grows with the day's grants")
struct InlineRequestTests {
  /// The task posts (asked, puzzle) among `effects`.
  func taskPosts(_ effects: [ShieldEffect]) -> [(asked: Int, puzzle: Puzzle, wrong: Bool)] {
    effects.compactMap {
      if case .post(.task(_, _, let puzzle, let wrong, let asked, _, _), _) = $0 { (asked, puzzle, wrong) } else { nil }
    }
  }

  @Test(
    "The task carries the count the service recorded and is of the step of today's grants, also after a wrong answer",
    arguments: [0, 1, 2, 3])
  func countAndStep(grantsToday: Int) throws {
    var harness = CoreHarness(metered: false)
    let shield = try harness.askShield()
    let request = try harness.clickTask(on: shield)
    let opened = harness.send(
      .taskOpened(
        identifier: request.activation, rule: "social",
        .inline(app: "Instagram", grantMinutes: 1, asked: 3, grantsToday: grantsToday)))
    let first = try #require(taskPosts(opened).first)
    #expect(first.asked == 3)
    #expect(!first.wrong)
    let step = Puzzle.step(forGrant: grantsToday)
    func isOfStep(_ puzzle: Puzzle) -> Bool {
      switch step {
      case 0: puzzle.then == nil && (puzzle.operation != .multiplication || puzzle.right < 20)
      case 1: puzzle.then == nil && puzzle.operation == .multiplication && puzzle.right > 20
      case 2: puzzle.then?.operation == .subtraction
      default: puzzle.then?.operation == .addition
      }
    }
    #expect(isOfStep(first.puzzle), "\(first.puzzle) at step \(step)")
    let taskID = try #require(harness.notifications.first { if case .task = $0.value { true } else { false } }?.key)
    let again = try #require(taskPosts(harness.send(.replied(id: taskID, text: "x"))).first)
    #expect(again.asked == 3)
    #expect(again.wrong)
    #expect(isOfStep(again.puzzle), "\(again.puzzle) at step \(step)")
  }
}
