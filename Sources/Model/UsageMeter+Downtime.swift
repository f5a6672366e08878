public import Time

/// Whether a rule is in downtime at the meter's latest input, and when that next changes.
struct DowntimeState: Hashable, Sendable {
  /// The end of the downtime the input lies in; `nil`: in none.
  var end: WallTime?
  /// When to look again: the end, or the next period's start (`nil`: none ahead).
  var nextChange: WallTime?
  /// The wall time of the look: a clock set back before it looks again.
  var checkedAt: WallTime
}

// Downtime (issue 25 point 5): while a rule is in a downtime period its limit
// is zero, so its apps are shielded from the first second they count and a
// grant lifts nothing; at the period's end the day's limit is back.
extension UsageMeter {
  /// The end of the downtime `rule` is in at the latest input, or `nil`.
  public func downtimeEnd(of rule: String) -> WallTime? {
    downtime[rule]?.end
  }

  /// Looks again at the rules' downtime at the latest input's wall time, where
  /// it may have changed; ``MeterEvent/lifted(rule:)`` for each rule whose
  /// downtime ended with its use under the day's limit.
  mutating func refreshDowntime() -> [MeterEvent] {
    let wall = last.wall
    let rules = settings.rules.rules.filter { !$0.downtime.isEmpty }
    guard !rules.isEmpty else { return [] }
    let wasOver = Set(rules.filter { used(of: $0.name, on: day) >= limit(of: $0, on: day) }.map(\.name))
    var changed = false
    for rule in rules {
      if let state = downtime[rule.name], wall >= state.checkedAt, state.nextChange.map({ wall < $0 }) ?? true {
        continue
      }
      let end = Downtime.until(rule.downtime, at: wall, dayStart: settings.dayStart, in: settings.calendar)
      let next =
        end ?? Downtime.nextStart(rule.downtime, after: wall, dayStart: settings.dayStart, in: settings.calendar)
      let state = DowntimeState(end: end, nextChange: next, checkedAt: wall)
      if downtime[rule.name]?.end != state.end { changed = true }
      downtime[rule.name] = state
    }
    guard changed else { return [] }
    var lifted: [MeterEvent] = []
    for rule in rules where wasOver.contains(rule.name) && used(of: rule.name, on: day) < limit(of: rule, on: day) {
      if !lifted.contains(.lifted(rule: rule.name)) { lifted.append(.lifted(rule: rule.name)) }
    }
    return lifted
  }

  /// How long until a rule's downtime changes in a way that needs the meter:
  /// an end while the rule is in downtime, a start while it counts.
  func downtimeWait(counting: Set<String>) -> Duration? {
    var wait: Duration?
    for (rule, state) in downtime {
      guard let change = state.nextChange, state.end != nil || counting.contains(rule) else { continue }
      let due = max(.zero, change.duration(since: last.wall))
      wait = min(wait ?? due, due)
    }
    return wait
  }
}
