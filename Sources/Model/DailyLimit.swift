/// A rule's minutes a day before any grant: one number for every day, or
/// one for each day of the week (`{"mon-fri": 5, "sat,sun": 30}` in `config.json`).
///
/// The limit of a local day is the one of its weekday (``minutes(on:)``);
/// the day is the ledger's local day, so with a day start other than
/// midnight a late evening counts as the weekday it belongs to.
public struct DailyLimit: Hashable, Sendable, CustomStringConvertible {
  /// The minutes of each weekday, Monday first; always seven.
  public private(set) var minutesByWeekday: [Int]

  /// The same minutes every day.
  public init(minutes: Int) {
    minutesByWeekday = Array(repeating: minutes, count: 7)
  }

  /// The minutes of each weekday, as `minutes` gives them.
  public init(byWeekday minutes: (Weekday) -> Int) {
    minutesByWeekday = Weekday.allCases.map(minutes)
  }

  /// The limit of groups of days, each day in exactly one group.
  ///
  /// - Throws: ``DailyLimitError`` naming a day in two groups, or a day in none.
  public init(groups: [(days: Weekdays, minutes: Int)]) throws(DailyLimitError) {
    var found: [Weekday: Int] = [:]
    var minutes = Array(repeating: 0, count: 7)
    for (index, group) in groups.enumerated() {
      for day in group.days.days {
        if let other = found[day] { throw .twice(day, first: other, second: index) }
        found[day] = index
        minutes[day.rawValue] = group.minutes
      }
    }
    if let missing = Weekday.allCases.first(where: { found[$0] == nil }) { throw .missing(missing) }
    minutesByWeekday = minutes
  }

  /// The minutes of a day on `weekday`.
  public func minutes(on weekday: Weekday) -> Int { minutesByWeekday[weekday.rawValue] }

  /// The minutes of the local day `day`.
  public func minutes(on day: LocalDay) -> Int { minutes(on: day.weekday) }

  /// Whether every day has the same minutes (then `config.json` writes one number).
  public var isUniform: Bool { Set(minutesByWeekday).count == 1 }

  /// The fewest and the most minutes of a day.
  public var lowest: Int { minutesByWeekday.min()! }
  public var highest: Int { minutesByWeekday.max()! }

  /// The days whose minutes are those of `weekday`, `weekday` among them.
  public func days(like weekday: Weekday) -> Weekdays {
    Weekdays(Weekday.allCases.filter { minutes(on: $0) == minutes(on: weekday) })
  }

  /// The groups of days with the same minutes, in the order of their first day:
  /// what `config.json` writes for limits that differ by day.
  public var groups: [(days: Weekdays, minutes: Int)] {
    var seen: Set<Int> = []
    return Weekday.allCases.compactMap { day in
      seen.insert(minutes(on: day)).inserted ? (days(like: day), minutes(on: day)) : nil
    }
  }

  /// The lower of the two limits on each day: ``Rule/tightened(by:)``'s
  /// rule, so that a day whose minutes went up is a loosening of that day
  /// alone, and waits until the next day start.
  public func lower(with other: DailyLimit) -> DailyLimit {
    DailyLimit { min(minutes(on: $0), other.minutes(on: $0)) }
  }

  /// `5` when uniform, else `mon-fri 5, sat,sun 30`.
  public var description: String {
    isUniform ? String(lowest) : groups.map { "\($0.days) \($0.minutes)" }.joined(separator: ", ")
  }
}

/// Why groups of days make no daily limit.
public enum DailyLimitError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A day is in two groups (by their index).
  case twice(Weekday, first: Int, second: Int)
  /// A day is in no group.
  case missing(Weekday)

  public var description: String {
    switch self {
    case .twice(let day, _, _): "\(day) has two limits; name each day once"
    case .missing(let day): "\(day) has no limit; name every day from mon to sun once"
    }
  }
}
