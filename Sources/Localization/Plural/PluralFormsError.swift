/// Why a `Plural-Forms` header or its expression was refused, or why evaluating it failed.
public struct PluralFormsError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A stable identifier of the kind of problem.
  public enum Code: String, Hashable, Sendable {
    /// The expression does not follow gettext's C subset.
    case syntax
    /// The expression is longer than ``PluralExpression/maximumLength``.
    case tooLong = "too-long"
    /// The expression nests deeper than ``PluralExpression/maximumDepth``.
    case tooDeep = "too-deep"
    /// A `/` or `%` by zero while evaluating.
    case divisionByZero = "division-by-zero"
    /// The expression gave an index that is not below `nplurals`.
    case outOfRange = "out-of-range"
    /// `nplurals` is missing, not a number, or outside 1…``PluralForms/maximumCount``.
    case badCount = "bad-count"
    /// The header has no `plural=` part.
    case missingExpression = "missing-expression"
  }

  public var code: Code
  /// What was wrong, in words.
  public var message: String
  /// The byte offset in the expression, for syntax errors.
  public var offset: Int?

  public init(_ code: Code, _ message: String, offset: Int? = nil) {
    self.code = code
    self.message = message
    self.offset = offset
  }

  public var description: String {
    offset.map { "\(message) (at byte \($0))" } ?? message
  }
}
