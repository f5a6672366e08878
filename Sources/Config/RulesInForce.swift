public import JSON
public import Model
public import Posix
public import Store

/// The rules in force today, which `config.json` may loosen only from
/// tomorrow (``Model/RuleSet/change(to:)``).
///
/// The service keeps them twice: in the ledger, in the same write as the
/// counts they were carried to (``Model/Ledger/rulesInForce(on:)``), and in
/// `rules-in-force.json` beside it (`{"day":"2026-12-02","rules":[…]}`), the
/// rules written as `config.json` writes them and read by the same reader.
/// The ledger's copy comes first, since its counts are those of its rules;
/// the file counts where the ledger holds none for today (it was deleted, or
/// an older ShieldBridge wrote it). So deleting one of the two files loosens
/// nothing, and a copy that cannot be read is no copy, never the
/// configuration as written while the other copy holds the rules. A copy of
/// another day is yesterday's: from today's start the configuration alone is
/// in force. Every reader (the service, `status`, `puzzle`, the browser's
/// host, `rules`) resolves them the same way (``resolve(configured:store:)``).
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
    change(configured: configured, held: held, today: today).rules
  }

  /// The change from `held` (when it is `today`'s) to `configured`: the rules in force and whose day they take over.
  public static func change(configured: RuleSet, held: RulesInForce?, today: LocalDay) -> RuleChange {
    guard let held, held.day == today else { return RuleChange(rules: configured) }
    return held.rules.change(to: configured)
  }

  /// The rules held on `today`: the ledger's copy, else the file's at
  /// `path`; `nil` when neither holds today's.
  public static func held(ledger: Ledger?, file path: String, today: LocalDay) -> RulesInForce? {
    if let copy = ledger?.rulesInForce(on: today), let rules = rules(copy, file: "ledger.json") {
      return RulesInForce(day: today, rules: rules)
    }
    guard let file = load(from: path), file.day == today else { return nil }
    return file
  }

  /// What readers of today's rules resolve: the change from the rules held
  /// today to `configured`, and the ledger with the counts carried to them
  /// (as the service carries them when it puts the change in force).
  public struct Resolved: Sendable {
    public var change: RuleChange
    /// The stored ledger, counts carried; `nil` when it cannot be read.
    public var ledger: Ledger?
    public var today: LocalDay
    public var rules: RuleSet { change.rules }
  }

  /// The rules in force on the store's today (``Resolved``). The ledger is
  /// only read: a damaged one is left for its next reader to report.
  public static func resolved(configured: RuleSet, store: LedgerStore) -> Resolved {
    let ledger = store.storedLedgerLeavingTheFile
    return resolved(configured: configured, ledger: ledger, store: store)
  }

  /// ``resolved(configured:store:)`` with the ledger already read (`nil`: none could be).
  public static func resolved(configured: RuleSet, ledger: Ledger?, store: LedgerStore) -> Resolved {
    let today = store.today(in: ledger ?? Ledger())
    let change = change(
      configured: configured, held: held(ledger: ledger, file: path(in: store), today: today), today: today)
    return Resolved(change: change, ledger: ledger?.takingOver(change.takeOver, on: today), today: today)
  }

  /// The rules in force on the store's today, as ``resolved(configured:store:)`` has them.
  public static func resolve(configured: RuleSet, store: LedgerStore) -> RuleSet {
    resolved(configured: configured, store: store).rules
  }

  /// The file at `path`; `nil` when there is none or it cannot be used (then
  /// the ledger's copy, or without one the configuration, is in force).
  public static func load(from path: String) -> RulesInForce? {
    guard let bytes = try? FileSystem.readFileIfPresent(path, limit: Configuration.maximumFileSize),
      let json = try? JSONValue(parsing: bytes), let text = json["day"]?.stringValue, let day = LocalDay(text),
      let copy = json["rules"], let rules = rules(copy, file: path)
    else { return nil }
    return RulesInForce(day: day, rules: rules)
  }

  /// The rules of a copy (`[]`: the built-in rule), read as `config.json`'s are; `nil` when they cannot be.
  static func rules(_ copy: JSONValue, file: String) -> RuleSet? {
    guard let elements = copy.arrayValue else { return nil }
    if elements.isEmpty { return .builtIn }
    guard
      let (configuration, _) = try? Configuration.parse(
        Array(JSONValue.object([("rules", copy)]).serialized.utf8), file: file)
    else { return nil }
    return configuration.rules
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
    .object([("day", .string(day.description)), ("rules", Self.json(of: rules))])
  }

  /// The rules as the ledger and the file keep them: `config.json`'s form, `[]` for the built-in rule.
  public static func json(of rules: RuleSet) -> JSONValue {
    .array(rules.isBuiltIn ? [] : rules.rules.map(\.configurationJSON))
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
