/// The rules in force, and which rule an app falls under.
///
/// An app belongs to the first rule that lists it. An app that no rule lists
/// is refused (``RuleLookupError/notCovered(app:)``): the rules are where the
/// limits live, and a shield for an app without one has no limit to extend.
/// The one exception is a configuration without any rules: then the built-in
/// rule ``Rule/builtIn`` (named `default`, 5 / 5 / 5) covers every app.
public struct RuleSet: Hashable, Sendable {
  /// The rules in the order they were configured; never empty.
  public let rules: [Rule]
  /// Whether these are the built-in defaults rather than configured rules.
  public let isBuiltIn: Bool

  /// The configured `rules`, or the built-in rule when there are none.
  public init(_ rules: [Rule]) {
    if rules.isEmpty {
      self.rules = [Rule.builtIn]
      isBuiltIn = true
    } else {
      self.rules = rules
      isBuiltIn = false
    }
  }

  /// The built-in rule alone.
  public static let builtIn = RuleSet([])

  /// The rule for `app`; with no app, the only rule.
  ///
  /// An empty app name counts as no app, as the deep link's `app=` does.
  ///
  /// - Throws: ``RuleLookupError/notCovered(app:)`` when no rule lists the app,
  ///   ``RuleLookupError/noApp(rules:)`` when no app was named and there is
  ///   more than one rule to choose from.
  public func rule(for app: String?) throws(RuleLookupError) -> Rule {
    guard let app, !app.isEmpty else {
      guard rules.count == 1 else { throw .noApp(rules: rules.map(\.name)) }
      return rules[0]
    }
    if isBuiltIn { return rules[0] }
    guard let rule = rules.first(where: { $0.covers(app) }) else { throw .notCovered(app: app) }
    return rule
  }
}

extension Rule {
  /// The rule in force when none is configured: it covers every app (its list
  /// of apps is empty) with the default limits.
  public static let builtIn = Rule(name: "default", apps: [])
}

/// Why no rule could be chosen for an app.
public enum RuleLookupError: Error, Hashable, Sendable, CustomStringConvertible {
  /// No configured rule lists the app.
  case notCovered(app: String)
  /// No app was named and several rules could be meant.
  case noApp(rules: [String])

  /// A stable code for scripts and logs.
  public var code: String {
    switch self {
    case .notCovered: "app-not-covered"
    case .noApp: "app-needed"
    }
  }

  public var description: String {
    switch self {
    case .notCovered(let app):
      "no rule covers the app '\(app)'; add it to the \"apps\" of a rule in config.json"
    case .noApp(let rules):
      "name the app: there are several rules (\(rules.joined(separator: ", "))) and no app was given"
    }
  }
}
