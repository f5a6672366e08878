/// What one rule's apps did on one local day, as the history keeps it.
///
/// Counts only: the names in ``apps`` are the ones the user wrote in
/// `config.json` (a rule's apps and sites), never a window title, a URL or a
/// window name.
public struct HistoryEntry: Hashable, Sendable {
  /// The seconds the rule's apps were used that day (at most ``Ledger/maximumUsedSeconds``).
  public var usedSeconds: Int
  /// Seconds per app or site of the rule that was in front; they sum to at
  /// most ``usedSeconds`` (less only for time counted before the split was
  /// kept, such as a day read from a ledger of an earlier version).
  public var apps: [String: Int] {
    get { Dictionary(uniqueKeysWithValues: appParts.lazy.map { ($0.name, $0.seconds) }) }
    set { appParts = AppPart.sorted(newValue) }
  }
  /// ``apps`` as it is kept: sorted by name, each name once. A year of 100
  /// rules is 36,600 entries; a small array each, not a dictionary, so that
  /// reading and reporting them hashes no app name.
  var appParts: [AppPart]
  /// The day's limit in seconds as the meter had it in force when it last
  /// saved (grants included); `nil` when no meter said it (a day taken from the ledger alone).
  public var limitSeconds: Int?
  /// The grants taken that day.
  public var grants: Int
  /// The shields shown that day (a shield offered again counts again).
  public var shieldsShown: Int
  /// The tasks asked that day.
  public var tasksAsked: Int
  /// The tasks solved that day.
  public var tasksSolved: Int
  /// The times the user backed out or closed the app at the shield.
  public var backedOut: Int

  public init(
    usedSeconds: Int = 0, apps: [String: Int] = [:], limitSeconds: Int? = nil, grants: Int = 0,
    shieldsShown: Int = 0, tasksAsked: Int = 0, tasksSolved: Int = 0, backedOut: Int = 0
  ) {
    self.usedSeconds = usedSeconds
    appParts = AppPart.sorted(apps)
    self.limitSeconds = limitSeconds
    self.grants = grants
    self.shieldsShown = shieldsShown
    self.tasksAsked = tasksAsked
    self.tasksSolved = tasksSolved
    self.backedOut = backedOut
  }

  /// An entry of zeros with the apps `appParts` (sorted by name, each once).
  init(appParts: [AppPart]) {
    usedSeconds = 0
    self.appParts = appParts
    grants = 0
    shieldsShown = 0
    tasksAsked = 0
    tasksSolved = 0
    backedOut = 0
  }

  /// Takes in a later save of the same day and rule.
  ///
  /// The seconds used and their split are the later save's (the ledger the
  /// service has just written is the authority on them, and a change stamped
  /// in the past may have lowered them a little); a split the later save
  /// lacks keeps the stored one. The limit is the later one when it says one.
  /// The counts (grants, shields, tasks, backed out) only grow during a day,
  /// so the larger is kept: a service restarted from an older file never takes one back.
  public mutating func merge(_ later: HistoryEntry) {
    usedSeconds = later.usedSeconds
    if !later.appParts.isEmpty { appParts = later.appParts }
    if let limit = later.limitSeconds { limitSeconds = limit }
    grants = max(grants, later.grants)
    shieldsShown = max(shieldsShown, later.shieldsShown)
    tasksAsked = max(tasksAsked, later.tasksAsked)
    tasksSolved = max(tasksSolved, later.tasksSolved)
    backedOut = max(backedOut, later.backedOut)
    clamp()
  }

  /// Keeps every figure within what a day can hold, and the split within the seconds used.
  mutating func clamp() {
    usedSeconds = min(max(usedSeconds, 0), Ledger.maximumUsedSeconds)
    if let limit = limitSeconds { limitSeconds = min(max(limit, 0), History.maximumLimitSeconds) }
    grants = min(max(grants, 0), Ledger.maximumStoredGrants)
    shieldsShown = min(max(shieldsShown, 0), History.maximumCount)
    tasksAsked = min(max(tasksAsked, 0), History.maximumCount)
    tasksSolved = min(max(tasksSolved, 0), History.maximumCount)
    backedOut = min(max(backedOut, 0), History.maximumCount)
    appParts = AppSplit.fitted(appParts, within: usedSeconds)
  }
}

/// The seconds of one app or site in a ``HistoryEntry``.
struct AppPart: Hashable, Sendable {
  var name: String
  var seconds: Int

  /// `apps` as parts sorted by name (the order the store writes them in).
  static func sorted(_ apps: [String: Int]) -> [AppPart] {
    apps.map { AppPart(name: $0.key, seconds: $0.value) }.sorted { $0.name < $1.name }
  }
}

extension [AppPart] {
  /// The seconds of the app named `name` (a binary search: the parts are sorted by name); 0 when none.
  func seconds(of name: String) -> Int {
    var low = 0
    var high = count
    while low < high {
      let middle = (low + high) / 2
      let part = self[middle]
      if part.name == name { return part.seconds }
      if part.name < name { low = middle + 1 } else { high = middle }
    }
    return 0
  }
}

/// The figures of the last ``keptDays`` local days, per day and rule: what
/// `shieldbridge report` shows (`history.json` in the state folder, beside
/// the ledger; see ``HistoryStore``).
///
/// Pure: the service records each save's figures (``record(_:for:on:)``) and
/// drops old days (``forgetOldDays(keeping:today:)``); the report reads it.
public struct History: Hashable, Sendable {
  /// The version of the file format written by ``json``.
  public static let formatVersion: Int64 = 1
  /// How many days are kept unless `historyDays` says otherwise.
  public static let defaultKeptDays = 90
  /// What `historyDays` may say: a week up to a leap year.
  public static let keptDaysRange = 7...366
  /// The largest count of shields, tasks or backing out a day can hold in a stored history.
  public static let maximumCount = 100_000
  /// The largest limit a day can hold: a whole day of 1440 minutes and 100 grants of 120 minutes, in seconds.
  public static let maximumLimitSeconds = (1_440 + 100 * 120) * 60

  /// The figures per day, per rule name.
  public private(set) var days: [LocalDay: [String: HistoryEntry]]
  /// Days before this one were forgotten (`report --forget`): nothing is recorded for them again.
  public private(set) var forgottenBefore: LocalDay?

  /// An empty history.
  public init() {
    days = [:]
  }

  package init(days: [LocalDay: [String: HistoryEntry]], forgottenBefore: LocalDay?) {
    self.days = days
    self.forgottenBefore = forgottenBefore
  }

  /// The figures of the rule named `rule` on `day`; `nil` when the history holds none.
  public func entry(for rule: String, on day: LocalDay) -> HistoryEntry? {
    days[day]?[rule]
  }

  /// Records a save's figures for `rule` on `day`, merged with what is stored
  /// (``HistoryEntry/merge(_:)``); a day before ``forgottenBefore`` is not recorded.
  public mutating func record(_ entry: HistoryEntry, for rule: String, on day: LocalDay) {
    if let forgottenBefore, day < forgottenBefore { return }
    var stored = days[day]?[rule] ?? HistoryEntry()
    stored.merge(entry)
    days[day, default: [:]][rule] = stored
  }

  /// Drops every day `keptDays` or more days before `today` (`keptDays`
  /// within ``keptDaysRange``), so that `today` and the `keptDays - 1` days
  /// before it stay. Days after `today` stay: the clock may have been set back, and that use was real.
  public mutating func forgetOldDays(keeping keptDays: Int, today: LocalDay) {
    days = days.filter { History.keeps($0.key, keeping: keptDays, today: today) }
  }

  /// Whether ``forgetOldDays(keeping:today:)`` keeps `day`.
  public static func keeps(_ day: LocalDay, keeping keptDays: Int, today: LocalDay) -> Bool {
    let kept = min(max(keptDays, History.keptDaysRange.lowerBound), History.keptDaysRange.upperBound)
    return today.days(to: day) > -kept
  }

  /// Forgets every day before `day` (`report --forget --before DATE`), or
  /// before `today` when `day` is `nil` or later: today's use and grants stay,
  /// they are the limit. Days before it are not recorded again, though the
  /// ledger still holds its last week until it drops them.
  ///
  /// - Returns: How many days were removed.
  @discardableResult
  public mutating func forget(before day: LocalDay?, today: LocalDay) -> Int {
    let cut = min(day ?? today, today)
    let before = days.count
    days = days.filter { $0.key >= cut }
    forgottenBefore = max(forgottenBefore ?? cut, cut)
    return before - days.count
  }
}

/// How the seconds of a rule are split among its apps and sites.
public enum AppSplit {
  /// Whole seconds per app that sum to exactly `total` whole seconds of
  /// the rule, from the exact `parts` (largest remainder first, then the name).
  ///
  /// Rounding each part down would lose up to a second per app; the seconds
  /// lost go to the parts that lost the most, so the split always sums to
  /// the rule's count. When the parts sum to less than the rule (time counted
  /// before the split was kept), each is its whole seconds and the rest stays unsplit.
  public static func wholeSeconds(_ parts: [String: Duration], total: Int) -> [String: Int] {
    var whole: [String: Int] = [:]
    var remainders: [(name: String, rest: Duration)] = []
    var sum = 0
    for (name, part) in parts where part > .zero {
      let seconds = part.components.seconds
      whole[name] = Int(seconds)
      sum += Int(seconds)
      remainders.append((name, part - .seconds(seconds)))
    }
    let exact = parts.values.reduce(Duration.zero, +)
    // The rule counts the same time as its parts: its whole seconds are the parts' sum, rounded down.
    var missing = min(total, Int(exact.components.seconds)) - sum
    remainders.sort { $0.rest != $1.rest ? $0.rest > $1.rest : $0.name < $1.name }
    for entry in remainders where missing > 0 && entry.rest > .zero {
      whole[entry.name, default: 0] += 1
      missing -= 1
    }
    return fitted(whole.filter { $0.value > 0 }, within: total)
  }

  /// ``fitted(_:within:)`` of an entry's parts, sorted by name as they came.
  static func fitted(_ parts: [AppPart], within total: Int) -> [AppPart] {
    // What a stored day nearly always is: nothing to take off, no copy made.
    var sum = 0
    var unchanged = true
    for part in parts where unchanged {
      let (next, overflow) = sum.addingReportingOverflow(part.seconds)
      unchanged = part.seconds > 0 && !overflow
      sum = next
    }
    if unchanged, sum <= total { return parts }
    let split = Dictionary(parts.lazy.map { ($0.name, $0.seconds) }) { _, last in last }
    return AppPart.sorted(fitted(split, within: total))
  }

  /// `split` with no more than `total` seconds in all: what is above it is
  /// taken from the largest parts first (then by name), so a split never
  /// says more than the rule used.
  public static func fitted(_ split: [String: Int], within total: Int) -> [String: Int] {
    // What a stored day nearly always is: nothing to take off, no copy made.
    var sum = 0
    var unchanged = true
    for seconds in split.values where unchanged {
      let (next, overflow) = sum.addingReportingOverflow(seconds)
      unchanged = seconds > 0 && !overflow
      sum = next
    }
    if unchanged, sum <= total { return split }
    var result = split.filter { $0.value > 0 }
    var over = result.values.reduce(0, +) - max(total, 0)
    while over > 0, let largest = result.max(by: { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }) {
      let taken = min(over, largest.value)
      result[largest.key] = largest.value - taken
      if result[largest.key] == 0 { result[largest.key] = nil }
      over -= taken
    }
    return result
  }
}
