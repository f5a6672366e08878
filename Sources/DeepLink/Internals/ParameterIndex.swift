/// Where a declared parameter's value is among its route's values, typed
/// with the parameter's Swift type.
///
/// Made only by ``RouteDeclaration/declare(_:)``, which numbers parameters
/// in the order they are declared, so that a route's rules and the places its
/// action reads cannot drift apart: no place is ever written by hand. A plain
/// number, so that holding one costs no reference counting.
struct ParameterIndex<Value: Sendable>: Sendable {
  /// The parameter's place among the route's rules.
  let position: Int
}

/// The parameters of a route, declared one after the other.
///
/// ```swift
/// var declaration = RouteDeclaration()
/// let app = declaration.declare(Parameter<String?>.text("app"))
/// let grant = declaration.declare(Parameter<Int>.grant(default: 5))
/// // declaration.rules: app, grant; values[grant] is the link's grant or 5
/// ```
struct RouteDeclaration {
  /// The rules of the parameters declared so far, in order.
  private(set) var rules: [ParameterRule] = []

  /// Adds `parameter` after those declared so far and returns its place.
  mutating func declare<Value>(_ parameter: Parameter<Value>) -> ParameterIndex<Value> {
    rules.append(parameter.rule)
    return ParameterIndex(position: rules.count - 1)
  }
}
