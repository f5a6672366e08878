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
struct ParameterRule: Sendable {
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

  /// The value of the decoded bytes of a link's parameter; `nil` when it counts as absent.
  ///
  /// - Throws: `invalid-value` at `offset`, the start of the value in the link.
  func value(decoded bytes: UnsafeBufferPointer<UInt8>, at offset: Int) throws(DeepLinkError)
    -> ParameterValue?
  {
    switch kind {
    case .text:
      return bytes.isEmpty ? nil : .text(String(decoding: bytes, as: UTF8.self))
    case .integer(let range):
      var number = 0
      guard !bytes.isEmpty, bytes.count <= 18, bytes.allSatisfy(ASCII.isDigit) else {
        throw outOfRange(range, ASCII.excerpt(bytes), at: offset)
      }
      for byte in bytes { number = number * 10 + Int(byte &- UInt8(ascii: "0")) }
      guard range.contains(number) else { throw outOfRange(range, String(number), at: offset) }
      return .integer(number)
    case .token(let rule):
      if let problem = rule.problem(bytes) {
        throw DeepLinkError(.invalidValue, at: offset, "\(key): \(problem.message)")
      }
      return .text(String(decoding: bytes, as: UTF8.self))
    }
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

  private func outOfRange(_ range: ClosedRange<Int>, _ text: String, at offset: Int)
    -> DeepLinkError
  {
    DeepLinkError(
      .invalidValue, at: offset,
      "\(key) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'"
    )
  }
}
