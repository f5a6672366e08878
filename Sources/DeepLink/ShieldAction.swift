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

// The standard routes read their values through the places their declaration
// gave (see `StandardRoute`) rather than with the parameter-pack initialiser
// that library users get: they are on the hot path, and the optimiser does not
// specialise pack-generic closures, which then look up generic metadata for
// every parameter of every link.
extension Route where Action == ShieldAction {
  /// `puzzle?app=…&grant=…&id=…`: `app` optional, `grant` and `id` with the
  /// configuration's defaults.
  public static func puzzle(_ configuration: LinkConfiguration = .standard) -> Route {
    let (standard, rules) = StandardRoute.declarePuzzle(configuration)
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
    let (standard, rules) = StandardRoute.declareView(configuration)
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

  // The entry points again, for `ShieldAction` alone. A generic method called
  // from another module runs unspecialised, looking up generic metadata for
  // every value it touches (several times the cost of the parse itself); these
  // are compiled for the concrete type, so the CLI and the service get the
  // scanner specialised, and the standard routes make their actions in place.

  /// The action of the link `link`; see ``Router/resolve(_:)``.
  public func resolve(_ link: String) throws(DeepLinkError) -> Resolution<ShieldAction> {
    try resolve(utf8: link.utf8.span)
  }

  /// The action of the link in the UTF-8 bytes `link`; see ``Router/resolve(_:)``.
  public func resolve(utf8 link: [UInt8]) throws(DeepLinkError) -> Resolution<ShieldAction> {
    try link.withUnsafeBufferPointer { bytes throws(DeepLinkError) in try resolve(utf8: bytes) }
  }

  /// The action of the link in the UTF-8 bytes `link`, read in place; see ``Router/resolve(_:)``.
  public func resolve(utf8 link: Span<UInt8>) throws(DeepLinkError) -> Resolution<ShieldAction> {
    try link.withUnsafeBufferPointer { bytes throws(DeepLinkError) in try resolve(utf8: bytes) }
  }

  /// The action of the link in the UTF-8 bytes `link`, read in place; see ``Router/resolve(_:)``.
  public func resolve(utf8 link: UnsafeBufferPointer<UInt8>) throws(DeepLinkError) -> Resolution<ShieldAction> {
    let standard = UnsafePointer(compiled.standardRoutes)
    return try resolveLink(link) { route, values throws(DeepLinkError) in
      // A standard route makes its action here, in place; any other route
      // (or a view without its app, which then throws) through its closure.
      if let action = standard[route]?.action(values) { return action }
      return try self.action(of: route, values)
    }
  }

  /// Resolves the link in the UTF-8 bytes `link`, read in place, as
  /// ``resolve(utf8:)-(UnsafeBufferPointer<UInt8>)`` does, and lends the
  /// resolution to `body` with its texts as bytes.
  ///
  /// For a caller that only copies the values somewhere, as `link parse
  /// --json` copies them into its output: no string is made, copied and
  /// freed for any value, so nothing is allocated for a link. The bytes are
  /// valid only while `body` runs (see ``LentShieldAction``).
  ///
  /// - Throws: what `resolve` throws for the same link; `body` is then not called.
  public func withResolution(utf8 link: UnsafeBufferPointer<UInt8>, _ body: (LentResolution) -> Void)
    throws(DeepLinkError)
  {
    let standard = UnsafePointer(compiled.standardRoutes)
    let tables = compiled.tables
    // The closure sees plain values only (capturing `self` would retain
    // its fields for every link), so a route that is not a standard one
    // is resolved again below, through its closure.
    var standardRoute = true
    try scanLink(link) { route, values, ignored throws(DeepLinkError) in
      guard let action = standard[route]?.lentAction(values) else {
        standardRoute = false
        return
      }
      let entry = tables.routes[route]
      body(
        LentResolution(
          action: action, scheme: UnsafeBufferPointer(start: tables.bytes, count: tables.schemeCount),
          route: UnsafeBufferPointer(start: tables.bytes + entry.nameStart, count: entry.nameCount), ignored: ignored))
    }
    guard !standardRoute else { return }
    // Another route (or a view without its app, which then throws): its
    // closure makes the action, and the strings it holds are lent.
    let resolution = try resolve(utf8: link)
    var scheme = resolution.scheme
    var route = resolution.route
    scheme.withUTF8 { scheme in
      route.withUTF8 { route in
        LentShieldAction.lending(resolution.action) { action in
          body(LentResolution(action: action, scheme: scheme, route: route, ignored: resolution.ignored))
        }
      }
    }
  }
}
