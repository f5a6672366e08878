/// A precedence-climbing parser for ``PluralExpression``, bounded in depth.
struct PluralExpressionParser {
  private let bytes: [UInt8]
  private var index = 0

  init(bytes: [UInt8]) { self.bytes = bytes }

  /// Parses the whole text as one expression.
  mutating func parseWhole() throws(PluralFormsError) -> PluralExpression.Node {
    let (node, _) = try parseConditional(level: 0)
    skipSpaces()
    guard index == bytes.count else { throw error("unexpected '\(currentCharacter)'") }
    return node
  }

  // Every function takes the nesting `level` of the call and returns the depth
  // of the tree it built: the first bounds the parser's recursion, the second
  // the evaluator's (left-associative chains deepen the tree without recursing).

  private mutating func parseConditional(level: Int) throws(PluralFormsError) -> (
    PluralExpression.Node, Int
  ) {
    try checkLevel(level)
    let (condition, conditionDepth) = try parseBinary(minimumPrecedence: 1, level: level + 1)
    skipSpaces()
    guard consume("?") else { return (condition, conditionDepth) }
    let (then, thenDepth) = try parseConditional(level: level + 1)
    skipSpaces()
    guard consume(":") else { throw error("expected ':' after the '?' branch") }
    let (otherwise, otherwiseDepth) = try parseConditional(level: level + 1)
    return try node(
      .conditional(condition, then, otherwise),
      depth: max(conditionDepth, thenDepth, otherwiseDepth) + 1)
  }

  private mutating func parseBinary(
    minimumPrecedence: Int, level: Int
  ) throws(PluralFormsError) -> (PluralExpression.Node, Int) {
    try checkLevel(level)
    var (left, leftDepth) = try parseUnary(level: level + 1)
    while true {
      skipSpaces()
      let start = index
      guard let op = readOperator(), op.precedence >= minimumPrecedence else {
        index = start
        return (left, leftDepth)
      }
      let (right, rightDepth) = try parseBinary(
        minimumPrecedence: op.precedence + 1, level: level + 1)
      (left, leftDepth) = try node(.binary(op, left, right), depth: max(leftDepth, rightDepth) + 1)
    }
  }

  private mutating func parseUnary(level: Int) throws(PluralFormsError) -> (
    PluralExpression.Node, Int
  ) {
    try checkLevel(level)
    skipSpaces()
    guard index < bytes.count else { throw error("the expression ends where a value was expected") }
    let byte = bytes[index]
    if byte == UInt8(ascii: "!"),
      !(index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "="))
    {
      index += 1
      let (operand, depth) = try parseUnary(level: level + 1)
      return try node(.not(operand), depth: depth + 1)
    }
    if byte == UInt8(ascii: "(") {
      index += 1
      let (inner, depth) = try parseConditional(level: level + 1)
      skipSpaces()
      guard consume(")") else { throw error("expected ')'") }
      return (inner, depth)
    }
    if byte == UInt8(ascii: "n") {
      index += 1
      if index < bytes.count, isIdentifierByte(bytes[index]) {
        throw error("the only variable is 'n'")
      }
      return (.variable, 1)
    }
    if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
      let start = index
      var value: UInt64 = 0
      while index < bytes.count, bytes[index] >= UInt8(ascii: "0"),
        bytes[index] <= UInt8(ascii: "9")
      {
        let (times, overflowTimes) = value.multipliedReportingOverflow(by: 10)
        let (sum, overflowSum) = times.addingReportingOverflow(
          UInt64(bytes[index] - UInt8(ascii: "0")))
        guard !overflowTimes, !overflowSum else {
          throw error("the number is too large", at: start)
        }
        value = sum
        index += 1
      }
      if index < bytes.count, isIdentifierByte(bytes[index]) {
        throw error("numbers must be decimal integers")
      }
      return (.literal(value), 1)
    }
    throw error("unexpected '\(currentCharacter)' where a value was expected")
  }

  // MARK: Tokens

  private mutating func readOperator() -> PluralExpression.Operator? {
    guard index < bytes.count else { return nil }
    let second: UInt8 = index + 1 < bytes.count ? bytes[index + 1] : 0
    let op: PluralExpression.Operator
    var length = 1
    switch (bytes[index], second) {
    case (UInt8(ascii: "|"), UInt8(ascii: "|")): (op, length) = (.or, 2)
    case (UInt8(ascii: "&"), UInt8(ascii: "&")): (op, length) = (.and, 2)
    case (UInt8(ascii: "="), UInt8(ascii: "=")): (op, length) = (.equal, 2)
    case (UInt8(ascii: "!"), UInt8(ascii: "=")): (op, length) = (.notEqual, 2)
    case (UInt8(ascii: "<"), UInt8(ascii: "=")): (op, length) = (.lessOrEqual, 2)
    case (UInt8(ascii: ">"), UInt8(ascii: "=")): (op, length) = (.greaterOrEqual, 2)
    case (UInt8(ascii: "<"), _): op = .less
    case (UInt8(ascii: ">"), _): op = .greater
    case (UInt8(ascii: "+"), _): op = .add
    case (UInt8(ascii: "-"), _): op = .subtract
    case (UInt8(ascii: "*"), _): op = .multiply
    case (UInt8(ascii: "/"), _): op = .divide
    case (UInt8(ascii: "%"), _): op = .remainder
    default: return nil
    }
    index += length
    return op
  }

  private mutating func consume(_ character: Unicode.Scalar) -> Bool {
    guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
    index += 1
    return true
  }

  private mutating func skipSpaces() {
    while index < bytes.count,
      bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D
    {
      index += 1
    }
  }

  private var currentCharacter: String {
    guard index < bytes.count else { return "end" }
    return bytes[index] < 0x80 ? String(UnicodeScalar(bytes[index])) : "byte \(bytes[index])"
  }

  private func isIdentifierByte(_ byte: UInt8) -> Bool {
    (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A)
      || (byte >= 0x30 && byte <= 0x39) || byte == 0x5F
  }

  // MARK: Limits and errors

  private func checkLevel(_ level: Int) throws(PluralFormsError) {
    guard level <= PluralExpression.maximumDepth * 3 else {
      throw PluralFormsError(.tooDeep, "the plural expression nests too deeply", offset: index)
    }
  }

  private func node(_ node: PluralExpression.Node, depth: Int) throws(PluralFormsError) -> (
    PluralExpression.Node, Int
  ) {
    guard depth <= PluralExpression.maximumDepth else {
      throw PluralFormsError(
        .tooDeep, "the plural expression is deeper than \(PluralExpression.maximumDepth) levels",
        offset: index)
    }
    return (node, depth)
  }

  private func error(_ message: String, at offset: Int? = nil) -> PluralFormsError {
    PluralFormsError(.syntax, message, offset: offset ?? index)
  }
}
