/// The app views a link may open: for each app, named views and their targets.
///
/// Only what is listed here can be opened; a link naming any other view is
/// refused. App names match case-insensitively, view names exactly (they are
/// lowercase tokens such as `direct`).
public struct Views: Hashable, Sendable {
  /// One view of an app.
  public struct View: Hashable, Sendable {
    /// The token used in links: `[a-z0-9-]{1,32}`.
    public var name: String
    /// What opens it: a URL or a path, handed to the view handler as `{target}`.
    public var target: String

    public init(name: String, target: String) {
      self.name = name
      self.target = target
    }
  }

  /// The views of one app, in the configured order.
  public struct AppViews: Hashable, Sendable {
    public var app: String
    public var views: [View]

    public init(app: String, views: [View]) {
      self.app = app
      self.views = views
    }
  }

  /// Every app with views, in the configured order.
  public var apps: [AppViews]

  public init(_ apps: [AppViews] = []) {
    self.apps = apps
  }

  /// The views configured for `app`, matched case-insensitively; empty when there are none.
  public func views(for app: String) -> [View] {
    let wanted = app.lowercased()
    return apps.first { $0.app.lowercased() == wanted }?.views ?? []
  }

  /// The target of `view` for `app`, or `nil` when that view is not configured.
  public func target(app: String, view: String) -> String? {
    views(for: app).first { $0.name == view }?.target
  }
}
