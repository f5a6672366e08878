public import Model

/// What a panel shows at a glance (issue 36): the rule of the app or site in
/// front and its time left today, or that it is used up or in downtime.
/// `nil` while nothing a rule covers is in front: the panel then shows nothing of ours.
public struct Glance: Hashable, Sendable {
  public enum State: Hashable, Sendable {
    /// Time left today, in whole minutes rounded up: "3 min left" until the third minute has gone.
    case left(minutes: Int)
    /// The limit is reached (and not lifted by a task).
    case usedUp
    /// In the rule's downtime, until the local time given ("07:00").
    case downtime(until: String)
  }

  public var rule: String
  /// The name of the rule's app or site in front, as `config.json` writes it.
  public var app: String
  public var state: State

  public init(rule: String, app: String, state: State) {
    self.rule = rule
    self.app = app
    self.state = state
  }
}

extension ShieldCore {
  /// What a panel shows now (``Glance``), from the window in front as last
  /// reported; `nil` while nothing covered is in front, or only running apps are seen (process fallback).
  public func glance(at now: MeterInstant) -> Glance? {
    guard watching == .focus, let focused, let usage = meter.usage(of: focused.rule.name) else { return nil }
    let rule = focused.rule.name
    let state: Glance.State
    if let end = meter.downtimeEnd(of: rule) {
      state = .downtime(until: Downtime.endText(end, from: now.wall, in: settings.calendar))
    } else if usage.overLimit {
      state = .usedUp
    } else {
      state = .left(minutes: Self.minutesShown(usage.limit - usage.used, minute: settings.minuteLength))
    }
    return Glance(rule: rule, app: focused.app.name, state: state)
  }

  /// Asks the service to tell the panels when what they show changed since the last time.
  mutating func tellGlance(at now: MeterInstant, effects: inout Effects) {
    let current = glance(at: now)
    guard current != toldGlance else { return }
    toldGlance = current
    effects.append(.glance(current))
  }

  /// How long until the minutes shown go down by one: only while the rule in
  /// front counts (one wake-up per minute shown, none while nothing covered is in front or nothing counts).
  func glanceWait() -> Duration? {
    guard watching == .focus, let focused, meter.countingRules.contains(focused.rule.name),
      let usage = meter.usage(of: focused.rule.name), !usage.overLimit
    else { return nil }
    let left = usage.limit - usage.used
    let shown = Self.minutesShown(left, minute: settings.minuteLength)
    return left - settings.minuteLength * (shown - 1)
  }

  /// `left` in whole minutes of `minute`, rounded up: a part of a minute shows as one more.
  static func minutesShown(_ left: Duration, minute: Duration) -> Int {
    guard left > .zero, minute > .zero else { return 0 }
    let whole = Int((left / minute).rounded(.down))
    return left > minute * whole ? whole + 1 : whole
  }
}
