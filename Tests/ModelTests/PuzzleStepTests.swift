import Model
import Store
import TestSupport
import Testing

@Suite("Each grant of the day asks a harder task, never beyond mental arithmetic")
struct PuzzleStepTests {
  /// The tasks `seed` gives at the step for `grant` grants today.
  func draws(grant: Int, seeds: Range<UInt64> = 0..<300, each: Int = 10) -> [Puzzle] {
    seeds.flatMap { seed in
      var random = SeededRandom(seed: seed)
      return (0..<each).map { _ in Puzzle.random(using: &random, grant: grant) }
    }
  }

  /// Whatever the step: no trivial operand, a non-negative answer at every step, and the answer it prints.
  func expectPlain(_ puzzle: Puzzle) {
    let operands = [puzzle.left, puzzle.right] + (puzzle.then.map { [$0.operand] } ?? [])
    #expect(operands.allSatisfy { $0 > 1 && $0 % 10 != 0 }, "\(puzzle)")
    let first = Puzzle(puzzle.left, puzzle.operation, puzzle.right)
    #expect(first != nil && first!.answer >= 0, "\(puzzle)")
    #expect(puzzle.answer >= 0, "\(puzzle)")
    #expect(puzzle.isAnswered(by: String(puzzle.answer)))
    #expect(!puzzle.isAnswered(by: String(puzzle.answer + 1)))
  }

  @Test("The step is the grants taken today, up to the last step")
  func stepForGrant() {
    #expect((-1...6).map(Puzzle.step(forGrant:)) == [0, 0, 1, 2, 3, 3, 3, 3])
    #expect(Puzzle.lastStep == 3)
  }

  @Test("Step 0, the first task of the day, is the task the same seed always gave")
  func firstStepUnchanged() {
    for seed in 0..<200 as Range<UInt64> {
      var plain = SeededRandom(seed: seed)
      var stepped = SeededRandom(seed: seed)
      for _ in 0..<5 {
        #expect(Puzzle.random(using: &plain) == Puzzle.random(using: &stepped, grant: 0))
      }
    }
    let plain = PuzzleSession(random: SeededRandom(seed: 4))
    #expect(plain.puzzle == PuzzleSession(random: SeededRandom(seed: 4), grant: 0).puzzle)
  }

  @Test("Step 1: a one-digit by a two-digit number, 3…9 × 21…49, both ends reached")
  func secondStep() {
    var lefts: Set<Int> = []
    var rights: Set<Int> = []
    for puzzle in draws(grant: 1) {
      expectPlain(puzzle)
      #expect(puzzle.operation == .multiplication && puzzle.then == nil)
      #expect((3...9).contains(puzzle.left) && (21...49).contains(puzzle.right))
      #expect((63...441).contains(puzzle.answer))
      lefts.insert(puzzle.left)
      rights.insert(puzzle.right)
    }
    #expect(lefts == Set(3...9))
    #expect(rights.min() == 21 && rights.max() == 49)
  }

  @Test("Step 2: two steps, a two-digit sum then a difference that leaves at least 11")
  func thirdStep() {
    for puzzle in draws(grant: 2) {
      expectPlain(puzzle)
      #expect(puzzle.operation == .addition)
      #expect(puzzle.then?.operation == .subtraction)
      #expect((12...89).contains(puzzle.left) && (12...89).contains(puzzle.right))
      #expect((12...89).contains(puzzle.then?.operand ?? 0))
      #expect((11...166).contains(puzzle.answer))
      #expect(puzzle.text == "\(puzzle.left) + \(puzzle.right) \u{2212} \(puzzle.then!.operand)")
    }
  }

  @Test("Step 3 and every later grant: a one-digit by a teen product, then a two-digit sum", arguments: [3, 4, 9])
  func lastStep(grant: Int) {
    for puzzle in draws(grant: grant, seeds: 0..<100) {
      expectPlain(puzzle)
      #expect(puzzle.operation == .multiplication && puzzle.then?.operation == .addition)
      #expect((3...9).contains(puzzle.left) && (11...19).contains(puzzle.right))
      #expect((12...89).contains(puzzle.then?.operand ?? 0))
      #expect((45...260).contains(puzzle.answer))
    }
    #expect(draws(grant: grant, seeds: 0..<5) == draws(grant: 3, seeds: 0..<5))
  }

  @Test("Every step stays mental arithmetic: answers of at most three digits, at most two operations")
  func mentalArithmetic() {
    for grant in 0...Puzzle.lastStep {
      for puzzle in draws(grant: grant, seeds: 0..<100) {
        #expect(puzzle.answer < 1_000)
        #expect(puzzle.text.split(separator: " ").count <= 5)
      }
    }
  }

  @Test("Two-step tasks are worked from left to right, and refused where precedence would read them otherwise")
  func twoStepTasks() throws {
    let sum = try #require(Puzzle(47, .addition, 38, then: .subtraction, 19))
    #expect(sum.text == "47 + 38 \u{2212} 19")
    #expect(sum.answer == 66)
    let product = try #require(Puzzle(7, .multiplication, 14, then: .addition, 27))
    #expect(product.text == "7 \u{00D7} 14 + 27")
    #expect(product.answer == 125)
    #expect(Puzzle(12, .addition, 13, then: .subtraction, 26) == nil)
    #expect(Puzzle(4, .addition, 3, then: .multiplication, 5) == nil)
    #expect(Puzzle(13, .subtraction, 14, then: .addition, 20) == nil)
  }

  @Test("A session keeps its step after a wrong answer; a prepared run asks at today's grant count")
  func sessionKeepsStep() throws {
    var session = PuzzleSession(random: SeededRandom(seed: 8), grant: 2)
    var expected = SeededRandom(seed: 8)
    #expect(session.puzzle == Puzzle.random(using: &expected, grant: 2))
    #expect(session.answer(String(session.puzzle.answer + 1)) == .wrong)
    #expect(session.puzzle == Puzzle.random(using: &expected, grant: 2))

    let state = try TemporaryDirectory()
    let store = LedgerStore(directory: state.path)
    let rule = Rule(name: "social", apps: ["Instagram"])
    for grant in 0...4 {
      let prepared = try PuzzleRun.prepare(for: rule, in: store, random: SeededRandom(seed: 5)).value
      guard case .ready(let run) = prepared else {
        Issue.record("expected a task, got \(prepared)")
        return
      }
      var random = SeededRandom(seed: 5)
      #expect(run.puzzle == Puzzle.random(using: &random, grant: grant))
      _ = try store.recordGrant(for: rule)
    }
  }
}

@Suite("A printed task is found again in the text around it")
struct PuzzleFindTests {
  @Test("One and two steps, printed or typed signs, other words and marks around them")
  func find() {
    #expect(Puzzle.find(in: "Solve this task to unlock 5 more minutes.\nWhat is 47 + 38?")?.answer == 85)
    #expect(Puzzle.find(in: "What is 47 + 38 \u{2212} 19?")?.answer == 66)
    #expect(Puzzle.find(in: "7 \u{00D7} 14 + 27")?.text == "7 \u{00D7} 14 + 27")
    #expect(Puzzle.find(in: "92 - 45")?.answer == 47)
    #expect(Puzzle.find(in: "「7 × 13」は？")?.answer == 91)
    #expect(Puzzle.find(in: "You asked for more time 3 times today.") == nil)
    #expect(Puzzle.find(in: "45 \u{2212} 92") == nil)
    for grant in 0...Puzzle.lastStep {
      var random = SeededRandom(seed: UInt64(grant))
      for _ in 0..<50 {
        let puzzle = Puzzle.random(using: &random, grant: grant)
        #expect(Puzzle.find(in: "What is \(puzzle.text)?") == puzzle)
      }
    }
  }
}
