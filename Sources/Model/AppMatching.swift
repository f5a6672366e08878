extension AppPattern {
  /// Whether the app the desktop reports is this one.
  ///
  /// A plain name matches when it equals any name of the identity (``AppIdentity/names``:
  /// `WM_CLASS` instance and class, `app_id`, executable, `comm`, `argv[0]`,
  /// systemd scope id). An explicit pattern matches only where it says: its
  /// classes against the `WM_CLASS` instance and class, its app ids against
  /// the `app_id` and the scope id, its executables against the executable,
  /// `argv[0]` and `comm`. Every
  /// comparison ignores case, so that `"instagram"` in config.json is the
  /// `Instagram` the window manager reports. A `comm` is cut by the kernel to
  /// 15 bytes: a cut `comm` matches a longer name it starts.
  public func matches(_ identity: AppIdentity) -> Bool {
    if isPlainName {
      return AppPattern.anyEqual(
        [name],
        [
          identity.instance, identity.windowClass, identity.appID, identity.executable, identity.commandLineName,
          identity.scopeID,
        ]) || AppPattern.commandMatches([name], identity.command)
    }
    return AppPattern.anyEqual(classes, [identity.instance, identity.windowClass])
      || AppPattern.anyEqual(appIDs, [identity.appID, identity.scopeID])
      || AppPattern.anyEqual(executables, [identity.executable, identity.commandLineName])
      || AppPattern.commandMatches(executables, identity.command)
  }

  private static func anyEqual(_ wanted: [String], _ reported: [String?]) -> Bool {
    reported.contains { value in
      guard let value, !value.isEmpty else { return false }
      let lowered = value.lowercased()
      return wanted.contains { $0.lowercased() == lowered }
    }
  }

  /// The longest `comm` the kernel keeps (`TASK_COMM_LEN` less the terminating NUL).
  static let commandLength = 15

  private static func commandMatches(_ wanted: [String], _ command: String?) -> Bool {
    guard let command, !command.isEmpty else { return false }
    let lowered = command.lowercased()
    return wanted.contains { name in
      let name = name.lowercased()
      if name == lowered { return true }
      // `telegram-desktop` shows as `telegram-deskto`: a cut name matches what it starts.
      return command.utf8.count == commandLength && name.utf8.count > commandLength
        && name.utf8.starts(with: lowered.utf8)
    }
  }
}

/// The rule an app the desktop reports falls under, and which of the rule's apps it is.
public struct AppMatch: Hashable, Sendable {
  public var rule: Rule
  /// The rule's app that matched; its name is what notifications and `LimitReached` show.
  public var app: AppPattern

  public init(rule: Rule, app: AppPattern) {
    self.rule = rule
    self.app = app
  }
}

extension RuleSet {
  /// The first rule that lists the app, and the app pattern that matched; `nil` when none does.
  ///
  /// The built-in rule (no rules configured) covers every app for a shield
  /// asked by name, but names no app the desktop could report: with it alone
  /// nothing is metered, and this is always `nil`.
  ///
  /// A browser's app window (``AppIdentity/appWindowSite``) is its site first, as the
  /// site of a tab is: a rule whose sites cover it matches it, before any rule that
  /// names the browser; without one it is matched by its names as any window is.
  public func match(_ identity: AppIdentity) -> AppMatch? {
    guard !isBuiltIn else { return nil }
    if let site = identity.appWindowSite, let match = match(site: site) { return match }
    for rule in rules {
      if let app = rule.apps.first(where: { $0.matches(identity) }) {
        return AppMatch(rule: rule, app: app)
      }
    }
    return nil
  }
}

extension RuleSet {
  /// The first rule with an app whose sites cover `site`, and that app; `nil` when none does.
  ///
  /// The built-in rule names no sites, so with it alone this is always `nil`.
  public func match(site: Site) -> AppMatch? {
    guard !isBuiltIn else { return nil }
    for rule in rules {
      if let app = rule.apps.first(where: { $0.covers(site: site) }) { return AppMatch(rule: rule, app: app) }
    }
    return nil
  }
}
