/// A language's plural rule as a `Plural-Forms` header states it: how many forms, and which one a number takes.
public struct PluralForms: Hashable, Sendable, CustomStringConvertible {
  /// The most plural forms accepted; no language has more than six.
  public static let maximumCount = 20

  /// `nplurals`: how many forms each plural message has.
  public let count: Int
  /// `plural=`: the expression that picks a form for `n`.
  public let expression: PluralExpression

  /// English and the other languages with one form for 1 and another for the rest: `nplurals=2; plural=(n != 1);`.
  public static let germanic = PluralForms(
    checkedCount: 2,
    expression: .init(.binary(.notEqual, .variable, .literal(1)), source: "(n != 1)"))

  /// A rule from its parts.
  ///
  /// - Throws: ``PluralFormsError`` with code `badCount` when `count` is outside 1…``maximumCount``.
  public init(count: Int, expression: PluralExpression) throws(PluralFormsError) {
    guard (1...Self.maximumCount).contains(count) else {
      throw PluralFormsError(
        .badCount, "nplurals must be a number from 1 to \(Self.maximumCount), not \(count)")
    }
    self.init(checkedCount: count, expression: expression)
  }

  private init(checkedCount: Int, expression: PluralExpression) {
    self.count = checkedCount
    self.expression = expression
  }

  /// Reads the value of a `Plural-Forms` header, such as `nplurals=2; plural=(n != 1);`.
  ///
  /// - Throws: ``PluralFormsError`` when `nplurals` or `plural` is missing or invalid.
  public init(header: String) throws(PluralFormsError) {
    var count: Int?
    var expression: PluralExpression?
    // Split at `;` and `=` as bytes: the header is ASCII, and this runs while catalogs load.
    for part in header.utf8.split(separator: UInt8(ascii: ";")) {
      let text = Substring(part)
      guard let equals = part.firstIndex(of: UInt8(ascii: "=")) else {
        guard text.trimmingSpaces().isEmpty else {
          throw PluralFormsError(
            .syntax, "expected 'name=value' in the header, found '\(text.trimmingSpaces())'")
        }
        continue
      }
      let name = text[..<equals].trimmingSpaces()
      let value = text[text.utf8.index(after: equals)...].trimmingSpaces()
      if name.utf8.elementsEqual("nplurals".utf8) {
        guard let number = Int(value) else {
          throw PluralFormsError(.badCount, "nplurals must be a number, not '\(value.prefix(20))'")
        }
        count = number
      } else if name.utf8.elementsEqual("plural".utf8) {
        expression = try PluralExpression(parsing: String(value))
      }
    }
    guard let count else { throw PluralFormsError(.badCount, "the header has no nplurals=") }
    guard let expression else {
      throw PluralFormsError(.missingExpression, "the header has no plural=")
    }
    try self.init(count: count, expression: expression)
  }

  /// The index of the plural form for `n`.
  ///
  /// - Throws: ``PluralFormsError`` when the expression divides by zero or
  ///   gives an index that is not below ``count``.
  public func index(for n: UInt64) throws(PluralFormsError) -> Int {
    let value = try expression.evaluate(n)
    guard value < UInt64(count) else {
      throw PluralFormsError(
        .outOfRange, "the plural expression gives \(value) for n = \(n), but nplurals is \(count)")
    }
    return Int(value)
  }

  /// The header value, `nplurals=N; plural=EXPRESSION;`.
  public var description: String { "nplurals=\(count); plural=\(expression.source);" }
}

extension PluralExpression {
  init(_ root: Node, source: String) {
    self.root = root
    self.source = source
  }
}
