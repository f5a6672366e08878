/// A compiled `plural=` expression of a `Plural-Forms` header.
///
/// The language is gettext's C subset: the variable `n`, decimal integer
/// literals, `!`, `* / %`, `+ -`, `< > <= >=`, `== !=`, `&&`, `||`, `?:` and
/// parentheses, with C's precedence. Values are unsigned 64-bit integers, as
/// gettext's `unsigned long`: arithmetic wraps, comparisons give 0 or 1.
///
/// Hostile headers are bounded: the text is at most ``maximumLength`` bytes,
/// the tree at most ``maximumDepth`` levels (so that neither the parser nor the
/// evaluator can exhaust the stack), and a division by zero is an error, not a trap.
public struct PluralExpression: Hashable, Sendable, CustomStringConvertible {
  /// The longest expression accepted, in bytes.
  public static let maximumLength = 1024
  /// The deepest nesting accepted, counting operators and parentheses.
  public static let maximumDepth = 64

  /// The expression as written.
  public let source: String
  let root: Node

  /// Compiles `text`.
  ///
  /// - Throws: ``PluralFormsError`` with code `syntax`, `tooLong` or `tooDeep`.
  public init(parsing text: String) throws(PluralFormsError) {
    let bytes = Array(text.utf8)
    guard bytes.count <= Self.maximumLength else {
      throw PluralFormsError(
        .tooLong, "the plural expression is longer than \(Self.maximumLength) bytes")
    }
    var parser = PluralExpressionParser(bytes: bytes)
    root = try parser.parseWhole()
    source = text
  }

  /// The value of the expression for `n`.
  ///
  /// - Throws: ``PluralFormsError`` with code `divisionByZero`.
  public func evaluate(_ n: UInt64) throws(PluralFormsError) -> UInt64 {
    try root.evaluate(n)
  }

  public var description: String { source }

  public static func == (lhs: PluralExpression, rhs: PluralExpression) -> Bool {
    lhs.root == rhs.root
  }
  public func hash(into hasher: inout Hasher) { hasher.combine(root) }
}

extension PluralExpression {
  /// The binary operators, with C's precedence (higher binds tighter).
  enum Operator: Hashable, Sendable {
    case or, and
    case equal, notEqual
    case less, greater, lessOrEqual, greaterOrEqual
    case add, subtract
    case multiply, divide, remainder

    var precedence: Int {
      switch self {
      case .or: 1
      case .and: 2
      case .equal, .notEqual: 3
      case .less, .greater, .lessOrEqual, .greaterOrEqual: 4
      case .add, .subtract: 5
      case .multiply, .divide, .remainder: 6
      }
    }
  }

  /// A node of the expression tree; its depth is bounded by the parser.
  indirect enum Node: Hashable, Sendable {
    case variable
    case literal(UInt64)
    case not(Node)
    case binary(Operator, Node, Node)
    case conditional(Node, Node, Node)

    func evaluate(_ n: UInt64) throws(PluralFormsError) -> UInt64 {
      switch self {
      case .variable: return n
      case .literal(let value): return value
      case .not(let operand): return try operand.evaluate(n) == 0 ? 1 : 0
      case .conditional(let condition, let then, let otherwise):
        return try condition.evaluate(n) != 0 ? then.evaluate(n) : otherwise.evaluate(n)
      case .binary(.and, let left, let right):
        // Short-circuit as C does (`n != 0 && 10 / n`); `&&` itself would erase the typed error.
        guard try left.evaluate(n) != 0 else { return 0 }
        return try right.evaluate(n) != 0 ? 1 : 0
      case .binary(.or, let left, let right):
        if try left.evaluate(n) != 0 { return 1 }
        return try right.evaluate(n) != 0 ? 1 : 0
      case .binary(let op, let left, let right):
        let a = try left.evaluate(n)
        let b = try right.evaluate(n)
        switch op {
        case .equal: return a == b ? 1 : 0
        case .notEqual: return a != b ? 1 : 0
        case .less: return a < b ? 1 : 0
        case .greater: return a > b ? 1 : 0
        case .lessOrEqual: return a <= b ? 1 : 0
        case .greaterOrEqual: return a >= b ? 1 : 0
        case .add: return a &+ b
        case .subtract: return a &- b
        case .multiply: return a &* b
        case .divide, .remainder:
          guard b != 0 else {
            throw PluralFormsError(
              .divisionByZero, "division by zero in the plural expression for n = \(n)")
          }
          return op == .divide ? a / b : a % b
        case .and, .or: return 0  // handled above, with short-circuit evaluation
        }
      }
    }
  }
}
