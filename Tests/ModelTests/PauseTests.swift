import Model
import Testing

@Suite("The pause before an answer is taken: decided from the time since the task was shown")
struct PauseTests {
  @Test("The seconds left, rounded up; none once the pause is over")
  func secondsLeft() {
    let pause = Pause(seconds: 10)
    #expect(pause.secondsLeft(after: .zero) == 10)
    #expect(pause.secondsLeft(after: .milliseconds(200)) == 10)
    #expect(pause.secondsLeft(after: .milliseconds(9_001)) == 1)
    #expect(pause.secondsLeft(after: .milliseconds(9_999)) == 1)
    #expect(pause.secondsLeft(after: .seconds(10)) == 0)
    #expect(pause.secondsLeft(after: .seconds(3_600)) == 0)
    // A clock that went back: the whole pause is left, never more.
    #expect(pause.secondsLeft(after: .seconds(-5)) == 10)
  }

  @Test("No pause takes every answer; a pause is kept within 0 to 60 seconds")
  func bounds() {
    #expect(Pause(seconds: 0).isNone)
    #expect(Pause(seconds: 0).secondsLeft(after: .zero) == 0)
    #expect(Pause(seconds: 600).seconds == 60)
    #expect(Pause(seconds: -1).seconds == 0)
    #expect(Pause(of: Rule(name: "social", apps: ["Instagram"], pauseSeconds: 15)).seconds == 15)
    #expect(Pause(of: Rule(name: "social", apps: ["Instagram"])).isNone)
  }

  @Test("A rule's pauseSeconds is checked against 0 to 60")
  func ruleRange() {
    #expect(throws: RuleError(limit: .pauseSeconds, value: 61)) {
      try Rule(checking: "social", apps: ["Instagram"], pauseSeconds: 61)
    }
    #expect(throws: Never.self) { try Rule(checking: "social", apps: ["Instagram"], pauseSeconds: 60) }
  }
}
