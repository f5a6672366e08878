/// A table from routes to typed actions, under one scheme.
///
/// `resolve` parses a link strictly and returns the action of its route;
/// `link(for:)` builds the link of an action, so that
/// `resolve(link(for: action).description).action == action`.
///
/// ```swift
/// let router = Router(configuration: .standard)
/// let action = try router.resolve("shieldbridge://puzzle?app=Instagram").action
/// // .puzzle(app: "Instagram", grant: 5, id: "shield-open")
/// ```
public struct Router<Action: Sendable>: Sendable {
  /// The most parameters one route may have.
  public static var maximumParameterCount: Int { 64 }

  /// The scheme in lowercase; links are compared with it without case.
  public let scheme: String
  /// The routes in the order they were registered.
  private(set) var routes: [Route<Action>] = []
  /// The same table for the resolver, rebuilt when a route is added.
  private(set) var compiled: CompiledRoutes

  /// An empty table for links with `scheme`.
  ///
  /// - Throws: `bad-scheme` when `scheme` does not follow ``SchemeRule``.
  public init(scheme: String) throws(DeepLinkError) {
    self.init(validScheme: try SchemeRule.normalized(scheme))
  }

  /// An empty table for a scheme already checked and in lowercase.
  init(validScheme scheme: String) {
    self.scheme = scheme
    compiled = CompiledRoutes(scheme: scheme, routes: [], standard: [])
  }

  /// The names of the routes, in the order they were registered.
  public var routeNames: [String] { routes.map(\.name) }

  /// Adds `route` to the table, replacing a route of the same name.
  ///
  /// - Throws: `unknown-route` for a name that is not letters, digits and
  ///   `-` starting with a letter; `malformed-parameter` for a key that is not
  ///   `[a-z][a-z0-9-]*`; `duplicate-parameter` for a key used twice;
  ///   `invalid-value` for a default its rule rejects, an integer range below
  ///   0 or past 18 digits, or more than ``maximumParameterCount`` parameters.
  public mutating func register(_ route: Route<Action>) throws(DeepLinkError) {
    try route.nameBytes.withUnsafeBufferPointer { name throws(DeepLinkError) in
      if let problem = LinkScanner.routeSyntaxProblem(name) {
        throw DeepLinkError(.unknownRoute, at: 0, problem)
      }
    }
    guard route.rules.count <= Router.maximumParameterCount else {
      throw DeepLinkError(
        .invalidValue, at: 0,
        "the route '\(route.name)' has \(route.rules.count) parameters; at most \(Router.maximumParameterCount) are allowed"
      )
    }
    var link = try DeepLink(scheme: scheme, route: route.name)
    for rule in route.rules {
      // A trial link checks the key's syntax and that it is not used twice.
      try link.append(rule.key, "")
      if case .integer(let range) = rule.kind,
        range.lowerBound < 0 || range.upperBound > ParameterRule.largestInteger
      {
        throw DeepLinkError(
          .invalidValue, at: 0, "\(rule.key): links carry whole numbers from 0 to 18 digits")
      }
      if case .defaulted(let value) = rule.requirement {
        try rule.check(value)
      }
    }
    insert(route)
  }

  /// Adds or replaces `route` without checking it.
  mutating func insert(_ route: Route<Action>) {
    if let index = routes.firstIndex(where: { $0.name == route.name }) {
      routes[index] = route
    } else {
      routes.append(route)
    }
    compiled = CompiledRoutes(
      scheme: scheme, routes: routes.map { ($0.name, $0.rules) }, standard: routes.map(\.standard))
  }

  /// The action of the link `link`.
  ///
  /// - Throws: a ``DeepLinkError`` for the first problem from the left: any
  ///   error of ``DeepLink/init(parsing:)``, `bad-scheme` for another scheme,
  ///   `unknown-route`, `invalid-value`, `duplicate-parameter`, and
  ///   `missing-parameter` (at the end of the link) once the link was read.
  public func resolve(_ link: String) throws(DeepLinkError) -> Resolution<Action> {
    try resolve(utf8: link.utf8.span)
  }

  /// The action of the link in the UTF-8 bytes `link`; see ``resolve(_:)``.
  public func resolve(utf8 link: [UInt8]) throws(DeepLinkError) -> Resolution<Action> {
    try link.withUnsafeBufferPointer { bytes throws(DeepLinkError) in try resolveLink(bytes) }
  }

  /// The action of the link in the UTF-8 bytes `link`, read in place; see ``resolve(_:)``.
  public func resolve(utf8 link: Span<UInt8>) throws(DeepLinkError) -> Resolution<Action> {
    try link.withUnsafeBufferPointer { bytes throws(DeepLinkError) in try resolveLink(bytes) }
  }

  /// The action of the link in the UTF-8 bytes `link`, read in place; see ``resolve(_:)``.
  public func resolve(utf8 link: UnsafeBufferPointer<UInt8>) throws(DeepLinkError) -> Resolution<Action> {
    try resolveLink(link)
  }

  /// Resolves the UTF-8 bytes `link` with the one ``LinkScanner``: first on
  /// the fast path, whose resolver only collects values and stops at
  /// anything else, then, when it stopped, on the strict path from the
  /// start, which names the first problem or keeps the unknown keys.
  ///
  /// - Parameters:
  ///   - fastPath: `false` leaves out the fast path, so that the tests can
  ///     hold the two to the same answers.
  ///   - makeAction: The action of the route at an index for its values.
  @inline(__always)
  func resolveLink(
    _ link: UnsafeBufferPointer<UInt8>, fastPath: Bool = true,
    making makeAction: (Int, RouteValues) throws(DeepLinkError) -> Action
  ) throws(DeepLinkError) -> Resolution<Action> {
    var route = -1
    var ignored: [String] = []
    var action: Action?
    try scanLink(link, fastPath: fastPath) { index, values, keys throws(DeepLinkError) in
      action = try makeAction(index, values)
      route = index
      ignored = keys
    }
    guard let action = consume action else {
      throw DeepLinkError(.unknownRoute, at: 0, "the link has no route")
    }
    return Resolution(action: action, scheme: scheme, route: compiled.routeNames[route], ignored: ignored)
  }

  /// Scans `link` as ``resolveLink(_:fastPath:making:)`` describes and calls
  /// `body` with the index of its route, its checked values (which live in
  /// scratch space on the stack until `body` returns) and the keys ignored.
  @inline(__always)
  func scanLink(
    _ link: UnsafeBufferPointer<UInt8>, fastPath: Bool = true,
    _ body: (Int, RouteValues, [String]) throws(DeepLinkError) -> Void
  ) throws(DeepLinkError) {
    // The closures see plain values and locals only: capturing `self`
    // would retain each of its fields for every link.
    let compiled = self.compiled
    try RouteValues.withScratch(length: link.count, slotCount: compiled.slotCount) {
      decoded, slots throws(DeepLinkError) in
      guard let decodedBase = decoded.baseAddress else {
        throw DeepLinkError(.tooLong, at: 0, "no memory for the link's values")
      }
      var route = -1
      var ignored: [String] = []
      if fastPath {
        var resolver = Resolver<StoppingAtProblems>(table: compiled, slots: slots)
        do throws(StoppingAtProblems.Stopped) {
          try LinkScanner.scan(link, decodingInto: decodedBase, into: &resolver)
          route = resolver.route
        } catch {
          slots.update(repeating: Slot())
        }
      }
      if route < 0 {
        var resolver = Resolver<ReportingProblems>(table: compiled, slots: slots)
        try LinkScanner.scan(link, decodingInto: decodedBase, into: &resolver)
        route = resolver.route
        ignored = resolver.ignored
      }
      guard route >= 0 && route < compiled.routeNames.count else {
        throw DeepLinkError(.unknownRoute, at: 0, "the link has no route")
      }
      try body(route, compiled.values(of: route, slots: slots, decoded: decodedBase), ignored)
    }
  }

  /// ``resolveLink(_:fastPath:making:)`` with the actions of the routes' closures.
  func resolveLink(_ link: UnsafeBufferPointer<UInt8>, fastPath: Bool = true) throws(DeepLinkError)
    -> Resolution<Action>
  {
    try resolveLink(link, fastPath: fastPath) { route, values throws(DeepLinkError) in
      try action(of: route, values)
    }
  }

  /// The action of the route at `route` for its values, through the route's closure.
  ///
  /// Out of line, so that the resolver for ``ShieldAction``, whose standard
  /// routes make their actions in place, does not carry the call.
  @inline(never)
  func action(of route: Int, _ values: RouteValues) throws(DeepLinkError) -> Action {
    try routes[route].action(values)
  }

  /// The link of `action`, with every parameter written out; an empty text is left out.
  ///
  /// - Throws: `unknown-route` when no route gives values for the action,
  ///   `missing-parameter` for a required parameter without a value (offset
  ///   0), `invalid-value` or `control-character` for a value its rule
  ///   rejects (offset in the value), `too-long` for a link past
  ///   ``DeepLink/maximumLength``.
  public func link(for action: Action) throws(DeepLinkError) -> DeepLink {
    for route in routes {
      guard let values = route.linkValues(action) else { continue }
      var link = try DeepLink(scheme: scheme, route: route.name)
      for (rule, value) in zip(route.rules, values) {
        guard let value, value != .text("") else {
          if case .required = rule.requirement {
            throw DeepLinkError(.missingParameter, at: 0, "\(rule.key) needs a value")
          }
          continue
        }
        try rule.check(value)
        switch value {
        case .text(let text): try link.append(rule.key, text)
        case .integer(let number): try link.append(rule.key, String(number))
        }
      }
      return link
    }
    throw DeepLinkError(.unknownRoute, at: 0, "no route of the router builds this action")
  }
}
