/// A short arithmetic task, such as 47 + 38, 92 − 45 or 7 × 13.
///
/// The tasks are meant as a moment of deliberate effort, not a test: two-digit
/// sums and differences and a one-digit by a teen product, never a trivial
/// operand (0, 1, 10, a multiple of ten). Every answer is a non-negative integer.
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

  public let left: Int
  public let operation: Operation
  public let right: Int

  /// A task with these operands; `nil` when its answer would be negative.
  public init?(_ left: Int, _ operation: Operation, _ right: Int) {
    guard left >= 0, right >= 0, operation != .subtraction || left >= right else { return nil }
    self.left = left
    self.operation = operation
    self.right = right
  }

  private init(valid left: Int, _ operation: Operation, _ right: Int) {
    self.left = left
    self.operation = operation
    self.right = right
  }

  /// The right answer.
  public var answer: Int {
    switch operation {
    case .addition: left + right
    case .subtraction: left - right
    case .multiplication: left * right
    }
  }

  /// The task as printed: `47 + 38`.
  public var text: String { "\(left) \(operation.symbol) \(right)" }

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
