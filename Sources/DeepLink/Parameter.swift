/// A typed parameter of a route: its key, its rule, and how it maps to a Swift value.
///
/// Made with the static factories, whose result type says what the value is:
///
/// ```swift
/// let app: Parameter<String?> = .text("app")                        // optional
/// let grant: Parameter<Int> = .integer("grant", in: LinkConfiguration.grantRange, default: 5)
/// let view: Parameter<String> = .token("view", .viewName, default: "home")
/// ```
///
/// Text values may be any UTF-8 without control characters; an empty text
/// value counts as absent, and the builder leaves it out. Integers are
/// decimal digits in a range. Tokens follow a ``TokenRule``. A parameter
/// without a default whose type is not optional is required.
public struct Parameter<Value: Sendable>: Sendable {
  let rule: ParameterRule
  /// The Swift value of a checked link value (or of its absence); `nil` only if the types disagree.
  let value: @Sendable (ParameterValue?) -> Value?
  /// The link value of a Swift value; `nil` leaves the parameter out.
  let linkValue: @Sendable (Value) -> ParameterValue?

  /// The key, such as `grant`.
  public var key: String { rule.key }
}

extension Parameter where Value == String? {
  /// An optional text parameter; an empty value counts as absent.
  public static func text(_ key: String) -> Parameter {
    optional(ParameterRule(key: key, kind: .text, requirement: .optional))
  }

  /// An optional token parameter.
  public static func token(_ key: String, _ rule: TokenRule) -> Parameter {
    optional(ParameterRule(key: key, kind: .token(rule), requirement: .optional))
  }

  private static func optional(_ rule: ParameterRule) -> Parameter {
    Parameter(
      rule: rule,
      value: { slot in
        guard let slot else { return .some(nil) }
        return slot.text.map { .some($0) }
      },
      linkValue: { $0.map(ParameterValue.text) })
  }
}

extension Parameter where Value == String {
  /// A required text parameter; an empty value counts as absent, hence as missing.
  public static func text(_ key: String) -> Parameter {
    Parameter(
      rule: ParameterRule(key: key, kind: .text, requirement: .required),
      value: { $0?.text }, linkValue: { .text($0) })
  }

  /// A token parameter, required unless it has a default.
  public static func token(_ key: String, _ rule: TokenRule, default: String? = nil) -> Parameter {
    Parameter(
      rule: ParameterRule(
        key: key, kind: .token(rule),
        requirement: `default`.map { .defaulted(.text($0)) } ?? .required),
      value: { $0?.text }, linkValue: { .text($0) })
  }
}

extension Parameter where Value == Int {
  /// An integer parameter in `range`, required unless it has a default.
  public static func integer(_ key: String, in range: ClosedRange<Int>, default: Int? = nil)
    -> Parameter
  {
    Parameter(
      rule: ParameterRule(
        key: key, kind: .integer(range),
        requirement: `default`.map { .defaulted(.integer($0)) } ?? .required),
      value: { $0?.integer }, linkValue: { .integer($0) })
  }
}

extension Parameter where Value == Int? {
  /// An optional integer parameter in `range`.
  public static func integer(_ key: String, in range: ClosedRange<Int>) -> Parameter {
    Parameter(
      rule: ParameterRule(key: key, kind: .integer(range), requirement: .optional),
      value: { slot in
        guard let slot else { return .some(nil) }
        return slot.integer.map { .some($0) }
      },
      linkValue: { $0.map(ParameterValue.integer) })
  }
}
