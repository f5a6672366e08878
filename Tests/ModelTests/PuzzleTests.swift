import Model
import Testing

@Suite("Puzzles are short arithmetic tasks")
struct PuzzleTests {
  @Test("The same seed gives the same tasks, another seed others")
  func seeded() {
    func tasks(_ seed: UInt64) -> [String] {
      var random = SeededRandom(seed: seed)
      return (0..<20).map { _ in Puzzle.random(using: &random).text }
    }
    #expect(tasks(42) == tasks(42))
    #expect(tasks(42) != tasks(43))
  }

  @Test("Every generated task is short, non-trivial and has a non-negative answer")
  func generatedTasksAreShort() {
    var operations: Set<Puzzle.Operation> = []
    for seed in 0..<500 as Range<UInt64> {
      var random = SeededRandom(seed: seed)
      for _ in 0..<10 {
        let puzzle = Puzzle.random(using: &random)
        operations.insert(puzzle.operation)
        #expect(puzzle.answer >= 0)
        #expect(puzzle.answer < 200)
        #expect(puzzle.left > 1 && puzzle.right > 1)
        #expect(puzzle.left % 10 != 0 && puzzle.right % 10 != 0)
        switch puzzle.operation {
        case .addition, .subtraction:
          #expect((10...99).contains(puzzle.left) && (10...99).contains(puzzle.right))
        case .multiplication:
          #expect((3...9).contains(puzzle.left) && (11...19).contains(puzzle.right))
        }
        #expect(puzzle.isAnswered(by: String(puzzle.answer)))
        #expect(!puzzle.isAnswered(by: String(puzzle.answer + 1)))
      }
    }
    #expect(operations == Set(Puzzle.Operation.allCases))
  }

  @Test("Tasks are printed with the proper signs")
  func text() throws {
    #expect(try #require(Puzzle(47, .addition, 38)).text == "47 + 38")
    #expect(try #require(Puzzle(92, .subtraction, 45)).text == "92 \u{2212} 45")
    #expect(try #require(Puzzle(7, .multiplication, 13)).text == "7 \u{00D7} 13")
    #expect(try #require(Puzzle(7, .multiplication, 13)).answer == 91)
    #expect(Puzzle(45, .subtraction, 92) == nil)
  }

  @Test(
    "An answer may be surrounded by whitespace",
    arguments: ["85", " 85", "85 ", "\t85\n", "85\r\n", "  085  "])
  func toleratesWhitespace(input: String) throws {
    #expect(try #require(Puzzle(47, .addition, 38)).isAnswered(by: input))
  }

  @Test(
    "Anything but plain digits is not an answer",
    arguments: [
      "", " ", "+85", "-85", "8 5", "85.0", "85,", "eighty-five", "٨٥", "８５", "85a", "0x55",
      "1e2", "0000000085",
    ])
  func strictOtherwise(input: String) throws {
    #expect(try #require(Puzzle(47, .addition, 38)).isAnswered(by: input) == false)
  }

  @Test("Seeded draws stay inside their range and reach both ends")
  func uniformDraws() {
    var random = SeededRandom(seed: 7)
    var seen: Set<Int> = []
    for _ in 0..<2_000 {
      let puzzle = Puzzle.random(using: &random)
      if puzzle.operation == .multiplication { seen.insert(puzzle.left) }
    }
    #expect(seen == Set(3...9))
  }
}

@Suite("A puzzle session gives a new task after each wrong answer")
struct PuzzleSessionTests {
  @Test("A wrong answer draws the next task of the same seed; the right one solves it")
  func wrongThenRight() {
    var expected = SeededRandom(seed: 99)
    let first = Puzzle.random(using: &expected)
    let second = Puzzle.random(using: &expected)
    var session = PuzzleSession(random: SeededRandom(seed: 99))
    #expect(session.puzzle == first)
    #expect(session.answer(String(first.answer + 1)) == .wrong)
    #expect(session.puzzle == second)
    #expect(session.answer("not a number") == .wrong)
    let third = session.puzzle
    #expect(session.answer(" \(third.answer)\n") == .solved)
  }

  @Test("A blank line asks the same task again")
  func blank() {
    var session = PuzzleSession(random: SeededRandom(seed: 1))
    let task = session.puzzle
    #expect(session.answer("") == .blank)
    #expect(session.answer("  \t") == .blank)
    #expect(session.puzzle == task)
  }
}
