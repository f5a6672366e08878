public import JSON

/// The grants earned and the seconds used on each local day, counted per rule,
/// and what the meter saw of the rules' limits that day.
///
/// Grants belong to the day they were earned on: asking for another day's
/// count never sees them, so yesterday's grants never extend today's limit.
/// The seconds a rule's apps were used are kept the same way, beside the
/// grants, so a restart (or a crash) of the service keeps the day's use. The
/// ledger keeps counts only (no times, no app in use): it holds what the
/// limits need and nothing more about the user's day. Beside the counts it
/// keeps the day's rules in force as `config.json` writes them
/// (``rulesInForce(on:)``), written with the counts they were carried to, so
/// that deleting one file does not loosen today's rules.
///
/// The meter, in the service's process, is the one authority on whether a
/// rule has reached its limit; the processes that grant (`shieldbridge
/// puzzle`, the browser's native host) learn it here. Per day the meter
/// writes the rules it counts (``metered(on:)``) and, for each rule that
/// reached its limit, the grants it had then (``limitReached(for:on:)``). A
/// metered rule can take a grant only while these two agree with today's
/// grants; see ``grantStanding(of:on:)``.
public struct Ledger: Hashable, Sendable {
  /// How many days back from today a ledger keeps; older days are dropped when it is saved.
  public static let keptDays = 7

  /// The most seconds of use one day can hold: 25 hours, the day DST ends.
  ///
  /// A stored count above it cannot be real; it is read as this many.
  public static let maximumUsedSeconds = 90_000

  /// Grants per rule name, per day.
  public internal(set) var days: [LocalDay: [String: Int]]

  /// Seconds used per rule name, per day (only days with some use).
  public internal(set) var usedSecondsByDay: [LocalDay: [String: Int]]

  /// The names of the rules a meter counted, per day (only days a meter ran on).
  public private(set) var meteredByDay: [LocalDay: Set<String>]

  /// Per day, rule name → the grants the rule had when the meter last saw it reach its limit.
  public private(set) var limitReachedByDay: [LocalDay: [String: Int]]

  /// Per day, rule name → the tasks asked for more time (see ``tasksAsked(for:on:)``).
  public internal(set) var tasksAskedByDay: [LocalDay: [String: Int]]

  /// Per day, rule name → the rule's grants when its last request was
  /// counted: the shield it was asked at (see ``recordTaskAsked(for:on:)``).
  public internal(set) var tasksAskedAtByDay: [LocalDay: [String: Int]]

  /// Per day, rule name → the way outs taken (see ``backedOut(for:on:)``).
  public internal(set) var backedOutByDay: [LocalDay: [String: Int]]

  /// Per day, the rules in force as the service last wrote them, in
  /// `config.json`'s form (see ``rulesInForce(on:)``).
  public internal(set) var rulesInForceByDay: [LocalDay: JSONValue] = [:]

  /// Where the meter's current day began, as it last saved it (``DayAnchor``);
  /// `nil` when no meter wrote one.
  public var dayAnchor: DayAnchor?

  /// An empty ledger.
  public init() {
    days = [:]
    usedSecondsByDay = [:]
    meteredByDay = [:]
    limitReachedByDay = [:]
    tasksAskedByDay = [:]
    tasksAskedAtByDay = [:]
    backedOutByDay = [:]
  }

  init(
    days: [LocalDay: [String: Int]], usedSecondsByDay: [LocalDay: [String: Int]] = [:],
    meteredByDay: [LocalDay: Set<String>] = [:], limitReachedByDay: [LocalDay: [String: Int]] = [:],
    dayAnchor: DayAnchor? = nil, tasksAskedByDay: [LocalDay: [String: Int]] = [:],
    tasksAskedAtByDay: [LocalDay: [String: Int]] = [:], backedOutByDay: [LocalDay: [String: Int]] = [:],
    rulesInForceByDay: [LocalDay: JSONValue] = [:]
  ) {
    self.rulesInForceByDay = rulesInForceByDay
    self.dayAnchor = dayAnchor
    self.tasksAskedByDay = tasksAskedByDay
    self.tasksAskedAtByDay = tasksAskedAtByDay
    self.backedOutByDay = backedOutByDay
    self.days = days
    self.usedSecondsByDay = usedSecondsByDay
    self.meteredByDay = meteredByDay
    self.limitReachedByDay = limitReachedByDay
  }

  /// The grants recorded for the rule named `rule` on `day`.
  public func grants(for rule: String, on day: LocalDay) -> Int {
    days[day]?[rule] ?? 0
  }

  /// The seconds the apps of the rule named `rule` were used on `day`.
  public func usedSeconds(for rule: String, on day: LocalDay) -> Int {
    usedSecondsByDay[day]?[rule] ?? 0
  }

  /// The names of the rules a meter counted on `day`; empty when no meter ran that day.
  public func metered(on day: LocalDay) -> Set<String> {
    meteredByDay[day] ?? []
  }

  /// The grants the rule named `rule` had when the meter last saw it reach
  /// its limit on `day`; `nil` when it did not reach it that day.
  public func limitReached(for rule: String, on day: LocalDay) -> Int? {
    limitReachedByDay[day]?[rule]
  }

  /// Whether a solved puzzle may add a grant for `rule` on `day`.
  ///
  /// Used up comes first: a rule with `maxGrantsPerDay` grants takes no
  /// more, metered or not. A rule a meter counts on `day` is at or over its
  /// limit only when the meter saw it reach the limit at today's grant
  /// count (``limitReached(for:on:)`` equals ``grants(for:on:)``): each grant
  /// raises the limit, so the next grant waits until the meter sees the new
  /// limit reached; a limit of 0 minutes is reached from the start of the
  /// day (``isAtLimit(_:on:)``). A rule no meter counts (a script or another
  /// blocker shields it) has no one to say where it stands, and may take a
  /// grant up to its maximum.
  public func grantStanding(of rule: Rule, on day: LocalDay) -> GrantStanding {
    let current = grants(for: rule.name, on: day)
    if current >= rule.maxGrantsPerDay { return .usedUp }
    return isAtLimit(rule, on: day) ? .open : .notAtLimit
  }

  /// Whether `rule` is at or over its limit on `day` as far as the ledger
  /// knows, so that its shield stands: a rule a meter counts when the meter
  /// saw it reach the limit at today's grant count (``limitReached(for:on:)``),
  /// or when that limit is 0 minutes (a rule at 0 minutes is at its limit
  /// from the start of the day, before the meter has seen its app); a rule no
  /// meter counts always (nothing says otherwise, and a script may shield it).
  public func isAtLimit(_ rule: Rule, on day: LocalDay) -> Bool {
    guard metered(on: day).contains(rule.name) else { return true }
    let current = grants(for: rule.name, on: day)
    return limitReached(for: rule.name, on: day) == current || rule.limitMinutes(grants: current, on: day) == 0
  }

  /// Records one solved puzzle for `rule` on `day`, unless the day's grants
  /// are used up or a meter counts the rule and it is not at its limit
  /// (see ``grantStanding(of:on:)``).
  ///
  /// - Returns: The rule's grants on `day`, the new one included.
  /// - Throws: ``GrantRefusal/grantsUsedUp(rule:maximum:day:)`` when the rule
  ///   already has `maxGrantsPerDay` grants on that day;
  ///   ``GrantRefusal/notAtLimit(rule:grantsToday:day:)`` when it is metered and
  ///   not at its limit. Nothing is recorded then.
  @discardableResult
  public mutating func recordGrant(for rule: Rule, on day: LocalDay) throws(GrantRefusal) -> Int {
    let current = grants(for: rule.name, on: day)
    switch grantStanding(of: rule, on: day) {
    case .usedUp: throw .grantsUsedUp(rule: rule.name, maximum: rule.maxGrantsPerDay, day: day)
    case .notAtLimit: throw .notAtLimit(rule: rule.name, grantsToday: current, day: day)
    case .open: break
    }
    days[day, default: [:]][rule.name] = current + 1
    return current + 1
  }

  /// Records what the meter knows of `day`: the rules it counts, and for the
  /// rules that reached their limit, the grants they had then.
  ///
  /// Both only grow during a day, as the seconds used do: the names join the
  /// day's set, and a rule keeps the larger of the stored and the given grant
  /// count. So a writer with an older view (a service restarted from an older
  /// file) never takes back what the meter saw.
  public mutating func recordMeter(metered: Set<String>, limitReached: [String: Int], on day: LocalDay) {
    if !metered.isSubset(of: self.metered(on: day)) { meteredByDay[day, default: []].formUnion(metered) }
    for (rule, grants) in limitReached where grants >= 0 {
      if let stored = self.limitReached(for: rule, on: day), stored >= grants { continue }
      limitReachedByDay[day, default: [:]][rule] = grants
    }
  }

  /// Records that the rule named `rule` was used for `seconds` on `day`,
  /// keeping the larger of this and the count already stored.
  ///
  /// Use only grows during a day, so the larger count is the later one: two
  /// writers (or a service restarted from an older file) never lose use. The
  /// count is kept within `0...maximumUsedSeconds`.
  ///
  /// - Returns: The count stored for the rule on `day` afterwards.
  @discardableResult
  public mutating func recordUsedSeconds(_ seconds: Int, for rule: String, on day: LocalDay) -> Int {
    let stored = usedSeconds(for: rule, on: day)
    let kept = max(stored, min(max(seconds, 0), Ledger.maximumUsedSeconds))
    if kept > stored { usedSecondsByDay[day, default: [:]][rule] = kept }
    return kept
  }

  /// The most grants one rule can hold on one day in a stored ledger; a larger count makes it damaged.
  ///
  /// Far above any rule's `maxGrantsPerDay` (``Rule/maxGrantsPerDayRange``):
  /// what counts is capped by the rule when read (``Rule/countedGrants(_:)``).
  public static let maximumStoredGrants = 10_000

  /// Records the grants another process knows (the service's meter), per day
  /// and rule, keeping the larger of the stored and the known count.
  ///
  /// Grants only grow during a day, so a writer never records fewer grants
  /// than any process knew: when a day's entry left the file (the clock was
  /// set forward past ``keptDays`` and back, a damaged ledger was moved
  /// aside, a hand edit), the next save of a process that knew them puts them
  /// back. Counts are kept within `0...maximumStoredGrants`, so the file stays readable.
  public mutating func recordKnownGrants(_ known: [LocalDay: [String: Int]]) {
    for (day, grants) in known {
      for (rule, count) in grants {
        let kept = min(count, Ledger.maximumStoredGrants)
        if kept > self.grants(for: rule, on: day) { days[day, default: [:]][rule] = kept }
      }
    }
  }

  /// A ``LedgerWarning/grantsAboveMaximum(day:rule:found:maximum:)`` for every
  /// rule of `rules` that holds more grants on `day` than its `maxGrantsPerDay`.
  ///
  /// Only the maximum counts (``Rule/countedGrants(_:)``); the file keeps what it holds.
  public func grantsAboveMaximum(of rules: RuleSet, on day: LocalDay) -> [LedgerWarning] {
    var seen: Set<String> = []
    return rules.rules.compactMap { rule in
      guard seen.insert(rule.name).inserted else { return nil }
      let found = grants(for: rule.name, on: day)
      guard found > rule.maxGrantsPerDay else { return nil }
      return .grantsAboveMaximum(day: day, rule: rule.name, found: found, maximum: rule.maxGrantsPerDay)
    }
  }

  /// Records the seconds used on `day` by several rules, keeping the larger count of each.
  public mutating func recordUsedSeconds(_ seconds: [String: Int], on day: LocalDay) {
    for (rule, count) in seconds { recordUsedSeconds(count, for: rule, on: day) }
  }

  /// Drops the seconds stored for `rule` on `day`: for a copy the meter
  /// takes in without a count it wrote itself.
  public mutating func forgetUsedSeconds(for rule: String, on day: LocalDay) {
    usedSecondsByDay[day]?[rule] = nil
    if usedSecondsByDay[day]?.isEmpty == true { usedSecondsByDay[day] = nil }
  }

  /// Records the seconds the meter counts now, which may be fewer than it
  /// stored before (a change stamped in the past moved time away from a
  /// rule, issue 22 point 3): a stored count that is still the one the meter
  /// wrote last (`replacing`) is replaced, any other keeps the larger.
  public mutating func recordUsedSeconds(
    _ seconds: [String: Int], on day: LocalDay, replacing saved: [String: Int]
  ) {
    for (rule, count) in seconds {
      if let previous = saved[rule], count < previous, usedSeconds(for: rule, on: day) == previous {
        usedSecondsByDay[day, default: [:]][rule] = min(max(count, 0), Ledger.maximumUsedSeconds)
      } else {
        recordUsedSeconds(count, for: rule, on: day)
      }
    }
  }

  /// The days after `today` that hold seconds used: the clock was set back.
  ///
  /// They stay stored (that use was real) but never count for today.
  public func daysWithUsage(after today: LocalDay) -> [LocalDay] {
    usedSecondsByDay.keys.filter { $0 > today }.sorted()
  }

  /// The most days a ledger keeps in all, later days included.
  public static let maximumDays = 31

  /// Drops every day more than ``keptDays`` before `today`, grants, use, the
  /// requests counted and the meter's record alike, so the file stays small.
  ///
  /// Days after `today` stay (the clock may have been set back, and those
  /// grants and that use were real), but never more than ``maximumDays`` days
  /// in all: the ones farthest from `today` go first.
  public mutating func forgetOldDays(before today: LocalDay) {
    func isRecent(_ day: LocalDay) -> Bool { today.days(to: day) > -Ledger.keptDays }
    keepDays(where: isRecent)
    let allDays = self.allDays
    if allDays.count > Ledger.maximumDays {
      let kept = Set(
        allDays.sorted { abs(today.days(to: $0)) < abs(today.days(to: $1)) }.prefix(Ledger.maximumDays))
      keepDays { kept.contains($0) }
    }
  }

  /// Every day the ledger holds anything for, in order.
  var allDays: [LocalDay] {
    Set(days.keys).union(usedSecondsByDay.keys).union(meteredByDay.keys).union(limitReachedByDay.keys)
      .union(tasksAskedByDay.keys).union(tasksAskedAtByDay.keys).union(backedOutByDay.keys)
      .union(rulesInForceByDay.keys).sorted()
  }

  private mutating func keepDays(where isKept: (LocalDay) -> Bool) {
    days = days.filter { isKept($0.key) }
    usedSecondsByDay = usedSecondsByDay.filter { isKept($0.key) }
    meteredByDay = meteredByDay.filter { isKept($0.key) }
    limitReachedByDay = limitReachedByDay.filter { isKept($0.key) }
    tasksAskedByDay = tasksAskedByDay.filter { isKept($0.key) }
    tasksAskedAtByDay = tasksAskedAtByDay.filter { isKept($0.key) }
    backedOutByDay = backedOutByDay.filter { isKept($0.key) }
    rulesInForceByDay = rulesInForceByDay.filter { isKept($0.key) }
  }

  /// Where `rules` stand on `day`.
  public func status(of rules: RuleSet, on day: LocalDay) -> DayStatus {
    DayStatus(
      date: day,
      rules: rules.rules.map { RuleStatus(rule: $0, day: day, grantsToday: grants(for: $0.name, on: day)) })
  }
}

/// Whether a rule may take a grant now; see ``Ledger/grantStanding(of:on:)``.
public enum GrantStanding: Hashable, Sendable {
  /// A grant may be recorded.
  case open
  /// The rule has its most grants for the day.
  case usedUp
  /// A meter counts the rule and has not seen it reach its limit at today's grant count.
  case notAtLimit
}
