/// A ``ShieldAction`` whose texts are lent as their UTF-8 bytes for the time of one call.
///
/// What ``Router/withResolution(utf8:_:)`` hands its body: the same action
/// as ``Router/resolve(utf8:)-(UnsafeBufferPointer<UInt8>)`` returns, case for
/// case and value for value, but no string is made for any text. The bytes
/// are well-formed UTF-8 without control characters (the scanner checked
/// them) and point into the link's decoded values or the router's tables:
/// they are valid only while the body runs and must not be kept.
public enum LentShieldAction {
  /// See ``ShieldAction/puzzle(app:grant:id:)``.
  case puzzle(app: UnsafeBufferPointer<UInt8>?, grant: Int, id: UnsafeBufferPointer<UInt8>)
  /// See ``ShieldAction/view(app:view:id:)``.
  case view(app: UnsafeBufferPointer<UInt8>, view: UnsafeBufferPointer<UInt8>, id: UnsafeBufferPointer<UInt8>)

  /// The action with its texts copied into strings: what `resolve` returns.
  public var action: ShieldAction {
    switch self {
    case .puzzle(let app, let grant, let id):
      .puzzle(
        app: app.map { String(decoding: $0, as: UTF8.self) }, grant: grant, id: String(decoding: id, as: UTF8.self))
    case .view(let app, let view, let id):
      .view(
        app: String(decoding: app, as: UTF8.self), view: String(decoding: view, as: UTF8.self),
        id: String(decoding: id, as: UTF8.self))
    }
  }

  /// Calls `body` with `action`'s texts lent from its strings.
  ///
  /// For the routes a library user registered, whose closures make strings anyway.
  static func lending(_ action: ShieldAction, _ body: (LentShieldAction) -> Void) {
    switch action {
    case .puzzle(var app, let grant, var id):
      id.withUTF8 { id in
        if app == nil {
          body(.puzzle(app: nil, grant: grant, id: id))
        } else {
          app?.withUTF8 { body(.puzzle(app: $0, grant: grant, id: id)) }
        }
      }
    case .view(var app, var view, var id):
      app.withUTF8 { app in
        view.withUTF8 { view in
          id.withUTF8 { body(.view(app: app, view: view, id: $0)) }
        }
      }
    }
  }
}

/// What a link resolved to, with its texts lent as UTF-8 bytes for the time of one call.
///
/// The lent counterpart of ``Resolution``; see ``LentShieldAction`` for how
/// long the bytes stay valid.
public struct LentResolution {
  /// The typed action, its texts lent.
  public let action: LentShieldAction
  /// The router's scheme in lowercase.
  public let scheme: UnsafeBufferPointer<UInt8>
  /// The route's name in lowercase.
  public let route: UnsafeBufferPointer<UInt8>
  /// Keys the route does not know, in the order they appeared; they were ignored.
  public let ignored: [String]

  /// The resolution with its texts copied into strings: what `resolve` returns.
  public var resolution: Resolution<ShieldAction> {
    Resolution(
      action: action.action, scheme: String(decoding: scheme, as: UTF8.self),
      route: String(decoding: route, as: UTF8.self), ignored: ignored)
  }
}
