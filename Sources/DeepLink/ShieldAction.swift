/// What a shield notification's link asks for.
public enum ShieldAction: Hashable, Sendable {
  /// Open the math puzzle that unlocks `grant` minutes of `app` (a display
  /// name, `nil` when the shield did not know it).
  case puzzle(app: String?, grant: Int, id: String)
  /// Open the configured `view` of `app`, such as its messages without the feed.
  case view(app: String, view: String, id: String)

  /// The identifier of the notification the action came from; activations
  /// with the same identifier are coalesced.
  public var identifier: String {
    switch self {
    case .puzzle(_, _, let id), .view(_, _, let id): id
    }
  }
}

// The standard routes are written against the slots by hand rather than with
// the parameter-pack initialiser that library users get: they are on the hot
// path, and the optimiser does not specialise pack-generic closures, which then
// look up generic metadata for every parameter of every link.
extension Route where Action == ShieldAction {
  /// `puzzle?app=…&grant=…&id=…`: `app` optional, `grant` and `id` with the
  /// configuration's defaults.
  public static func puzzle(_ configuration: LinkConfiguration = .standard) -> Route {
    let rules = [
      Parameter<String?>.text("app").rule, Parameter<Int>.grant(default: configuration.grant).rule,
      Parameter<String>.identifier(default: configuration.identifier).rule,
    ]
    let standard = StandardRoute.puzzle(configuration)
    return Route(
      name: "puzzle", rules: rules,
      action: { values throws(DeepLinkError) in try standard.checkedAction(values) },
      linkValues: {
        guard case .puzzle(let app, let grant, let id) = $0 else { return nil }
        return [app.map(ParameterValue.text), .integer(grant), .text(id)]
      },
      standard: standard)
  }

  /// `view?app=…&view=…&id=…`: `app` required, `view` and `id` with the
  /// configuration's defaults.
  public static func view(_ configuration: LinkConfiguration = .standard) -> Route {
    let rules = [
      Parameter<String>.text("app").rule, Parameter<String>.view(default: configuration.view).rule,
      Parameter<String>.identifier(default: configuration.identifier).rule,
    ]
    let standard = StandardRoute.view(configuration)
    return Route(
      name: "view", rules: rules,
      action: { values throws(DeepLinkError) in try standard.checkedAction(values) },
      linkValues: {
        guard case .view(let app, let view, let id) = $0 else { return nil }
        return [.text(app), .text(view), .text(id)]
      },
      standard: standard)
  }
}

extension Router where Action == ShieldAction {
  /// The standard table: `puzzle` and `view` under the configuration's scheme.
  public init(configuration: LinkConfiguration = .standard) {
    self.init(validScheme: configuration.scheme)
    insert(.puzzle(configuration))
    insert(.view(configuration))
  }

  // The two entry points again, for `ShieldAction` alone. A generic method called
  // from another module runs unspecialised, looking up generic metadata for
  // every value it touches (several times the cost of the parse itself); these
  // are compiled for the concrete type, so the CLI and the service get the fast path.

  /// The action of the link `link`; see ``Router/resolve(_:)``.
  public func resolve(_ link: String) throws(DeepLinkError) -> Resolution<ShieldAction> {
    var action = ShieldAction.puzzle(app: nil, grant: 0, id: "")
    if let route = compiled.resolvePlain(link, into: &action) {
      return Resolution(action: action, scheme: scheme, route: compiled.routeNames[route], ignored: [])
    }
    return try link.withUTF8Bytes { bytes throws(DeepLinkError) in try resolveLink(bytes) }
  }

  /// The action of the link in the UTF-8 bytes `link`; see ``Router/resolve(_:)``.
  public func resolve(utf8 link: UnsafeBufferPointer<UInt8>) throws(DeepLinkError) -> Resolution<ShieldAction> {
    var action = ShieldAction.puzzle(app: nil, grant: 0, id: "")
    if let route = compiled.resolvePlain(link, into: &action) {
      return Resolution(action: action, scheme: scheme, route: compiled.routeNames[route], ignored: [])
    }
    return try resolveLink(link)
  }
}
