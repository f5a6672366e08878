/// A day of the week, Monday first, as `config.json` names them: `mon` … `sun`.
public enum Weekday: Int, CaseIterable, Hashable, Sendable, Comparable, CustomStringConvertible {
  case monday, tuesday, wednesday, thursday, friday, saturday, sunday

  /// `mon`, `tue`, … `sun`.
  public var name: String { Weekday.names[rawValue] }

  public var description: String { name }

  /// The day named `name` (`mon` … `sun`, compared without regard to case).
  public init?(name: some StringProtocol) {
    guard let index = Weekday.names.firstIndex(of: name.lowercased()) else { return nil }
    self.init(rawValue: index)!
  }

  /// The day after this one; `sun` is followed by `mon`.
  public var next: Weekday { Weekday(rawValue: (rawValue + 1) % 7)! }

  public static func < (left: Weekday, right: Weekday) -> Bool { left.rawValue < right.rawValue }

  static let names = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
}

extension LocalDay {
  /// The day of the week of this date (1970-01-01 was a Thursday).
  public var weekday: Weekday {
    let shifted = (dayNumber + 3) % 7
    return Weekday(rawValue: shifted < 0 ? shifted + 7 : shifted)!
  }
}

/// A set of weekdays, as `config.json` writes them: names, ranges and lists,
/// such as `mon-fri`, `sat,sun` or `fri-mon`.
///
/// A range runs forward through the week and wraps after Sunday, so
/// `fri-mon` is Friday, Saturday, Sunday and Monday, and `sun-thu` is Sunday
/// to Thursday; a range whose two ends are one day is that day. The written
/// form (``description``) lists the days Monday first, a run of three or
/// more days as a range and never wrapping: `mon-fri`, `sat,sun`, `mon,fri-sun`.
public struct Weekdays: Hashable, Sendable, CustomStringConvertible {
  /// One bit per day, Monday in the lowest.
  public private(set) var bits: UInt8

  public init(_ days: some Sequence<Weekday>) {
    bits = 0
    for day in days { insert(day) }
  }

  /// Every day of the week.
  public static let all = Weekdays(Weekday.allCases)

  public var isEmpty: Bool { bits == 0 }

  public func contains(_ day: Weekday) -> Bool { bits & (1 << day.rawValue) != 0 }

  public mutating func insert(_ day: Weekday) { bits |= 1 << day.rawValue }

  /// The days, Monday first.
  public var days: [Weekday] { Weekday.allCases.filter(contains) }

  /// The days of `text`: comma-separated names (`mon` … `sun`) and ranges
  /// (`mon-fri`, wrapping after Sunday), spaces around them allowed.
  ///
  /// - Throws: ``WeekdaysError`` naming what is not a day, or a day listed twice.
  public init(parsing text: some StringProtocol) throws(WeekdaysError) {
    bits = 0
    for part in String(text).split(separator: ",", omittingEmptySubsequences: false) {
      let trimmed = part.trimmingSpaces
      let ends = trimmed.split(separator: "-", omittingEmptySubsequences: false)
      guard (1...2).contains(ends.count) else { throw .notADay(String(trimmed)) }
      var range: [Weekday] = []
      for end in ends {
        guard let day = Weekday(name: end.trimmingSpaces) else { throw .notADay(String(end.trimmingSpaces)) }
        range.append(day)
      }
      var day = range[0]
      while true {
        guard !contains(day) else { throw .repeated(day) }
        insert(day)
        if day == range[range.count - 1] { break }
        day = day.next
      }
    }
  }

  public var description: String {
    var parts: [String] = []
    var index = 0
    while index < 7 {
      guard contains(Weekday(rawValue: index)!) else {
        index += 1
        continue
      }
      var end = index
      while end + 1 < 7, contains(Weekday(rawValue: end + 1)!) { end += 1 }
      let first = Weekday(rawValue: index)!.name
      let last = Weekday(rawValue: end)!.name
      switch end - index {
      case 0: parts.append(first)
      case 1: parts += [first, last]
      default: parts.append(first + "-" + last)
      }
      index = end + 1
    }
    return parts.joined(separator: ",")
  }
}

/// Why a text names no set of weekdays.
public enum WeekdaysError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A part is not a day's name or a range of two.
  case notADay(String)
  /// A day is named twice in the one text.
  case repeated(Weekday)

  public var description: String {
    switch self {
    case .notADay(let text):
      "\"\(text)\" is not a day: write mon, tue, wed, thu, fri, sat or sun, a range such as mon-fri, "
        + "or a list such as sat,sun"
    case .repeated(let day): "\(day) is named twice"
    }
  }
}

extension Substring {
  /// The text without the spaces around it.
  fileprivate var trimmingSpaces: Substring {
    var text = self
    while text.first == " " { text = text.dropFirst() }
    while text.last == " " { text = text.dropLast() }
    return text
  }
}
