/// One sitting at the puzzle: the current task, and a new one after every wrong answer.
///
/// The session only judges answers; ``PuzzleRun``, which every way of asking
/// goes through, wraps it with the ledger's checks before the task and the
/// grant after it.
public struct PuzzleSession<Random: RandomNumberGenerator> {
  /// The task to show now.
  public private(set) var puzzle: Puzzle
  /// The grants taken today when the session began: its tasks are of that step (``Puzzle/random(using:grant:)``).
  public let grant: Int
  private var random: Random

  /// What became of one answer.
  public enum Attempt: Hashable, Sendable {
    /// The answer was right.
    case solved
    /// The answer was wrong (or not a number): ``puzzle`` is now a new task. No hint is given.
    case wrong
    /// The answer was blank (only whitespace): ask the same task again.
    case blank
  }

  /// A session whose first task is the next one `random` draws, of the step
  /// for `grant` grants taken today (0: the first, and easiest, step).
  public init(random: Random, grant: Int = 0) {
    self.random = random
    self.grant = grant
    puzzle = Puzzle.random(using: &self.random, grant: grant)
  }

  /// Judges `input` against the current task, drawing a new task when it is wrong.
  public mutating func answer(_ input: some StringProtocol) -> Attempt {
    if input.utf8.allSatisfy(Puzzle.whitespace.contains) { return .blank }
    if puzzle.isAnswered(by: input) { return .solved }
    puzzle = Puzzle.random(using: &random, grant: grant)
    return .wrong
  }
}

extension PuzzleSession: Sendable where Random: Sendable {}
