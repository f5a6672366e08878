public import Brake
import JSON
public import Posix

/// The rules in force today, which `config.json` may loosen only from
/// tomorrow (``Brake/RuleSet/tightened(by:)``).
///
/// The service keeps them in `rules-in-force.json` beside the ledger, so that
/// a restart does not loosen either, and the processes that grant (the
/// terminal task, the browser's host) and `status` read the same rules:
/// `{"day":"2026-12-02","rules":[…]}`, the rules written as `config.json`
/// writes them and read by the same reader. A file of another day is
/// yesterday's: from today's start the configuration alone is in force.
public struct RulesInForce: Hashable, Sendable {
  public var day: LocalDay
  public var rules: RuleSet

  public init(day: LocalDay, rules: RuleSet) {
    self.day = day
    self.rules = rules
  }

  /// `rules-in-force.json` in the ledger's folder.
  public static func path(in store: LedgerStore) -> String {
    store.directory + "/rules-in-force.json"
  }

  /// The rules in force on `today` when `configured` is what `config.json` says and `held` what was in force.
  public static func resolve(configured: RuleSet, held: RulesInForce?, today: LocalDay) -> RuleSet {
    guard let held, held.day == today else { return configured }
    return held.rules.tightened(by: configured)
  }

  /// The rules in force on the store's today: the file's, tightened by
  /// `configured`. The ledger is only read: a damaged one is left for its
  /// next reader to report.
  public static func resolve(configured: RuleSet, store: LedgerStore) -> RuleSet {
    resolve(configured: configured, held: load(from: path(in: store)), today: store.todayLeavingTheFile)
  }

  /// The file at `path`; `nil` when there is none or it cannot be used (then
  /// the configuration is in force as it is, as before the first save).
  public static func load(from path: String) -> RulesInForce? {
    guard let bytes = try? FileSystem.readFileIfPresent(path, limit: Configuration.maximumFileSize),
      let json = try? JSONValue(parsing: bytes), let text = json["day"]?.stringValue, let day = LocalDay(text),
      let rules = json["rules"],
      let (configuration, _) = try? Configuration.parse(
        Array(JSONValue.object([("rules", rules)]).serialized.utf8), file: path)
    else { return nil }
    return RulesInForce(day: day, rules: configuration.rules)
  }

  /// Writes the file by atomic replace.
  ///
  /// - Throws: ``AtomicReplaceError`` when the folder cannot take it.
  public func save(to path: String) throws(AtomicReplaceError) {
    let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
    try? FileSystem.makeDirectories(folder)
    try FileSystem.replaceAtomically(path, with: Array((json.serialized + "\n").utf8))
  }

  /// `{"day":…,"rules":[…]}`; the built-in rule is no configured rule and writes none.
  var json: JSONValue {
    let rules = self.rules.isBuiltIn ? [] : self.rules.rules.map(\.configurationJSON)
    return .object([("day", .string(day.description)), ("rules", .array(rules))])
  }
}

extension Rule {
  /// The rule as `config.json` writes it, every key given.
  var configurationJSON: JSONValue {
    .object(
      [
        ("name", .string(name)), ("apps", .array(apps.map(\.configurationJSON))),
        ("dailyLimitMinutes", dailyLimit.configurationJSON), ("grantMinutes", .int(grantMinutes)),
        ("maxGrantsPerDay", .int(maxGrantsPerDay)), ("warnMinutes", .int(warnMinutes)),
        ("pauseSeconds", .int(pauseSeconds)), ("onLimit", .string(onLimit.rawValue)),
      ] + (downtime.isEmpty ? [] : [("downtime", .array(downtime.map(\.configurationJSON)))]))
  }
}

extension DowntimePeriod {
  /// `{"from":"22:00","to":"07:00","days":"mon-thu,sun"}`, `days` left out when every day.
  var configurationJSON: JSONValue {
    .object(
      [("from", .string(from.description)), ("to", .string(to.description))]
        + (days == .all ? [] : [("days", .string(days.description))]))
  }
}

extension DailyLimit {
  /// One number when every day has the same, else `{"mon-fri": 5, "sat,sun": 30}`.
  var configurationJSON: JSONValue {
    guard !isUniform else { return .int(lowest) }
    return .object(groups.map { ($0.days.description, .int($0.minutes)) })
  }
}

extension AppPattern {
  /// A plain name as a string, else an object with the names it gives.
  var configurationJSON: JSONValue {
    guard !isPlainName else { return .string(name) }
    var members: [(String, JSONValue)] = [("name", .string(name))]
    let lists: [(String, [String])] = [
      ("class", classes), ("appId", appIDs), ("exe", executables), ("sites", sites.map(\.name)),
    ]
    for (key, names) in lists where !names.isEmpty { members.append((key, .array(names.map { .string($0) }))) }
    return .object(members)
  }
}
