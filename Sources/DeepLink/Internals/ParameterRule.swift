/// A checked parameter value, before it becomes a Swift value.
enum ParameterValue: Hashable, Sendable {
  case text(String)
  case integer(Int)

  var text: String? {
    if case .text(let text) = self { text } else { nil }
  }

  var integer: Int? {
    if case .integer(let integer) = self { integer } else { nil }
  }
}

/// The untyped half of a ``Parameter``: key, kind and whether it may be left out.
///
/// A class, so that the resolver's hot loop passes a reference around rather
/// than copying a key, its bytes and a default with a retain for each.
final class ParameterRule: Sendable {
  enum Kind: Sendable {
    /// Any UTF-8 without control characters; empty counts as absent.
    case text
    /// Decimal digits, in the range.
    case integer(ClosedRange<Int>)
    /// Characters and length of the rule.
    case token(TokenRule)
  }

  enum Requirement: Sendable {
    case required
    case optional
    case defaulted(ParameterValue)
  }

  /// The largest integer a link may carry: 18 digits cannot overflow `Int`.
  static let largestInteger = 999_999_999_999_999_999

  let key: String
  let keyBytes: [UInt8]
  let kind: Kind
  let requirement: Requirement

  init(key: String, kind: Kind, requirement: Requirement) {
    self.key = key
    keyBytes = Array(key.utf8)
    self.kind = kind
    self.requirement = requirement
  }

  /// The default, when the rule has one.
  var defaultValue: ParameterValue? {
    if case .defaulted(let value) = requirement { value } else { nil }
  }

  /// Checks a value given to a builder, or a default.
  ///
  /// - Throws: `invalid-value` with the offset in the value.
  func check(_ value: ParameterValue) throws(DeepLinkError) {
    switch (kind, value) {
    case (.text, .text):
      return
    case (.integer(let range), .integer(let number)):
      guard range.contains(number) else { throw outOfRange(range, String(number), at: 0) }
    case (.token(let rule), .text(let text)):
      if let problem = rule.problem(text.utf8) {
        throw DeepLinkError(.invalidValue, at: problem.offset, "\(key): \(problem.message)")
      }
    default:
      throw DeepLinkError(.invalidValue, at: 0, "\(key): the value has the wrong type")
    }
  }

  func outOfRange(_ range: ClosedRange<Int>, _ text: String, at offset: Int)
    -> DeepLinkError
  {
    DeepLinkError(
      .invalidValue, at: offset,
      "\(key) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'"
    )
  }
}
