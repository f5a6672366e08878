public import JSON
import Model

/// Applies a ``RuleEdit`` to the JSON of `config.json`: pure, no files.
///
/// ``edited(_:file:applying:)`` takes the file's bytes (or `nil` for no
/// file) and answers the bytes to write, checked by the reader the service
/// uses; ``applying(_:to:)`` is the change itself on the JSON value. Every
/// key the edit does not name stays as it was, unknown ones included, and
/// so does every value it does not touch.
///
/// What each edit does to the JSON:
/// - `add` appends `{"name", "apps", then the settings given}` to `rules`
///   (creating `rules`, which replaces the built-in rule). Apps are written
///   as names, or objects when they carry more; a site becomes an app of its
///   own named after it: `{"name": "reddit.com", "sites": ["reddit.com"]}`.
/// - `remove` removes the rule; the last one takes `rules` with it, so that
///   no rule is set (the reader refuses an empty `rules`).
/// - `set` replaces the settings given in place (a setting the rule did not
///   have is added after the settings before it); `--app`/`--site` given to
///   `set` replace the rule's apps with the apps and sites given.
/// - `addApps` appends each app to the rule's `apps`, or, where the rule
///   has an app of that name already, adds the names and sites it lacks to
///   that entry (``AppAddition``); `addSites` appends; `removeApps` removes
///   the apps of those names (plain or objects); `removeSites` removes the
///   site from the app that lists it, and that app as well when it was the
///   site alone (named after it, nothing else).
public enum ConfigurationEditor {
  /// The keys of a rule in the order a new rule is written, and a new setting placed.
  static let ruleKeyOrder = ["name", "apps"] + Rule.Limit.allCases.map(\.rawValue) + ["onLimit"]

  /// The bytes `config.json` holds after `edit`, checked as the service checks them.
  ///
  /// - Parameters:
  ///   - bytes: The file as it is, or `nil` when there is none.
  ///   - file: The file's name for messages.
  /// - Returns: The new text, in ``ConfigurationLayout``'s form.
  /// - Throws: ``RuleEditError/invalid(_:)`` with the reader's error when the
  ///   file is refused already or would be after the edit; the other cases
  ///   when the edit names a rule, app or site that is not there.
  public static func edited(_ bytes: [UInt8]?, file: String, applying edit: RuleEdit) throws(RuleEditError)
    -> [UInt8]
  {
    try editing(bytes, file: file, applying: edit).bytes
  }

  /// The bytes `config.json` holds after `edit`, with what each app of an `addApps` came to.
  ///
  /// - Throws: As ``edited(_:file:applying:)``.
  public static func editing(_ bytes: [UInt8]?, file: String, applying edit: RuleEdit) throws(RuleEditError)
    -> EditedText
  {
    var json = JSONValue.object([])
    if let bytes {
      // The file as the service reads it first: an edit never turns a refused file into another.
      do { _ = try Configuration.parse(bytes, file: file) } catch { throw .invalid(error) }
      let parsed: (value: JSONValue, numberTexts: [String: String])
      do {
        parsed = try JSONValue.parsingKeepingNumberTexts(bytes)
      } catch {
        throw .invalid(
          ConfigurationError(
            code: .syntax, file: file, keyPath: "", problem: "not valid JSON: \(error)", detail: .notJSON("\(error)")))
      }
      guard let carried = ConfigurationLayout.carryingNumberTexts(parsed.value, parsed.numberTexts) else {
        throw .unkeepable(file)
      }
      json = carried
    }
    let (new, additions) = try apply(edit, to: json)
    let text = Array(ConfigurationLayout.text(of: new).utf8)
    do { _ = try Configuration.parse(text, file: file) } catch { throw .invalid(error) }
    return EditedText(bytes: text, additions: additions)
  }

  /// `json` with `edit` applied; not yet checked by the reader.
  ///
  /// - Throws: ``RuleEditError`` when the edit names a rule, app or site that is not there.
  public static func applying(_ edit: RuleEdit, to json: JSONValue) throws(RuleEditError) -> JSONValue {
    try apply(edit, to: json).json
  }

  /// `json` with `edit` applied, and what each app of an `addApps` came to.
  private static func apply(_ edit: RuleEdit, to json: JSONValue) throws(RuleEditError)
    -> (json: JSONValue, additions: [AppAddition])
  {
    var additions: [AppAddition] = []
    var root = json.objectValue ?? []
    var rules = root.value(of: "rules")?.arrayValue ?? []
    switch edit {
    case .add(let name, let apps, let sites, let settings):
      var rule: [(String, JSONValue)] = [("name", .string(name))]
      rule.append(("apps", .array(apps.map(appValue) + sites.map(siteApp))))
      apply(settings, to: &rule)
      rules.append(.object(rule))
    case .set(let name, let apps, let sites, let settings):
      guard apps != nil || sites != nil || !settings.isEmpty else {
        throw .nothingToChange("give at least one setting to change, such as --limit 10m")
      }
      let index = try ruleIndex(name, in: rules)
      var rule = rules[index].objectValue ?? []
      if apps != nil || sites != nil {
        rule.set("apps", .array((apps ?? []).map(appValue) + (sites ?? []).map(siteApp)))
      }
      apply(settings, to: &rule)
      rules[index] = .object(rule)
    case .remove(let name):
      rules.remove(at: try ruleIndex(name, in: rules))
    case .addApps(let name, let apps):
      try editApps(of: name, in: &rules) { list throws(RuleEditError) in
        for app in apps { additions.append(AppEntries.add(app, to: &list)) }
      }
    case .addSites(let name, let sites):
      try editApps(of: name, in: &rules) { list throws(RuleEditError) in list += sites.map(siteApp) }
    case .removeApps(let name, let apps):
      try editApps(of: name, in: &rules) { list throws(RuleEditError) in
        for app in apps {
          guard let index = list.firstIndex(where: { appName($0)?.lowercased() == app.lowercased() }) else {
            throw .noSuchApp(rule: name, app: app)
          }
          list.remove(at: index)
        }
      }
    case .removeSites(let name, let sites):
      try editApps(of: name, in: &rules) { list throws(RuleEditError) in
        for site in sites {
          try removeSite(site, rule: name, from: &list)
        }
      }
    }
    if rules.isEmpty {
      // The last rule gone: no rule is set, as in a file without "rules" (the reader refuses an empty list).
      root.removeAll { $0.0 == "rules" }
    } else {
      root.set("rules", .array(rules))
    }
    return (.object(root), additions)
  }

  // MARK: - Parts

  private static func ruleIndex(_ name: String, in rules: [JSONValue]) throws(RuleEditError) -> Int {
    guard
      let index = rules.firstIndex(where: { $0["name"]?.stringValue?.lowercased() == name.lowercased() })
    else { throw .noSuchRule(name) }
    return index
  }

  private static func editApps(
    of name: String, in rules: inout [JSONValue], _ change: (inout [JSONValue]) throws(RuleEditError) -> Void
  ) throws(RuleEditError) {
    let index = try ruleIndex(name, in: rules)
    var rule = rules[index].objectValue ?? []
    var apps = rule.value(of: "apps")?.arrayValue ?? []
    try change(&apps)
    rule.set("apps", .array(apps))
    rules[index] = .object(rule)
  }

  /// Writes each setting given: in place when the rule has it, else after the keys that come before it.
  private static func apply(_ settings: RuleSettings, to rule: inout [(String, JSONValue)]) {
    for limit in Rule.Limit.allCases {
      if let value = settings[limit] { rule.set(limit.rawValue, .integer(Int64(value))) }
    }
    if let onLimit = settings.onLimit { rule.set("onLimit", .string(onLimit.rawValue)) }
  }

  /// An app as an entry of `apps`: its name alone, or an object with the names and sites it has.
  static func appValue(_ app: RuleApp) -> JSONValue {
    guard !app.classes.isEmpty || !app.appIDs.isEmpty || !app.executables.isEmpty || !app.sites.isEmpty else {
      return .string(app.name)
    }
    var members: [(String, JSONValue)] = [("name", .string(app.name))]
    if !app.classes.isEmpty { members.append(("class", names(app.classes))) }
    if !app.appIDs.isEmpty { members.append(("appId", names(app.appIDs))) }
    if !app.executables.isEmpty { members.append(("exe", .array(app.executables.map { .string($0) }))) }
    if !app.sites.isEmpty { members.append(("sites", .array(app.sites.map { .string(canonicalSite($0)) }))) }
    return .object(members)
  }

  private static func names(_ names: [String]) -> JSONValue {
    names.count == 1 ? .string(names[0]) : .array(names.map { .string($0) })
  }

  /// A site as an app of its own, named after the site as the user wrote it (lowercase when it is a host name).
  private static func siteApp(_ site: String) -> JSONValue {
    let name = canonicalSite(site)
    return .object([("name", .string(name)), ("sites", .array([.string(name)]))])
  }

  /// The host name as the reader keeps it, or the text as written, for the reader to refuse with its message.
  private static func canonicalSite(_ text: String) -> String {
    Site(text)?.name ?? text
  }

  private static func appName(_ app: JSONValue) -> String? {
    app.stringValue ?? app["name"]?.stringValue
  }

  private static func removeSite(_ text: String, rule: String, from apps: inout [JSONValue]) throws(RuleEditError) {
    let wanted = Site(text)?.name ?? text.lowercased()
    for (index, app) in apps.enumerated() {
      guard var members = app.objectValue, let sites = app["sites"] else { continue }
      let list = sites.arrayValue ?? [sites]
      guard let position = list.firstIndex(where: { ($0.stringValue.flatMap(Site.init)?.name) == wanted }) else {
        continue
      }
      var remaining = list
      remaining.remove(at: position)
      let siteAlone =
        remaining.isEmpty && members.count == 2 && appName(app).flatMap(Site.init)?.name == wanted
      if siteAlone {
        apps.remove(at: index)
      } else if remaining.isEmpty {
        members.removeAll { $0.0 == "sites" }
        apps[index] = .object(members)
      } else {
        members.set("sites", .array(remaining))
        apps[index] = .object(members)
      }
      return
    }
    throw .noSuchSite(rule: rule, site: text)
  }
}

extension [(String, JSONValue)] {
  func value(of key: String) -> JSONValue? {
    last { $0.0 == key }?.1
  }

  /// Replaces the value of `key` in place, or adds it after the last key that comes before it in a rule's order.
  mutating func set(_ key: String, _ value: JSONValue) {
    if let index = lastIndex(where: { $0.0 == key }) {
      self[index].1 = value
      return
    }
    let order = ConfigurationEditor.ruleKeyOrder
    guard let rank = order.firstIndex(of: key) else {
      append((key, value))
      return
    }
    let before = Set(order[..<rank])
    if let last = lastIndex(where: { before.contains($0.0) }) {
      insert((key, value), at: last + 1)
    } else {
      insert((key, value), at: 0)
    }
  }
}

/// The text of `config.json` after an edit, and what each app of an `addApps` came to.
public struct EditedText: Hashable, Sendable {
  public var bytes: [UInt8]
  /// One per app of an `addApps`, in its order; empty for every other edit.
  public var additions: [AppAddition]
}
