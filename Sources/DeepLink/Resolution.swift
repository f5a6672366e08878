/// What a link resolved to: the action, and what the router saw on the way.
public struct Resolution<Action: Sendable>: Sendable {
  /// The typed action.
  public var action: Action
  /// The router's scheme in lowercase.
  public var scheme: String
  /// The route's name in lowercase.
  public var route: String
  /// Keys the route does not know, in the order they appeared; they were ignored.
  public var ignored: [String]

  public init(action: Action, scheme: String, route: String, ignored: [String]) {
    self.action = action
    self.scheme = scheme
    self.route = route
    self.ignored = ignored
  }
}

extension Resolution: Equatable where Action: Equatable {}
extension Resolution: Hashable where Action: Hashable {}
