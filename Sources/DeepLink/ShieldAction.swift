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

extension Route where Action == ShieldAction {
  /// `puzzle?app=…&grant=…&id=…`: `app` optional, `grant` and `id` with the
  /// configuration's defaults.
  public static func puzzle(_ configuration: LinkConfiguration = .standard) -> Route {
    Route(
      "puzzle", .text("app"), .grant(default: configuration.grant),
      .identifier(default: configuration.identifier),
      action: { .puzzle(app: $0, grant: $1, id: $2) },
      values: { if case .puzzle(let app, let grant, let id) = $0 { (app, grant, id) } else { nil } }
    )
  }

  /// `view?app=…&view=…&id=…`: `app` required, `view` and `id` with the
  /// configuration's defaults.
  public static func view(_ configuration: LinkConfiguration = .standard) -> Route {
    Route(
      "view", .text("app"), .view(default: configuration.view),
      .identifier(default: configuration.identifier),
      action: { .view(app: $0, view: $1, id: $2) },
      values: { if case .view(let app, let view, let id) = $0 { (app, view, id) } else { nil } })
  }
}

extension Router where Action == ShieldAction {
  /// The standard table: `puzzle` and `view` under the configuration's scheme.
  public init(configuration: LinkConfiguration = .standard) {
    scheme = configuration.scheme
    schemeBytes = Array(configuration.scheme.utf8)
    insert(.puzzle(configuration))
    insert(.view(configuration))
  }
}
