/// One of the standard routes, with the defaults it was made with.
///
/// A route's action is a closure stored in the route, generic over the action
/// type; calling it costs a retain and a release of its context and hands the
/// action back through memory. The standard routes' closures call
/// ``checkedAction(_:)``; for a plain link the resolver for ``ShieldAction``
/// calls ``action(_:)`` itself, compiled in place, so both make the same action.
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
