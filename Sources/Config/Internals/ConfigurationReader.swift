import DeepLink
import Desktop
import JSON
import Model

/// Walks the JSON of `config.json`, checking every value and naming its key
/// path in errors (`rules[0].grantMinutes`), and collects warnings for keys
/// it does not know.
struct ConfigurationReader {
  let file: String
  /// The numbers not written as integers, as written, by JSON Pointer (see ``JSONValue/parsingKeepingNumberTexts(_:)``).
  let numberTexts: [String: String]
  private(set) var warnings: [ConfigurationWarning] = []

  init(file: String, numberTexts: [String: String] = [:]) {
    self.file = file
    self.numberTexts = numberTexts
  }

  mutating func configuration(_ json: JSONValue) throws(ConfigurationError) -> Configuration {
    let root = ConfigurationKeyPath()
    let members = try object(
      json, at: root,
      known: [
        "scheme", "rules", "views", "handlers", "desktop", "idleMinutes", "historyDays",
        "weeklySummary",
        "dayStartsAt",
      ])
    var configuration = Configuration()
    if let value = members["scheme"] {
      configuration.scheme = try scheme(value, at: root.key("scheme"))
    }
    if let value = members["desktop"] {
      configuration.desktop = try choice(value, at: root.key("desktop"), of: DesktopChoice.self)
    }
    if let value = members["idleMinutes"] {
      configuration.idleMinutes = try integer(
        value, at: root.key("idleMinutes"), in: Configuration.idleMinutesRange, checkingRange: true)
    }
    if let value = members["historyDays"] {
      configuration.historyDays = try integer(
        value, at: root.key("historyDays"), in: Configuration.historyDaysRange, checkingRange: true)
    }
    if let value = members["weeklySummary"] {
      let text = try string(value, at: root.key("weeklySummary"), expected: WeeklySchedule.acceptedForms)
      guard let schedule = WeeklySchedule(text) else {
        throw error(
          .format, at: root.key("weeklySummary"), "expected \(WeeklySchedule.acceptedForms), found \(found(value))")
      }
      configuration.weeklySummary = schedule
    }
    if let value = members["rules"] {
      configuration.rules = try rules(value, at: root.key("rules"))
    }
    if let value = members["dayStartsAt"] {
      let path = root.key("dayStartsAt")
      let text = try string(value, at: path, expected: "a time such as \"04:00\"")
      guard let time = ClockTime(text) else {
        throw error(.format, at: path, "expected a time from \"00:00\" to \"23:59\" (HH:MM), found \(found(value))")
      }
      configuration.dayStartsAt = time
    }
    if let value = members["views"] {
      configuration.views = try views(value, at: root.key("views"))
    }
    if let value = members["handlers"] {
      configuration.handlers = try handlers(value, at: root.key("handlers"))
    }
    return configuration
  }

  // MARK: - Sections

  private func scheme(_ value: JSONValue, at path: ConfigurationKeyPath) throws(ConfigurationError)
    -> String
  {
    let scheme = try string(
      value, at: path, expected: "a lowercase URI scheme like \"shieldbridge\"")
    guard SchemeRule.isCanonical(scheme) else {
      throw error(
        .format, at: path,
        "expected a lowercase URI scheme (a letter, then letters, digits, \"+\", \".\" or \"-\"; "
          + "at most \(SchemeRule.maximumLength)), found \(found(value))")
    }
    return scheme
  }

  private mutating func rules(_ value: JSONValue, at path: ConfigurationKeyPath)
    throws(ConfigurationError)
    -> RuleSet
  {
    let elements = try array(value, at: path, expected: "an array of rules")
    guard !elements.isEmpty else {
      throw error(
        .missing, at: path,
        "expected at least one rule; leave out \"rules\" for the built-in default rule", detail: .noRules)
    }
    var rules: [Rule] = []
    var owners: [String: String] = [:]
    var siteOwners: [Site: (rule: String, app: String)] = [:]
    for (index, element) in elements.enumerated() {
      let rulePath = path.index(index)
      let members = try object(
        element, at: rulePath,
        known: [
          "name", "apps", "dailyLimitMinutes", "grantMinutes", "maxGrantsPerDay", "warnMinutes", "onLimit",
          // brake
          "pauseSeconds",
          "downtime",
        ])
      guard let nameValue = members["name"] else {
        throw error(.missing, at: rulePath.key("name"), "missing; every rule needs a name")
      }
      let name = try text(nameValue, at: rulePath.key("name"), maximumLength: 64)
      if let other = rules.first(where: { $0.name.lowercased() == name.lowercased() }) {
        throw error(
          .duplicate, at: rulePath.key("name"),
          "the name \(found(nameValue)) is already used by the rule \"\(other.name)\"")
      }
      guard let appsValue = members["apps"] else {
        throw error(.missing, at: rulePath.key("apps"), "missing; list the apps the rule covers")
      }
      let appValues = try array(
        appsValue, at: rulePath.key("apps"), expected: "an array of app names")
      guard !appValues.isEmpty else {
        throw error(.missing, at: rulePath.key("apps"), "expected at least one app", detail: .noApps)
      }
      var apps: [AppPattern] = []
      for (appIndex, appValue) in appValues.enumerated() {
        let appPath = rulePath.key("apps").index(appIndex)
        let app = try self.app(appValue, at: appPath, rule: name)
        for (siteIndex, site) in app.sites.enumerated() {
          if let owner = siteOwners[site] {
            throw error(
              .duplicate, at: appPath.key("sites").index(siteIndex),
              "the site \"\(site)\" of app \"\(app.name)\" in rule \"\(name)\" is already listed for app "
                + "\"\(owner.app)\" in rule \"\(owner.rule)\"")
          }
          siteOwners[site] = (name, app.name)
        }
        if let owner = owners[app.name.lowercased()] {
          let shown = found(.string(app.name))
          throw error(
            .duplicate, at: appPath,
            owner == name
              ? "\(shown) is listed twice" : "\(shown) is already covered by the rule \"\(owner)\"")
        }
        owners[app.name.lowercased()] = name
        apps.append(app)
      }
      var rule = try rule(name: name, apps: apps, members: members, at: rulePath)
      if let value = members["onLimit"] {
        rule.onLimit = try choice(value, at: rulePath.key("onLimit"), of: LimitAction.self)
      }
      if let value = members["downtime"] {
        rule.downtime = try downtime(value, at: rulePath.key("downtime"))
      }
      rules.append(rule)
    }
    return RuleSet(rules)
  }

  /// A rule with its limits read from `members` and checked by ``Rule``.
  ///
  /// The limits are reported in the order they are declared: a limit that is
  /// not a whole number is reported after an earlier one that is out of range.
  private func rule(
    name: String, apps: [AppPattern], members: Members, at path: ConfigurationKeyPath
  ) throws(ConfigurationError) -> Rule {
    var values: [Rule.Limit: Int] = [:]
    var notANumber: ConfigurationError?
    // Limits by weekday, read and checked on their own.
    var byWeekday: DailyLimit?
    if let value = members[Rule.Limit.dailyLimitMinutes.rawValue], value.objectValue != nil {
      byWeekday = try dailyLimit(value, at: path.key(Rule.Limit.dailyLimitMinutes.rawValue))
    }
    for limit in Rule.Limit.allCases where notANumber == nil {
      guard let value = members[limit.rawValue], !(limit == .dailyLimitMinutes && byWeekday != nil) else { continue }
      do {
        values[limit] = try integer(value, at: path.key(limit.rawValue), in: limit.range, checkingRange: false)
      } catch {
        notANumber = error
      }
    }
    var rule: Rule
    do {
      rule = try Rule(
        checking: name, apps: apps,
        dailyLimitMinutes: values[.dailyLimitMinutes] ?? Rule.Limit.dailyLimitMinutes.defaultValue,
        grantMinutes: values[.grantMinutes] ?? Rule.Limit.grantMinutes.defaultValue,
        maxGrantsPerDay: values[.maxGrantsPerDay] ?? Rule.Limit.maxGrantsPerDay.defaultValue,
        warnMinutes: values[.warnMinutes] ?? Rule.Limit.warnMinutes.defaultValue,
        pauseSeconds: values[.pauseSeconds] ?? Rule.Limit.pauseSeconds.defaultValue)
    } catch {
      let value = members[error.limit.rawValue] ?? .integer(Int64(error.value))
      throw self.error(
        .range, at: path.key(error.limit.rawValue), expectedNumber(in: error.limit.range, found: found(value)))
    }
    if let notANumber { throw notANumber }
    if let byWeekday { rule.dailyLimit = byWeekday }
    return rule
  }

  /// The most downtime periods a rule may have.
  static let maximumDowntimePeriods = 32

  /// A rule's downtime: `[{"from": "22:00", "to": "07:00", "days": "sun-thu"}]`,
  /// `days` optional (every day); `from` and `to` differ.
  private mutating func downtime(_ value: JSONValue, at path: ConfigurationKeyPath) throws(ConfigurationError)
    -> [DowntimePeriod]
  {
    let elements = try array(
      value, at: path, expected: #"an array of periods such as [{"from": "22:00", "to": "07:00"}]"#)
    guard elements.count <= Self.maximumDowntimePeriods else {
      throw error(.range, at: path, "expected at most \(Self.maximumDowntimePeriods) periods, found \(elements.count)")
    }
    var periods: [DowntimePeriod] = []
    for (index, element) in elements.enumerated() {
      let periodPath = path.index(index)
      let members = try object(element, at: periodPath, known: ["from", "to", "days"])
      func time(_ key: String) throws(ConfigurationError) -> ClockTime {
        guard let value = members[key] else {
          throw error(
            .missing, at: periodPath.key(key), "missing; a period needs \"from\" and \"to\", such as \"22:00\"")
        }
        let text = try string(value, at: periodPath.key(key), expected: "a time such as \"22:00\"")
        guard let time = ClockTime(text) else {
          throw error(
            .format, at: periodPath.key(key),
            "expected a time from \"00:00\" to \"23:59\" (HH:MM), found \(found(value))")
        }
        return time
      }
      let from = try time("from")
      let to = try time("to")
      guard from != to else {
        throw error(
          .format, at: periodPath.key("to"),
          "\"to\" is \"from\" (\(from)); a period ends at another time (for a whole day, give that day a limit of 0)")
      }
      var days = Weekdays.all
      if let value = members["days"] {
        let text = try string(value, at: periodPath.key("days"), expected: "days such as \"mon-fri\" or \"sat,sun\"")
        do {
          days = try Weekdays(parsing: text)
        } catch {
          throw self.error(.format, at: periodPath.key("days"), error.description)
        }
      }
      periods.append(DowntimePeriod(from: from, to: to, days: days))
    }
    return periods
  }

  /// Limits by weekday: `{"mon-fri": 5, "sat,sun": 30}`, each key a set of
  /// days (``Model/Weekdays``), each value minutes in ``Model/Rule/dailyLimitMinutesRange``,
  /// every day named exactly once.
  private func dailyLimit(_ value: JSONValue, at path: ConfigurationKeyPath) throws(ConfigurationError)
    -> DailyLimit
  {
    let members = value.objectValue ?? []
    guard !members.isEmpty else {
      throw error(
        .missing, at: path, "expected minutes for every day, such as {\"mon-fri\": 5, \"sat,sun\": 30}, found {}")
    }
    var groups: [(days: Weekdays, minutes: Int)] = []
    for (key, minutesValue) in members {
      let keyPath = path.key(key)
      let days: Weekdays
      do {
        days = try Weekdays(parsing: key)
      } catch {
        throw self.error(.format, at: keyPath, error.description)
      }
      let minutes = try integer(minutesValue, at: keyPath, in: Rule.dailyLimitMinutesRange, checkingRange: true)
      groups.append((days, minutes))
    }
    do {
      return try DailyLimit(groups: groups)
    } catch {
      switch error {
      case .twice(let day, let first, let second):
        throw self.error(
          .duplicate, at: path.key(members[second].0),
          "\(day) is already given a limit by \"\(members[first].0)\"; name each day once")
      case .missing(let day):
        throw self.error(
          .missing, at: path,
          "\(day) has no limit; name every day from mon to sun once, such as "
            + "{\"mon-fri\": 5, \"sat,sun\": 30}")
      }
    }
  }

  /// A rule's app: a plain name, or an object naming what the desktop knows it by.
  ///
  /// `{"name": "Telegram", "class": "TelegramDesktop", "appId": "org.telegram.desktop",
  /// "exe": ["telegram-desktop"], "sites": ["telegram.org"]}`: the name is required
  /// (notifications show it), each of the others is a string or an array of strings.
  private mutating func app(_ value: JSONValue, at path: ConfigurationKeyPath, rule: String)
    throws(ConfigurationError) -> AppPattern
  {
    switch value {
    case .string:
      return AppPattern(name: try text(value, at: path, maximumLength: 256))
    case .object:
      let members = try object(value, at: path, known: ["name", "class", "appId", "exe", "sites"])
      guard let nameValue = members["name"] else {
        throw error(.missing, at: path.key("name"), "missing; an app object needs the name notifications show")
      }
      var app = AppPattern(name: try text(nameValue, at: path.key("name"), maximumLength: 256))
      if let classes = members["class"] { app.classes = try names(classes, at: path.key("class")) }
      if let appIDs = members["appId"] { app.appIDs = try names(appIDs, at: path.key("appId")) }
      if let executables = members["exe"] { app.executables = try names(executables, at: path.key("exe")) }
      if let sites = members["sites"] {
        let sitesPath = path.key("sites")
        for (index, text) in try names(sites, at: sitesPath).enumerated() {
          guard let site = Site(text) else {
            throw error(
              .format, at: index == 0 && sites.stringValue != nil ? sitesPath : sitesPath.index(index),
              "the site \(found(.string(text))) of app \"\(app.name)\" in rule \"\(rule)\" is not a host name; "
                + "write the site alone, such as \"instagram.com\" (letters, digits, hyphens and dots; "
                + "no scheme, port or path)")
          }
          if !app.sites.contains(site) { app.sites.append(site) }
        }
      }
      return app
    default:
      throw error(
        .type, at: path,
        "expected a string, found \(found(value)); an app is a name or an object such as "
          + #"{"name": "Telegram", "class": "TelegramDesktop"}"#)
    }
  }

  /// One name or a non-empty array of names, for an app object's `class`, `appId` and `exe`.
  private func names(_ value: JSONValue, at path: ConfigurationKeyPath) throws(ConfigurationError) -> [String] {
    if case .string = value { return [try text(value, at: path, maximumLength: 256)] }
    let elements = try array(value, at: path, expected: "a string or an array of strings")
    guard !elements.isEmpty else {
      throw error(.missing, at: path, "expected at least one name; leave the key out to match none")
    }
    var names: [String] = []
    for (index, element) in elements.enumerated() {
      names.append(try text(element, at: path.index(index), maximumLength: 256))
    }
    return names
  }

  private mutating func views(_ value: JSONValue, at path: ConfigurationKeyPath)
    throws(ConfigurationError)
    -> Views
  {
    let apps = try object(value, at: path, known: nil)
    var result: [Views.AppViews] = []
    for (app, viewsValue) in apps.members {
      let appPath = path.key(app)
      _ = try text(.string(app), at: appPath, maximumLength: 256)
      if let other = result.first(where: { $0.app.lowercased() == app.lowercased() }) {
        throw error(.duplicate, at: appPath, "the app is already listed as \"\(other.app)\"")
      }
      var views: [Views.View] = []
      for (name, targetValue) in try object(viewsValue, at: appPath, known: nil).members {
        let viewPath = appPath.key(name)
        guard TokenRule.viewName.matches(name) else {
          throw error(
            .format, at: viewPath,
            "expected a view name of 1 to 32 characters a-z, 0-9 or \"-\", found \(found(.string(name)))"
          )
        }
        let target = try text(targetValue, at: viewPath, maximumLength: 2048)
        guard !target.hasPrefix("-") else {
          throw error(
            .format, at: viewPath, "a target must not start with \"-\", found \(found(targetValue))"
          )
        }
        views.append(Views.View(name: name, target: target))
      }
      result.append(Views.AppViews(app: app, views: views))
    }
    return Views(result)
  }

  private mutating func handlers(_ value: JSONValue, at path: ConfigurationKeyPath)
    throws(ConfigurationError)
    -> Configuration.Handlers
  {
    let members = try object(value, at: path, known: ["puzzle", "view"])
    var handlers = Configuration.Handlers()
    if let puzzle = members["puzzle"] {
      handlers.puzzle = try argv(
        puzzle, at: path.key("puzzle"), allowing: Configuration.Handlers.puzzlePlaceholders)
    }
    if let view = members["view"] {
      handlers.view = try argv(
        view, at: path.key("view"), allowing: Configuration.Handlers.viewPlaceholders)
    }
    return handlers
  }

  private func argv(
    _ value: JSONValue, at path: ConfigurationKeyPath,
    allowing allowed: Set<ArgvTemplate.Placeholder>
  ) throws(ConfigurationError) -> ArgvTemplate {
    let elements = try array(
      value, at: path, expected: "an array of strings: the program and its arguments")
    var strings: [String] = []
    for (index, element) in elements.enumerated() {
      strings.append(try string(element, at: path.index(index), expected: "a string"))
    }
    do {
      return try ArgvTemplate(strings, allowing: allowed)
    } catch {
      let location = error.element.map { path.index($0) } ?? path
      throw self.error(elements.isEmpty ? .missing : .handler, at: location, error.problem)
    }
  }

  // MARK: - Values

  /// The members of an object, refusing repeated keys and warning about unknown ones
  /// (`known` is `nil` when any key is allowed).
  private mutating func object(
    _ value: JSONValue, at path: ConfigurationKeyPath, known: Set<String>?
  )
    throws(ConfigurationError) -> Members
  {
    guard let members = value.objectValue else {
      throw error(.type, at: path, "expected an object, found \(found(value))")
    }
    var seen: Set<String> = []
    for (key, _) in members {
      guard seen.insert(key).inserted else {
        throw error(.duplicate, at: path.key(key), "the key appears twice")
      }
      if let known, !known.contains(key) {
        let suggestion =
          ConfigurationReader.nearest(key, in: known).map { "; did you mean \"\($0)\"?" } ?? ""
        warnings.append(
          ConfigurationWarning(
            file: file, keyPath: path.key(key).description,
            problem: "unknown key, ignored\(suggestion)",
            detail: .unknownKey(suggestion: ConfigurationReader.nearest(key, in: known))))
      }
    }
    return Members(members: members)
  }

  private func array(_ value: JSONValue, at path: ConfigurationKeyPath, expected: String)
    throws(ConfigurationError) -> [JSONValue]
  {
    guard let elements = value.arrayValue else {
      throw error(.type, at: path, "expected \(expected), found \(found(value))")
    }
    return elements
  }

  private func string(_ value: JSONValue, at path: ConfigurationKeyPath, expected: String)
    throws(ConfigurationError) -> String
  {
    guard let string = value.stringValue else {
      throw error(.type, at: path, "expected \(expected), found \(found(value))")
    }
    return string
  }

  /// A name or target: a non-empty string without control characters, at most `maximumLength` characters.
  private func text(_ value: JSONValue, at path: ConfigurationKeyPath, maximumLength: Int)
    throws(ConfigurationError) -> String
  {
    let text = try string(value, at: path, expected: "a string")
    guard !text.isEmpty else {
      throw error(.format, at: path, "expected a non-empty string, found \"\"")
    }
    guard text.count <= maximumLength else {
      throw error(
        .format, at: path, "expected at most \(maximumLength) characters, found \(text.count)")
    }
    guard
      !text.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    else {
      throw error(.format, at: path, "control characters are not allowed, found \(found(value))")
    }
    return text
  }

  /// A whole number from `range`; with `checkingRange` false the range is
  /// only named in messages and left for the caller (``Rule``) to check.
  private func integer(
    _ value: JSONValue, at path: ConfigurationKeyPath, in range: ClosedRange<Int>, checkingRange: Bool
  ) throws(ConfigurationError) -> Int {
    // A whole number is written as one: digits and an optional minus. The
    // parser keeps the text of any other number, whose Double would hide
    // that it was 4.9999999999999999999 or 1e-400.
    if let written = numberTexts[path.pointer] {
      let expected = expectedNumber(in: range, found: written)
      guard written.utf8.dropFirst(written.hasPrefix("-") ? 1 : 0).allSatisfy({ (0x30...0x39).contains($0) }) else {
        throw error(
          .type, at: path,
          expected + " (a whole number is written as digits alone, without a fraction or an exponent)",
          detail: .wholeNumberDigits(low: range.lowerBound, high: range.upperBound, found: written))
      }
      // Digits beyond Int64: a whole number, but outside every range here.
      throw error(
        .range, at: path, expected, detail: .wholeNumber(low: range.lowerBound, high: range.upperBound, found: written))
    }
    guard case .integer(let number) = value else {
      throw error(
        .type, at: path, expectedNumber(in: range, found: found(value)),
        detail: .wholeNumber(low: range.lowerBound, high: range.upperBound, found: found(value)))
    }
    if checkingRange, !range.contains(Int(number)) {
      throw error(
        .range, at: path, expectedNumber(in: range, found: found(value)),
        detail: .wholeNumber(low: range.lowerBound, high: range.upperBound, found: found(value)))
    }
    return Int(number)
  }

  private func expectedNumber(in range: ClosedRange<Int>, found: String) -> String {
    "expected a whole number from \(range.lowerBound) to \(range.upperBound), found \(found)"
  }

  /// One of the values of a string-backed choice such as `"onLimit"`, named in the message when it is none of them.
  private func choice<Choice: RawRepresentable & CaseIterable>(
    _ value: JSONValue, at path: ConfigurationKeyPath, of type: Choice.Type
  ) throws(ConfigurationError) -> Choice where Choice.RawValue == String {
    let names = Choice.allCases.map { "\"\($0.rawValue)\"" }
    let expected = "one of " + names.joined(separator: ", ")
    let text = try string(value, at: path, expected: expected)
    guard let choice = Choice(rawValue: text) else {
      throw error(
        .format, at: path, "expected \(expected), found \(found(value))",
        detail: .choice(names: names.joined(separator: ", "), found: found(value)))
    }
    return choice
  }

  // MARK: - Messages

  private func error(
    _ code: ConfigurationError.Code, at path: ConfigurationKeyPath, _ problem: String,
    detail: ConfigurationProblem? = nil
  )
    -> ConfigurationError
  {
    ConfigurationError(code: code, file: file, keyPath: path.description, problem: problem, detail: detail)
  }

  /// A value as the user wrote it, for "found …": strings quoted, long ones shortened.
  private func found(_ value: JSONValue) -> String {
    switch value {
    case .string(let text):
      let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
      return JSONValue.string(shown).serialized
    case .integer, .number, .bool, .null: return value.serialized
    case .array: return "an array"
    case .object: return "an object"
    }
  }

  /// The known key a misspelt one probably meant: one that differs only in
  /// case, starts with it (`dailyLimit`), or is a few edits away (one per
  /// four characters, so `schem` finds `scheme` but `theme` does not).
  static func nearest(_ key: String, in known: Set<String>) -> String? {
    let lowered = key.lowercased()
    if let prefixed = known.sorted().first(where: {
      $0.lowercased().hasPrefix(lowered) && lowered.count >= 4
    }) {
      return prefixed
    }
    let allowed = max(1, lowered.count / 4)
    return known.map { ($0, editDistance(Array(lowered), Array($0.lowercased()))) }
      .filter { $0.1 <= allowed }
      .min { ($0.1, $0.0) < ($1.1, $1.0) }?.0
  }

  private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    var previous = Array(0...b.count)
    for (i, left) in a.enumerated() {
      var current = [i + 1]
      for (j, right) in b.enumerated() {
        current.append(
          min(previous[j + 1] + 1, current[j] + 1, previous[j] + (left == right ? 0 : 1)))
      }
      previous = current
    }
    return previous[b.count]
  }
}

/// An object's members, looked up by key (keys are known to be unique).
struct Members {
  var members: [(String, JSONValue)]

  subscript(key: String) -> JSONValue? {
    members.first { $0.0 == key }?.1
  }
}
