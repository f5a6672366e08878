import Config
import Localization
import Model
import Posix
import ShieldBridge
import Store

extension Command {
  /// `shieldbridge rules …`: the rules of `config.json`, listed and changed without writing JSON.
  static let rules = Command(
    name: "rules",
    abstract: "List the rules and change them without editing config.json by hand.",
    discussion: """
      Each change is checked as the service checks config.json, written under
      a lock by atomic replace, and keeps every other key, unknown ones
      included. A change the service would refuse is refused with its message
      and exit status 78, and the file stays byte for byte as it was. A running
      service reloads the file at once; what loosens a rule takes effect at
      the next day's start. Durations are written 90s, 5m or 1h30m
      (a number alone is minutes); config.json holds whole minutes, so 90s is
      refused. See docs/using/rules.md.

      Exit status: 0; 64 for a usage error; 65 when the rule, app or site named
      is not there; 74 when the file cannot be written; 75 when another edit
      held the lock for 10 s; 78 when the configuration is refused.
      """,
    subcommands: [
      .rulesList, .rulesAdd, .rulesSet, .rulesRemove, .rulesAddApp, .rulesRemoveApp, .rulesAddSite,
      .rulesRemoveSite, .rulesPick,
    ]
  )

  static let rulesList = Command(
    name: "list", abstract: "Show each rule, its apps and sites, and its settings.",
    body: { _ in
      let path = try configurationPath()
      let loaded: LoadedConfiguration
      do throws(ConfigurationError) {
        loaded = try Configuration.load(from: path)
      } catch {
        throw CommandFailure(error)
      }
      for warning in loaded.warnings { Output.warn(warning) }
      RulesText.say(loaded.configuration.rules)
      return .success
    })

  static let rulesAdd = Command(
    name: "add", abstract: "Add a rule with its apps, sites and settings.", arguments: "NAME",
    argumentCount: 1...1, options: RuleSettingOptions.self,
    discussion: """
      For example: shieldbridge rules add social --app Instagram --site reddit.com --limit 20m
      A setting not given keeps the default (5m a day, 5m per task, 5 tasks a
      day, warned 1m before, hide at the limit). A rule covers at least one
      app or site; for an app whose names you do not know, 'shieldbridge
      rules pick NAME' starts the rule with the window you bring to the front.
      """,
    body: { invocation in
      let name = invocation.positionals[0]
      guard !invocation[\.app].isEmpty || !invocation[\.site].isEmpty else {
        throw CommandFailure.usage(.needAppOrSite(rule: name))
      }
      return try runEdit(
        .add(
          name: name, apps: invocation[\.app].map { RuleApp(name: $0) }, sites: invocation[\.site],
          settings: try settings(invocation)),
        done: { CommandMessage(.ruleAdded, ["path": $0, "rule": name]) }, rule: name)
    })

  static let rulesSet = Command(
    name: "set", abstract: "Change a rule's settings; --app and --site replace its apps.", arguments: "NAME",
    argumentCount: 1...1, options: RuleSettingOptions.self,
    body: { invocation in
      let name = invocation.positionals[0]
      let apps = invocation[\.app]
      let sites = invocation[\.site]
      let replacing = !apps.isEmpty || !sites.isEmpty
      return try runEdit(
        .set(
          name: name, apps: replacing ? apps.map { RuleApp(name: $0) } : nil, sites: replacing ? sites : nil,
          settings: try settings(invocation)),
        done: { CommandMessage(.ruleChanged, ["path": $0, "rule": name]) }, rule: name)
    })

  static let rulesRemove = Command(
    name: "remove", abstract: "Remove a rule.", arguments: "NAME", argumentCount: 1...1,
    body: { invocation in
      let name = invocation.positionals[0]
      return try runEdit(
        .remove(name: name), done: { CommandMessage(.ruleRemoved, ["path": $0, "rule": name]) }, rule: nil)
    })

  static let rulesAddApp = Command(
    name: "add-app", abstract: "Add apps to a rule.", arguments: "NAME", argumentCount: 1...1,
    options: AppOptions.self,
    discussion: """
      An app of the same name as one the rule has already joins that entry:
      the names it brings that the entry lacks (a name alone stands for the
      class, app id and executable of that name) are added to it.
      """,
    body: { invocation in
      let name = invocation.positionals[0]
      let apps = try required(invocation[\.app], "--app")
      return try runEdit(.addApps(rule: name, apps: apps.map { RuleApp(name: $0) }), done: nil, rule: name)
    })

  static let rulesRemoveApp = Command(
    name: "remove-app", abstract: "Remove apps from a rule.", arguments: "NAME", argumentCount: 1...1,
    options: AppOptions.self,
    body: { invocation in
      let name = invocation.positionals[0]
      let apps = try required(invocation[\.app], "--app")
      return try runEdit(
        .removeApps(rule: name, apps: apps),
        done: { CommandMessage(.appsRemoved, ["path": $0, "apps": Output.list(apps), "rule": name]) },
        rule: name)
    })

  static let rulesAddSite = Command(
    name: "add-site", abstract: "Add websites to a rule.", arguments: "NAME", argumentCount: 1...1,
    options: SiteOptions.self,
    discussion: "A site is a host name such as reddit.com; it covers its subdomains too.",
    body: { invocation in
      let name = invocation.positionals[0]
      let sites = try required(invocation[\.site], "--site")
      return try runEdit(
        .addSites(rule: name, sites: sites),
        done: { CommandMessage(.sitesAdded, ["path": $0, "sites": Output.list(sites), "rule": name]) },
        rule: name)
    })

  static let rulesRemoveSite = Command(
    name: "remove-site", abstract: "Remove websites from a rule.", arguments: "NAME", argumentCount: 1...1,
    options: SiteOptions.self,
    body: { invocation in
      let name = invocation.positionals[0]
      let sites = try required(invocation[\.site], "--site")
      return try runEdit(
        .removeSites(rule: name, sites: sites),
        done: { CommandMessage(.sitesRemoved, ["path": $0, "sites": Output.list(sites), "rule": name]) },
        rule: name)
    })
}

/// The options of `rules add` and `rules set`.
struct RuleSettingOptions: OptionGroup {
  let app: RepeatedOption
  let site: RepeatedOption
  let limit: Option<String>
  let grant: Option<String>
  let max: Option<Int>
  let warn: Option<String>
  let onLimit: Option<LimitAction>

  init(declaring options: inout OptionDeclarations) {
    app = options.repeated("--app", "APP", "An app the rule covers, by name, class, app id or executable; repeats.")
    site = options.repeated("--site", "SITE", "A website the rule covers, such as reddit.com; repeats.")
    limit = options.value(
      "--limit", "DURATION", "The time a day the rule's apps and sites may be used, all together, such as 20m.")
    grant = options.value("--grant", "DURATION", "The time a solved task adds, such as 5m.")
    max = options.integer(
      "--max", "N", in: Rule.maxGrantsPerDayRange, digitsOnly: true, "The tasks that may be solved a day.")
    warn = options.value("--warn", "DURATION", "How long before the limit a warning comes; 0m for none.")
    onLimit = options.choice(
      "--on-limit", "ACTION", LimitAction.allCases.map { ($0.rawValue, $0) },
      "What happens to the apps at the limit: hide, close or notify.")
  }
}

/// The options of `rules add-app` and `remove-app`.
private struct AppOptions: OptionGroup {
  let app: RepeatedOption

  init(declaring options: inout OptionDeclarations) {
    app = options.repeated("--app", "APP", "An app, by name; repeats.")
  }
}

/// The options of `rules add-site` and `remove-site`.
private struct SiteOptions: OptionGroup {
  let site: RepeatedOption

  init(declaring options: inout OptionDeclarations) {
    site = options.repeated("--site", "SITE", "A website, such as reddit.com; repeats.")
  }
}

private func required(_ values: [String], _ option: String) throws(CommandFailure) -> [String] {
  guard !values.isEmpty else { throw .usage(.giveAtLeastOne(option)) }
  return values
}

/// The settings given to `rules add` or `set`, durations read as whole minutes.
func settings(_ invocation: Invocation<RuleSettingOptions>) throws(CommandFailure) -> RuleSettings {
  func minutes(_ key: KeyPath<RuleSettingOptions, Option<String>>) throws(CommandFailure) -> Int? {
    guard let text = invocation[key] else { return nil }
    do {
      return try DurationText.minutes(text)
    } catch {
      throw .usage(
        .optionProblem(option: invocation.options[keyPath: key].name, problem: ConfigurationText.problem(error)))
    }
  }
  return RuleSettings(
    dailyLimitMinutes: try minutes(\.limit), grantMinutes: try minutes(\.grant), maxGrantsPerDay: try invocation[\.max],
    warnMinutes: try minutes(\.warn), onLimit: try invocation[\.onLimit])
}

/// Where `rules` and `setup` read and write `config.json` when it is not the standard place.
enum ConfigurationPlace {
  /// Set by in-process tests, so that a command line runs on a file of their own without touching the environment.
  @TaskLocal static var path: String?
}

/// The path of `config.json`, or a failure saying why there is none.
func configurationPath() throws(CommandFailure) -> String {
  if let path = ConfigurationPlace.path { return path }
  guard let path = Configuration.standardPath(environment: Environment.all) else {
    throw CommandFailure(.noConfigDirectory, exitCode: .configError)
  }
  return path
}

extension CommandFailure {
  /// 78 for a refused configuration, 65 for a rule, app or site that is not there, 74 for a failed write.
  init(_ error: RuleEditError) {
    // The write's and the lock's problems are the editor's own words (Config), not yet in the catalogs.
    switch error {
    case .invalid(let refused): self.init(refused)
    // not in the catalogs: the file system's problem, in Config's words.
    case .cannotWrite: self.init(error.description, exitCode: .ioError)
    // not in the catalogs: runEdit says a held lock itself; this is for other callers.
    case .busy: self.init(error.description, exitCode: .tryAgain)
    case .noSuchRule(let rule): self.init(.noSuchRule(rule), exitCode: .dataError)
    case .noSuchApp(let rule, let app): self.init(.noSuchApp(rule: rule, app: app), exitCode: .dataError)
    case .noSuchSite(let rule, let site): self.init(.noSuchSite(rule: rule, site: site), exitCode: .dataError)
    case .unkeepable(let file): self.init(.unkeepable(file: file), exitCode: .dataError)
    // not in the catalogs: the editor's words (an edit that names nothing to change).
    case .nothingToChange: self.init(error.description, exitCode: .usage)
    }
  }
}

/// Applies `edit` to the user's `config.json` and says what it did, then the rule as it now is.
///
/// - Parameter done: What to say, given the file's path; `nil` for an `addApps`, which says what each app came to.
func runEdit(
  _ edit: RuleEdit, done: ((_ path: String) -> CommandMessage)?, rule: String?
) throws(CommandFailure) -> ExitCode {
  let path = try configurationPath()
  let edited: EditedConfiguration
  do {
    edited = try Configuration.edit(at: path, edit)
  } catch .busy {
    // The editor's lock beside config.json, as Configuration.edit takes it.
    let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
    let seconds = Int(Configuration.editLockTimeout.components.seconds)
    throw CommandFailure(.configLocked(lock: folder + "/config.lock", seconds: seconds), exitCode: .tryAgain)
  } catch {
    throw CommandFailure(error)
  }
  let loaded = edited.loaded
  for warning in loaded.warnings { Output.warn(warning) }
  if let done { Output.say(done(path)) }
  for addition in edited.additions { Output.say(RulesText.message(addition, rule: rule ?? "", path: path)) }
  if loaded.configuration.rules.isBuiltIn {
    RulesText.say(loaded.configuration.rules)
  } else if let rule,
    let found = loaded.configuration.rules.rules.first(where: { $0.name.lowercased() == rule.lowercased() })
  {
    RulesText.say(RuleSet([found]))
  }
  // What loosens today's rules comes at the next day's start (docs/using/limits.md).
  if let store = try? LedgerStore.standard(),
    RulesInForce.resolve(configured: loaded.configuration.rules, store: store) != loaded.configuration.rules
  {
    Output.say(CommandMessage(.loosens))
  }
  return .success
}

/// The rules as `rules list` prints them.
enum RulesText {
  /// What `list` says, and a change that took the last rule away, when no rule is set.
  static let noRuleLines = [CommandMessage(.noRule), CommandMessage(.startRule)]

  /// Writes the rules, each a line and its settings below it.
  static func say(_ rules: RuleSet) {
    for (indent, message) in entries(rules) { Output.say(message, indent: indent) }
  }

  /// The lines ``say(_:)`` writes, as text.
  static func lines(_ rules: RuleSet) -> [String] {
    entries(rules).map { String(repeating: " ", count: $0.indent) + Output.text($0.message) }
  }

  private static func entries(_ rules: RuleSet) -> [(indent: Int, message: CommandMessage)] {
    if rules.isBuiltIn { return noRuleLines.map { (0, $0) } }
    var entries: [(indent: Int, message: CommandMessage)] = []
    for rule in rules.rules {
      let apps = Output.list(rule.apps.filter { !isSiteAlone($0) }.map(describe))
      let sites = Output.list(rule.apps.flatMap(\.sites).map(\.name))
      let line: CommandMessage =
        switch (apps.isEmpty, sites.isEmpty) {
        case (false, true): CommandMessage(.ruleLineApps, ["rule": rule.name, "apps": apps])
        case (true, false): CommandMessage(.ruleLineSites, ["rule": rule.name, "sites": sites])
        case (false, false): CommandMessage(.ruleLineAppsSites, ["rule": rule.name, "apps": apps, "sites": sites])
        case (true, true): CommandMessage(.ruleLineApps, ["rule": rule.name, "apps": ""])
        }
      entries.append((0, line))
      entries.append((2, settingsMessage(rule)))
    }
    return entries
  }

  /// What adding one app came to, after the file's path.
  static func message(_ addition: AppAddition, rule: String, path: String) -> CommandMessage {
    switch addition {
    case .added(let app): CommandMessage(.appAdded, ["path": path, "app": app.name, "rule": rule])
    case .merged(let entry, let names):
      CommandMessage(.appMerged, ["path": path, "rule": rule, "app": entry, "names": names.namesText])
    case .covered(let entry): CommandMessage(.appCovered, ["path": path, "rule": rule, "app": entry])
    }
  }

  /// `limit 20m a day, 5m per task, at most 5 tasks a day, warned 1m before, on limit hide`.
  static func settingsText(_ rule: Rule) -> String {
    Output.text(settingsMessage(rule))
  }

  private static func settingsMessage(_ rule: Rule) -> CommandMessage {
    var values = [
      "limit": limitText(rule.dailyLimit), "grant": DurationText.text(minutes: rule.grantMinutes),
      "action": rule.onLimit.rawValue,
    ]
    if rule.warnMinutes > 0 { values["warn"] = DurationText.text(minutes: rule.warnMinutes) }
    return CommandMessage(rule.warnMinutes == 0 ? .settingsNoWarning : .settings, values, count: rule.maxGrantsPerDay)
  }

  /// The settings a rule has when none is given.
  static var defaultsText: String { settingsText(Rule.builtIn) }

  /// `20m a day`, or by weekday `5m a day on mon-fri, 30m on sat,sun`.
  private static func limitText(_ limit: DailyLimit) -> String {
    guard !limit.isUniform else {
      return Output.text(CommandMessage(.limitADay, ["duration": DurationText.text(minutes: limit.lowest)]))
    }
    return Output.list(
      limit.groups.enumerated().map { index, group in
        Output.text(
          CommandMessage(
            index == 0 ? .dailyLimitOnDays : .limitOnDays,
            ["limit": DurationText.text(minutes: group.minutes), "days": "\(group.days)"]))
      })
  }

  /// An app that is a website alone, listed with the sites.
  private static func isSiteAlone(_ app: AppPattern) -> Bool {
    app.classes.isEmpty && app.appIDs.isEmpty && app.executables.isEmpty && app.sites.count == 1
      && app.sites[0].name == app.name
  }

  private static func describe(_ app: AppPattern) -> String {
    var names: [CommandMessage] = []
    if !app.classes.isEmpty { names.append(CommandMessage(.appClass, ["names": app.classes.joined(separator: "/")])) }
    if !app.appIDs.isEmpty { names.append(CommandMessage(.appID, ["names": app.appIDs.joined(separator: "/")])) }
    if !app.executables.isEmpty {
      names.append(CommandMessage(.appExecutable, ["names": app.executables.joined(separator: "/")]))
    }
    guard !names.isEmpty else { return app.name }
    return Output.text(
      CommandMessage(.appWithNames, ["app": app.name, "names": Output.list(names.map(Output.text))]))
  }
}
