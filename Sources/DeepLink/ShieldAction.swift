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

/// One of the standard routes, with the defaults it was made with.
///
/// A route's action is a closure stored in the route, generic over the action
/// type; calling it costs a retain and a release of its context and hands the
/// action back through memory. The resolver for ``ShieldAction`` makes the
/// action with this instead for the standard routes, the same code compiled in place.
struct StandardRoute: Sendable {
  enum Kind: Sendable {
    case puzzle
    case view
  }

  let kind: Kind
  /// The defaults: `grant` for a puzzle, `view` for a view, `identifier` for both.
  let grant: Int
  let view: String
  let identifier: String

  static func puzzle(_ configuration: LinkConfiguration) -> StandardRoute {
    StandardRoute(kind: .puzzle, grant: configuration.grant, view: "", identifier: configuration.identifier)
  }

  static func view(_ configuration: LinkConfiguration) -> StandardRoute {
    StandardRoute(kind: .view, grant: 0, view: configuration.view, identifier: configuration.identifier)
  }

  /// The action for the checked values of the route's parameters: `app`,
  /// then `grant` or `view`, then `id`; `nil` for a view without an app,
  /// which the route's rules do not let through.
  @inline(__always)
  func action(_ values: RouteValues) -> ShieldAction? {
    switch kind {
    case .puzzle:
      return .puzzle(app: values.text(0), grant: values.integer(1) ?? grant, id: values.text(2) ?? identifier)
    case .view:
      guard let app = values.text(0) else { return nil }
      return .view(app: app, view: values.text(1) ?? view, id: values.text(2) ?? identifier)
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
    return try withUTF8(of: link) { bytes throws(DeepLinkError) in try resolveLink(bytes) }
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

extension CompiledRoutes {
  /// Resolves `link` when it is a plain link (see ``FastResolver``) to one of
  /// the standard routes: puts its action in `action` and returns the index
  /// of its route; `nil` for any other link.
  ///
  /// The closures capture plain values and the address of `action` only, and
  /// nothing generic or optional is handed out of them: either would cost a
  /// retain or a copy through the type's value witnesses.
  func resolvePlain(_ link: String, into action: inout ShieldAction) -> Int? {
    let tables = self.tables
    let slotCount = self.slotCount
    let standard = UnsafePointer(standardRoutes)
    var route = -1
    _ = link.utf8.withContiguousStorageIfAvailable {
      route = CompiledRoutes.resolvePlain($0, tables, slotCount, standard, into: &action)
    }
    return route >= 0 ? route : nil
  }

  /// ``resolvePlain(_:into:)`` for the UTF-8 bytes of a link.
  func resolvePlain(_ link: UnsafeBufferPointer<UInt8>, into action: inout ShieldAction) -> Int? {
    let route = CompiledRoutes.resolvePlain(link, tables, slotCount, UnsafePointer(standardRoutes), into: &action)
    return route >= 0 ? route : nil
  }

  /// The index of the route, or -1.
  private static func resolvePlain(
    _ link: UnsafeBufferPointer<UInt8>, _ tables: Tables, _ slotCount: Int,
    _ standard: UnsafePointer<StandardRoute?>, into action: inout ShieldAction
  ) -> Int {
    RouteValues.withScratch(length: link.count, slotCount: slotCount) { decoded, slots in
      guard let decodedBase = decoded.baseAddress, let slotsBase = slots.baseAddress,
        let route = FastResolver.resolve(link, in: tables, decodingInto: decodedBase, slots: slotsBase)
      else { return -1 }
      let values = RouteValues(
        slots: UnsafeBufferPointer(start: slotsBase, count: tables.routes[route].ruleCount), decoded: decodedBase,
        smallStrings: tables.smallStrings)
      // The fast path has checked that every required value is there, so this does not throw.
      guard let made = standard[route]?.action(values) else { return -1 }
      action = made
      return route
    }
  }
}
