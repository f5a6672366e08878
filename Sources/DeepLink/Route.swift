/// One entry of a ``Router``'s table: a route name, its typed parameters, and
/// the way between their values and an action, in both directions.
///
/// ```swift
/// enum Action: Sendable { case settings(section: String, tab: Int) }
/// let section: Parameter<String> = .token("section", .viewName, default: "general")
/// let tab: Parameter<Int> = .integer("tab", in: 1...9, default: 1)
/// let route = Route<Action>(
///   "settings", section, tab,
///   action: { .settings(section: $0, tab: $1) },
///   values: { if case .settings(let section, let tab) = $0 { (section, tab) } else { nil } })
/// ```
///
/// The closures' types follow from the parameters, so the compiler checks that
/// the action receives a `String` and an `Int` in that order. `values` is the
/// inverse of `action`: it gives the parameter values of an action of this
/// route, and `nil` for any other action, so that ``Router/link(for:)`` can
/// build the link.
public struct Route<Action: Sendable>: Sendable {
  /// The route name in lowercase.
  public let name: String
  let nameBytes: [UInt8]
  let rules: [ParameterRule]
  /// The action for the checked values, one slot per rule in order.
  let action: @Sendable (RouteValues) throws(DeepLinkError) -> Action
  /// The values of an action of this route, one per rule in order; `nil` for another route's.
  let linkValues: @Sendable (Action) -> [ParameterValue?]?
  /// For the standard routes, which one: the resolver for ``ShieldAction``
  /// then makes the action itself rather than through `action`.
  let standard: StandardRoute?

  /// A route named `name` (compared without case) with the given parameters.
  ///
  /// The name and the keys are checked when the route is registered.
  public init<each Value: Sendable>(
    _ name: String,
    _ parameter: repeat Parameter<each Value>,
    action: @escaping @Sendable (repeat each Value) -> Action,
    values: @escaping @Sendable (Action) -> (repeat each Value)?
  ) {
    nameBytes = name.utf8.map(ASCII.lowercased)
    self.name = String(decoding: nameBytes, as: UTF8.self)
    var rules: [ParameterRule] = []
    for parameter in repeat each parameter {
      rules.append(parameter.rule)
    }
    self.rules = rules
    standard = nil
    self.action = { values throws(DeepLinkError) in
      // Pack expansions are evaluated from left to right, so `index` follows the rules.
      var index = 0
      func next<V>(_ parameter: Parameter<V>) throws(DeepLinkError) -> V {
        defer { index += 1 }
        guard index < values.count, let value = parameter.value(values.value(index) ?? parameter.rule.defaultValue)
        else {
          throw DeepLinkError(
            .invalidValue, at: 0, "\(parameter.key): the value has the wrong type")
        }
        return value
      }
      return action(repeat try next(each parameter))
    }
    self.linkValues = { action in
      guard let values = values(action) else { return nil }
      var result: [ParameterValue?] = []
      func append<V>(_ parameter: Parameter<V>, _ value: V) {
        result.append(parameter.linkValue(value))
      }
      repeat append(each parameter, each values)
      return result
    }
  }

  /// A route from its rules and closures over the slots, as the standard routes are made.
  init(
    name: String, rules: [ParameterRule],
    action:
      @escaping @Sendable (RouteValues) throws(DeepLinkError) -> Action,
    linkValues: @escaping @Sendable (Action) -> [ParameterValue?]?,
    standard: StandardRoute? = nil
  ) {
    self.name = name
    nameBytes = Array(name.utf8)
    self.rules = rules
    self.action = action
    self.linkValues = linkValues
    self.standard = standard
  }

  /// The same route for a wider action type, such as an enum with a case that wraps `Action`.
  ///
  /// - Parameters:
  ///   - embed: Wraps this route's action.
  ///   - extract: Unwraps it again; `nil` for every other action.
  public func map<Other: Sendable>(
    _ embed: @escaping @Sendable (Action) -> Other,
    _ extract: @escaping @Sendable (Other) -> Action?
  ) -> Route<Other> {
    let action = self.action
    let linkValues = self.linkValues
    return Route<Other>(
      name: name, rules: rules,
      action: { values throws(DeepLinkError) in embed(try action(values)) },
      linkValues: { other in extract(other).flatMap(linkValues) })
  }
}
