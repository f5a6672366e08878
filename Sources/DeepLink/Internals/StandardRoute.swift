/// One of the standard routes: where its parameters' values are, from
/// declaring them once, and the action it makes of them.
///
/// A route's action is a closure stored in the route, generic over the action
/// type; calling it costs a retain and a release of its context and hands the
/// action back through memory. The standard routes' closures call
/// ``checkedAction(_:)``; the resolver for ``ShieldAction`` calls
/// ``action(_:)`` itself, compiled in place, so both make the same action.
/// The action reads each value through the ``ParameterIndex`` that declaring
/// the parameter gave, so the rules and the action agree by construction; the
/// indexes are plain numbers, so reading a standard route retains nothing.
enum StandardRoute: Sendable {
  case puzzle(app: ParameterIndex<String?>, grant: ParameterIndex<Int>, id: ParameterIndex<String>)
  case view(app: ParameterIndex<String>, view: ParameterIndex<String>, id: ParameterIndex<String>)

  /// `puzzle?app=…&grant=…&id=…`: `app` optional, `grant` and `id` with the
  /// configuration's defaults.
  static func declarePuzzle(_ configuration: LinkConfiguration) -> (route: StandardRoute, rules: [ParameterRule]) {
    var declaration = RouteDeclaration()
    // Arguments are evaluated from left to right, so the parameters are declared in this order.
    let route = StandardRoute.puzzle(
      app: declaration.declare(.text("app")),
      grant: declaration.declare(.grant(default: configuration.grant)),
      id: declaration.declare(.identifier(default: configuration.identifier)))
    return (route, declaration.rules)
  }

  /// `view?app=…&view=…&id=…`: `app` required, `view` and `id` with the
  /// configuration's defaults.
  static func declareView(_ configuration: LinkConfiguration) -> (route: StandardRoute, rules: [ParameterRule]) {
    var declaration = RouteDeclaration()
    let route = StandardRoute.view(
      app: declaration.declare(.text("app")),
      view: declaration.declare(.view(default: configuration.view)),
      id: declaration.declare(.identifier(default: configuration.identifier)))
    return (route, declaration.rules)
  }

  /// The action for the checked values of the route's parameters; `nil`
  /// for a view without an app, which the route's rules do not let through.
  @inline(__always)
  func action(_ values: RouteValues) -> ShieldAction? {
    switch self {
    case .puzzle(let app, let grant, let id):
      guard let grant = values[grant], let id = values[id] else { return nil }
      return .puzzle(app: values[app], grant: grant, id: id)
    case .view(let app, let view, let id):
      guard let app = values[app], let view = values[view], let id = values[id] else { return nil }
      return .view(app: app, view: view, id: id)
    }
  }

  /// The same action with its texts lent in place, as ``action(_:)`` would
  /// make them; `nil` where it gives `nil`.
  @inline(__always)
  func lentAction(_ values: RouteValues) -> LentShieldAction? {
    switch self {
    case .puzzle(let app, let grant, let id):
      guard let grant = values[grant], let id = values.lent(id) else { return nil }
      return .puzzle(app: values.lent(app), grant: grant, id: id)
    case .view(let app, let view, let id):
      guard let app = values.lent(app), let view = values.lent(view), let id = values.lent(id) else { return nil }
      return .view(app: app, view: view, id: id)
    }
  }

  /// The route's action for the values, for ``Route``'s closure.
  func checkedAction(_ values: RouteValues) throws(DeepLinkError) -> ShieldAction {
    guard let action = action(values) else {
      throw DeepLinkError(.missingParameter, at: 0, "the route 'view' needs a value for 'app'")
    }
    return action
  }
}
