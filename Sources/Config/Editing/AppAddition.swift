import JSON
import Model

/// What adding one app to a rule came to: a new entry, names joined to the
/// entry of the same name, or nothing, when that entry has them all.
///
/// A rule lists an app once by its name (the reader refuses a second entry
/// of that name), so an app given again, by `rules add-app`, `rules pick` or
/// `setup` beside an entry of the list, joins the entry it names: the
/// classes, app ids, executables and sites it brings that the entry lacks
/// are added to it, and everything the entry had stays.
public enum AppAddition: Hashable, Sendable {
  /// A new entry of the rule.
  case added(RuleApp)
  /// Joined the rule's entry named `into`: `names` holds what was added to it (its name is the entry's).
  case merged(into: String, names: RuleApp)
  /// The rule's entry of this name has every name and site given already: nothing was added.
  case covered(String)

  /// One line for the user: `added Instagram to the rule "social"`, or what joined which entry.
  public func sentence(rule: String) -> String {
    switch self {
    case .added(let app):
      "added \(app.name) to the rule \"\(rule)\""
    case .merged(let entry, let names):
      "the rule \"\(rule)\" has \(entry) already: added \(names.namesText) to it"
    case .covered(let entry):
      "the rule \"\(rule)\" has \(entry) already, with these names: nothing was added"
    }
  }
}

extension RuleApp {
  /// Whether only the name is given, so that it stands for every name the desktop reports (``Model/AppPattern``).
  var isPlainName: Bool { classes.isEmpty && appIDs.isEmpty && executables.isEmpty && sites.isEmpty }

  /// The app with a plain name spelled out as the class, app id and executable it matches.
  ///
  /// A plain name matches the `WM_CLASS`, the app id and the executable
  /// (and the names beside them: the scope, `argv[0]`, `comm`), which an
  /// object's `class`, `appId` and `exe` match one each; spelled out, the
  /// name keeps what it matched when sites or other names join it.
  var spelledOut: RuleApp {
    guard isPlainName else { return self }
    return RuleApp(name: name, classes: [name], appIDs: [name], executables: [name])
  }

  /// The names and sites of `other` that this app lacks, as an app of this
  /// app's name; `nil` when it has them all.
  ///
  /// Names are compared without regard to case, as the matcher compares
  /// them; a site is lacking unless one of this app's sites or of
  /// `coveredSites` (the other entries' of the rule) covers it.
  func lacking(_ other: RuleApp, coveredSites: [Site] = []) -> RuleApp? {
    let mine = spelledOut
    let theirs = other.spelledOut
    func missing(_ wanted: [String], _ held: [String]) -> [String] {
      var result: [String] = []
      for name in wanted
      where !held.contains(where: { $0.lowercased() == name.lowercased() })
        && !result.contains(where: { $0.lowercased() == name.lowercased() })
      {
        result.append(name)
      }
      return result
    }
    let held = mine.sites.compactMap(Site.init) + coveredSites
    var sites: [String] = []
    for text in theirs.sites {
      guard let site = Site(text) else {
        // Not a host name: kept, for the reader to refuse with its message.
        sites.append(text)
        continue
      }
      if !held.contains(where: { $0.covers(site) }), !sites.contains(site.name) { sites.append(site.name) }
    }
    let lacking = RuleApp(
      name: name, classes: missing(theirs.classes, mine.classes), appIDs: missing(theirs.appIDs, mine.appIDs),
      executables: missing(theirs.executables, mine.executables), sites: sites)
    return lacking.isPlainName ? nil : lacking
  }

  /// This app with the names and sites of `other` it lacks added.
  func merged(with other: RuleApp) -> RuleApp {
    guard let lacking = lacking(other) else { return self }
    var result = spelledOut
    result.classes += lacking.classes
    result.appIDs += lacking.appIDs
    result.executables += lacking.executables
    result.sites += lacking.sites
    return result
  }

  /// `class Instagram, app id Instagram and site instagram.com`: the names and sites, in words.
  public var namesText: String {
    var parts: [String] = []
    func add(_ one: String, _ many: String, _ names: [String]) {
      guard !names.isEmpty else { return }
      parts.append((names.count == 1 ? one : many) + " " + names.joined(separator: ", "))
    }
    add("class", "classes", classes)
    add("app id", "app ids", appIDs)
    add("executable", "executables", executables)
    add("site", "sites", sites)
    guard parts.count > 1 else { return parts.first ?? name }
    return parts.dropLast().joined(separator: ", ") + " and " + parts[parts.count - 1]
  }

  /// `apps` with each app given twice by name made one (the first's place, both's names and sites).
  public static func combining(_ apps: [RuleApp]) -> [RuleApp] {
    var result: [RuleApp] = []
    for app in apps {
      if let index = result.firstIndex(where: { $0.name.lowercased() == app.name.lowercased() }) {
        result[index] = result[index].merged(with: app)
      } else {
        result.append(app)
      }
    }
    return result
  }
}

/// Adds apps to a rule's `apps` in the JSON of `config.json`, joining an entry of the same name.
enum AppEntries {
  /// The keys of an app object in the order the editor writes them.
  static let keyOrder = ["name", "class", "appId", "exe", "sites"]

  /// Adds `app` to `list`: appended, or its lacking names and sites added to the entry of its name.
  static func add(_ app: RuleApp, to list: inout [JSONValue]) -> AppAddition {
    guard
      let index = list.firstIndex(where: { entryName($0)?.lowercased() == app.name.lowercased() }),
      let existing = ruleApp(list[index])
    else {
      list.append(ConfigurationEditor.appValue(app))
      return .added(app)
    }
    let others = list.indices.filter { $0 != index }.compactMap { ruleApp(list[$0]) }
    guard let lacking = existing.lacking(app, coveredSites: others.flatMap(\.sites).compactMap(Site.init)) else {
      return .covered(existing.name)
    }
    guard case .object(var members) = list[index] else {
      // A plain name becomes an object that matches what the name matched, and the new names besides.
      list[index] = ConfigurationEditor.appValue(existing.spelledOut.merged(with: lacking))
      return .merged(into: existing.name, names: lacking)
    }
    let additions: [(String, [String], Bool)] = [
      ("class", lacking.classes, false), ("appId", lacking.appIDs, false), ("exe", lacking.executables, true),
      ("sites", lacking.sites, true),
    ]
    for (key, names, alwaysArray) in additions where !names.isEmpty {
      let held = members.last { $0.0 == key }.map { strings($0.1) } ?? []
      let all = held + names
      let value: JSONValue = all.count == 1 && !alwaysArray ? .string(all[0]) : .array(all.map { .string($0) })
      set(key, value, in: &members)
    }
    list[index] = .object(members)
    return .merged(into: existing.name, names: lacking)
  }

  /// The name of an app entry: a plain string, or an object's `name`.
  static func entryName(_ entry: JSONValue) -> String? {
    entry.stringValue ?? entry["name"]?.stringValue
  }

  /// An app entry as an app; `nil` for an entry without a name (which the reader refuses).
  static func ruleApp(_ entry: JSONValue) -> RuleApp? {
    if let name = entry.stringValue { return RuleApp(name: name) }
    guard let name = entry["name"]?.stringValue else { return nil }
    return RuleApp(
      name: name, classes: entry["class"].map(strings) ?? [], appIDs: entry["appId"].map(strings) ?? [],
      executables: entry["exe"].map(strings) ?? [], sites: entry["sites"].map(strings) ?? [])
  }

  /// A string, or the strings of an array.
  private static func strings(_ value: JSONValue) -> [String] {
    if let text = value.stringValue { return [text] }
    return value.arrayValue?.compactMap(\.stringValue) ?? []
  }

  /// Replaces `key` in place, or inserts it after the last key that comes before it in ``keyOrder``.
  private static func set(_ key: String, _ value: JSONValue, in members: inout [(String, JSONValue)]) {
    if let index = members.lastIndex(where: { $0.0 == key }) {
      members[index].1 = value
      return
    }
    let before = keyOrder.prefix { $0 != key }
    if let last = members.lastIndex(where: { before.contains($0.0) }) {
      members.insert((key, value), at: last + 1)
    } else {
      members.append((key, value))
    }
  }
}
