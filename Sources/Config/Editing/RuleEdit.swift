public import Model

/// One change to the rules of `config.json`, as `shieldbridge rules` and `setup` make it.
///
/// An edit names the rule by its name (compared without regard to case, as
/// the configuration reader compares them) and says what to change; it never
/// touches a key it does not name. ``ConfigurationEditor`` applies it to the
/// file's JSON and checks the result with the reader the service uses.
public enum RuleEdit: Hashable, Sendable {
  /// A new rule with these apps, sites and settings (settings left `nil` keep the rule's defaults).
  case add(name: String, apps: [RuleApp], sites: [String], settings: RuleSettings)
  /// New settings for a rule; `apps` or `sites`, when given, replace the rule's apps (see ``ConfigurationEditor``).
  case set(name: String, apps: [RuleApp]?, sites: [String]?, settings: RuleSettings)
  /// The rule goes.
  case remove(name: String)
  /// These apps join the rule.
  case addApps(rule: String, apps: [RuleApp])
  /// These apps leave the rule (by their names).
  case removeApps(rule: String, apps: [String])
  /// These sites join the rule, each as an app of its own named after the site.
  case addSites(rule: String, sites: [String])
  /// These sites leave the rule, from whichever of its apps lists them.
  case removeSites(rule: String, sites: [String])
}

/// An app as an edit adds it: a plain name, or the names the desktop knows it by.
public struct RuleApp: Hashable, Sendable {
  public var name: String
  public var classes: [String]
  public var appIDs: [String]
  public var executables: [String]
  public var sites: [String]

  public init(
    name: String, classes: [String] = [], appIDs: [String] = [], executables: [String] = [], sites: [String] = []
  ) {
    self.name = name
    self.classes = classes
    self.appIDs = appIDs
    self.executables = executables
    self.sites = sites
  }
}

/// The settings of a rule an edit writes; `nil` leaves a setting as it is.
///
/// The numeric limits are kept by ``Rule/Limit``, so that a limit added to
/// `Rule` later is written by the editor without a change here.
public struct RuleSettings: Hashable, Sendable {
  /// The limits given, by limit.
  public var limits: [Rule.Limit: Int]
  public var onLimit: LimitAction?

  public init(
    dailyLimitMinutes: Int? = nil, grantMinutes: Int? = nil, maxGrantsPerDay: Int? = nil, warnMinutes: Int? = nil,
    onLimit: LimitAction? = nil
  ) {
    limits = [:]
    limits[.dailyLimitMinutes] = dailyLimitMinutes
    limits[.grantMinutes] = grantMinutes
    limits[.maxGrantsPerDay] = maxGrantsPerDay
    limits[.warnMinutes] = warnMinutes
    self.onLimit = onLimit
  }

  public var dailyLimitMinutes: Int? { limits[.dailyLimitMinutes] }
  public var grantMinutes: Int? { limits[.grantMinutes] }
  public var maxGrantsPerDay: Int? { limits[.maxGrantsPerDay] }
  public var warnMinutes: Int? { limits[.warnMinutes] }

  /// Whether no setting is given.
  public var isEmpty: Bool { limits.isEmpty && onLimit == nil }

  /// The value of a numeric limit, by the limit.
  public subscript(limit: Rule.Limit) -> Int? { limits[limit] }
}

/// Why an edit of the rules was refused; the file was left as it was.
public enum RuleEditError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The file, or the file as the edit would leave it, is refused by the configuration reader.
  case invalid(ConfigurationError)
  /// No rule has this name.
  case noSuchRule(String)
  /// The rule lists no app of this name.
  case noSuchApp(rule: String, app: String)
  /// No app of the rule lists this site.
  case noSuchSite(rule: String, site: String)
  /// The edit names nothing to change.
  case nothingToChange(String)
  /// The file holds a string the editor uses to keep number texts, so it cannot be rewritten safely.
  case unkeepable(String)
  /// The lock, the folder or the write failed.
  case cannotWrite(String)
  /// Another edit held the lock for the whole wait; trying again later may work.
  case busy(String)

  public var description: String {
    switch self {
    case .invalid(let error): error.description
    case .noSuchRule(let name): "no rule is named \"\(name)\"; 'shieldbridge rules list' shows them"
    case .noSuchApp(let rule, let app): "the rule \"\(rule)\" lists no app \"\(app)\""
    case .noSuchSite(let rule, let site): "no app of the rule \"\(rule)\" lists the site \"\(site)\""
    case .nothingToChange(let problem): problem
    case .unkeepable(let file):
      "\(file): holds a string that cannot be kept when the file is rewritten; edit it by hand"
    case .cannotWrite(let problem), .busy(let problem): problem
    }
  }
}
