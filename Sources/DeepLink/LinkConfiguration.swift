/// The scheme and the defaults of the standard routes, checked once.
///
/// The service reads these from its configuration file; the CLI from its
/// options. A value that passes the initialiser is one the builder and the
/// parser accept.
public struct LinkConfiguration: Hashable, Sendable {
  /// The minutes one puzzle may grant.
  public static let grantRange = 1...120

  /// `shieldbridge`, 5 minutes, `shield-open`, `home`.
  public static let standard = LinkConfiguration(
    unchecked: "shieldbridge", grant: 5, identifier: "shield-open", view: "home")

  /// The scheme in lowercase.
  public let scheme: String
  /// The minutes a puzzle link grants when it has no `grant`.
  public let grant: Int
  /// The identifier when a link has no `id`; notifications with it replace each other.
  public let identifier: String
  /// The app view when a view link has no `view`.
  public let view: String

  /// A configuration; every value is checked.
  ///
  /// - Throws: `bad-scheme` for a scheme outside ``SchemeRule``; `invalid-value` for a
  ///   grant outside ``grantRange``, an identifier that is not
  ///   ``TokenRule/identifier`` or a view that is not ``TokenRule/viewName``
  ///   (the offset is in the offending value).
  public init(
    scheme: String = "shieldbridge", grant: Int = 5, identifier: String = "shield-open",
    view: String = "home"
  ) throws(DeepLinkError) {
    let scheme = try SchemeRule.normalized(scheme)
    try Parameter<Int>.grant(default: grant).rule.check(.integer(grant))
    try Parameter<String>.identifier(default: identifier).rule.check(.text(identifier))
    try Parameter<String>.view(default: view).rule.check(.text(view))
    self.init(unchecked: scheme, grant: grant, identifier: identifier, view: view)
  }

  private init(unchecked scheme: String, grant: Int, identifier: String, view: String) {
    self.scheme = scheme
    self.grant = grant
    self.identifier = identifier
    self.view = view
  }
}

extension Parameter where Value == Int {
  /// `grant`: the minutes a solved puzzle unlocks, in ``LinkConfiguration/grantRange``.
  public static func grant(default: Int) -> Parameter {
    .integer("grant", in: LinkConfiguration.grantRange, default: `default`)
  }
}

extension Parameter where Value == String {
  /// `id`: the identifier of the notification, ``TokenRule/identifier``.
  public static func identifier(default: String) -> Parameter {
    .token("id", .identifier, default: `default`)
  }

  /// `view`: the app view to open, ``TokenRule/viewName``.
  public static func view(default: String) -> Parameter {
    .token("view", .viewName, default: `default`)
  }
}
