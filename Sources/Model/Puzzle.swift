/// A short arithmetic task, such as 47 + 38, 92 − 45, 7 × 13 or 47 + 38 − 19.
///
/// The tasks are meant as a moment of deliberate effort, not a test: two-digit
/// sums and differences and a one-digit by a teen product at first, then
/// (each grant of the day a step, ``random(using:grant:)``) larger products
/// and two steps, never a trivial operand (0, 1, 10, a multiple of ten) and
/// never beyond mental arithmetic. Every answer, and every step on the way
/// to it, is a non-negative integer.
public struct Puzzle: Hashable, Sendable, CustomStringConvertible {
  /// The arithmetic operation of a task.
  public enum Operation: String, Hashable, Sendable, CaseIterable {
    case addition
    case subtraction
    case multiplication

    /// The sign as printed: `+`, U+2212 MINUS SIGN, U+00D7 MULTIPLICATION SIGN.
    public var symbol: String {
      switch self {
      case .addition: "+"
      case .subtraction: "\u{2212}"
      case .multiplication: "\u{00D7}"
      }
    }
  }

  /// A second step, applied to the result of the first: `− 19` in `47 + 38 − 19`.
  public struct Step: Hashable, Sendable {
    public let operation: Operation
    public let operand: Int
  }

  public let left: Int
  public let operation: Operation
  public let right: Int
  /// The second step of a two-step task; `nil` for one step.
  public let then: Step?

  /// A task with these operands; `nil` when its answer would be negative.
  public init?(_ left: Int, _ operation: Operation, _ right: Int) {
    guard left >= 0, right >= 0, operation != .subtraction || left >= right else { return nil }
    self.left = left
    self.operation = operation
    self.right = right
    then = nil
  }

  /// A task of two steps, worked from left to right: `47 + 38 − 19`, `7 × 14 + 27`.
  ///
  /// `nil` when a step would be negative, or when the second step is a
  /// product after a sum or a difference (read with the usual precedence,
  /// `4 + 3 × 5` is not worked from left to right).
  public init?(_ left: Int, _ operation: Operation, _ right: Int, then second: Operation, _ operand: Int) {
    guard let first = Puzzle(left, operation, right), operand >= 0,
      second != .multiplication || operation == .multiplication,
      Puzzle(first.answer, second, operand) != nil
    else { return nil }
    self.init(valid: left, operation, right, then: Step(operation: second, operand: operand))
  }

  private init(valid left: Int, _ operation: Operation, _ right: Int, then: Step? = nil) {
    self.left = left
    self.operation = operation
    self.right = right
    self.then = then
  }

  /// The right answer.
  public var answer: Int {
    let first = Puzzle.apply(operation, left, right)
    guard let then else { return first }
    return Puzzle.apply(then.operation, first, then.operand)
  }

  private static func apply(_ operation: Operation, _ left: Int, _ right: Int) -> Int {
    switch operation {
    case .addition: left + right
    case .subtraction: left - right
    case .multiplication: left * right
    }
  }

  /// The task as printed: `47 + 38`, `47 + 38 − 19`.
  public var text: String {
    let first = "\(left) \(operation.symbol) \(right)"
    guard let then else { return first }
    return first + " \(then.operation.symbol) \(then.operand)"
  }

  public var description: String { text }

  /// Whether `input` is the right answer; see ``parseAnswer(_:)`` for what is accepted.
  public func isAnswered(by input: some StringProtocol) -> Bool {
    Puzzle.parseAnswer(input) == answer
  }

  /// A new task drawn from `random`.
  ///
  /// The same generator state always gives the same task, so a seeded
  /// generator gives a reproducible sequence.
  public static func random(using random: inout some RandomNumberGenerator) -> Puzzle {
    switch random.uniform(in: 0...2) {
    case 0:
      return Puzzle(
        valid: random.twoDigitOperand(in: 12...89), .addition, random.twoDigitOperand(in: 12...89))
    case 1:
      // 31…99 minus 12…(left − 11), so the difference has two digits too.
      let left = random.twoDigitOperand(in: 31...99)
      return Puzzle(valid: left, .subtraction, random.twoDigitOperand(in: 12...(left - 11)))
    default:
      return Puzzle(
        valid: random.uniform(in: 3...9), .multiplication, random.twoDigitOperand(in: 11...19))
    }
  }

  /// The most steps a task grows by: the task of the fourth grant of a day
  /// and every later one is of the last step.
  public static let lastStep = 3

  /// The step of the task asked when `grant` grants were taken today: one
  /// more each grant, up to ``lastStep``.
  public static func step(forGrant grant: Int) -> Int {
    min(max(grant, 0), lastStep)
  }

  /// A new task of the step for the day's `grant`-th grant so far (0: the
  /// first task of the day), drawn from `random` (issue 25 point 3). Each
  /// grant of the day asks a harder task, never beyond mental arithmetic:
  ///
  /// | step | grants today | task | example | answers |
  /// |---|---|---|---|---|
  /// | 0 | 0 | ``random(using:)``: a two-digit sum or difference, or 3…9 × 11…19 | 47 + 38 | 11…178 |
  /// | 1 | 1 | a one-digit by a two-digit number: 3…9 × 21…49 | 7 × 38 | 63…441 |
  /// | 2 | 2 | two steps, a sum then a difference: 12…89 + 12…89 − 12…89 | 47 + 38 − 19 | 11…166 |
  /// | 3 | 3 and more | two steps, a product then a sum: 3…9 × 11…19 + 12…89 | 7 × 14 + 27 | 45…260 |
  ///
  /// No operand is a multiple of ten; step 0 is exactly ``random(using:)``,
  /// so the same seed gives the first task of the day it always gave.
  public static func random(using random: inout some RandomNumberGenerator, grant: Int) -> Puzzle {
    switch step(forGrant: grant) {
    case 0:
      return Puzzle.random(using: &random)
    case 1:
      return Puzzle(
        valid: random.uniform(in: 3...9), .multiplication, random.twoDigitOperand(in: 21...49))
    case 2:
      let left = random.twoDigitOperand(in: 12...89)
      let right = random.twoDigitOperand(in: 12...89)
      // The difference leaves at least 11, as step 0's differences do.
      let operand = random.twoDigitOperand(in: 12...min(89, left + right - 11))
      return Puzzle(valid: left, .addition, right, then: Step(operation: .subtraction, operand: operand))
    default:
      let left = random.uniform(in: 3...9)
      let right = random.twoDigitOperand(in: 11...19)
      return Puzzle(
        valid: left, .multiplication, right,
        then: Step(operation: .addition, operand: random.twoDigitOperand(in: 12...89)))
    }
  }

  /// The number in an answer, or `nil` when it is not one.
  ///
  /// Whitespace around the answer (spaces, tabs, a line end) is ignored;
  /// otherwise only ASCII digits are accepted: no sign, no separators, no
  /// other scripts' digits, at most nine digits. Leading zeros are allowed
  /// (`085` is 85).
  public static func parseAnswer(_ input: some StringProtocol) -> Int? {
    let bytes = Array(input.utf8)
    guard let first = bytes.firstIndex(where: { !Puzzle.whitespace.contains($0) }),
      let last = bytes.lastIndex(where: { !Puzzle.whitespace.contains($0) })
    else { return nil }
    let digits = bytes[first...last]
    guard digits.count <= 9 else { return nil }
    var value = 0
    for byte in digits {
      guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
      value = value * 10 + Int(byte - UInt8(ascii: "0"))
    }
    return value
  }

  /// Spaces, tabs and line ends (ASCII), which may surround an answer.
  static let whitespace: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D, 0x0B, 0x0C]
}

extension RandomNumberGenerator {
  /// A number in `range` that is not a multiple of ten, so no task is trivial.
  fileprivate mutating func twoDigitOperand(in range: ClosedRange<Int>) -> Int {
    while true {
      let value = uniform(in: range)
      if value % 10 != 0 { return value }
    }
  }
}
