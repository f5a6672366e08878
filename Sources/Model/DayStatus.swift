public import JSON
public import Time

/// Where one rule stands today.
public struct RuleStatus: Hashable, Sendable {
  public var rule: Rule
  /// The local day the status is of; its weekday picks the daily limit.
  public var day: LocalDay
  /// Puzzles solved for the rule today, as many as count (``Rule/countedGrants(_:)``).
  public var grantsToday: Int
  /// The rule's downtime as it stands, when the caller looked (local times, ``Downtime/endText(_:from:)``):
  /// in downtime until `to` (`from` is `nil`), or the next one within a day from `from` to `to`.
  public var downtime: DowntimeStanding?

  /// The status of `rule` on `day` with `grantsToday` grants stored; more than the rule allows count as its maximum.
  public init(rule: Rule, day: LocalDay, grantsToday: Int) {
    self.rule = rule
    self.day = day
    self.grantsToday = rule.countedGrants(grantsToday)
  }

  /// The day's daily limit (of its weekday) before any grant.
  public var dailyLimitMinutes: Int { rule.dailyLimitMinutes(on: day) }

  /// The days that share the day's daily limit when the limit differs by weekday (`mon-fri`); `nil` when it does not.
  public var dailyLimitDays: Weekdays? {
    rule.dailyLimit.isUniform ? nil : rule.dailyLimit.days(like: day.weekday)
  }

  /// `dailyLimitMinutes(on: day) + grantsToday × grantMinutes`.
  public var limitTodayMinutes: Int { rule.limitMinutes(grants: grantsToday, on: day) }

  /// Puzzles that can still be solved today.
  public var grantsLeft: Int { max(0, rule.maxGrantsPerDay - grantsToday) }

  /// Whether today's grants are used up, so no puzzle should be offered.
  public var isUsedUp: Bool { grantsLeft == 0 }

  /// `{"name":…,"apps":[…],"dailyLimitMinutes":…,"grantMinutes":…,"maxGrantsPerDay":…,"grantsToday":…,"limitTodayMinutes":…}`,
  /// with `"sites":[…]` after the apps when any of them names websites. The
  /// daily limit is the day's; when the limit differs by weekday,
  /// `"dailyLimitDays":"mon-fri"` after it names the days that share it.
  public var json: JSONValue {
    let sites = rule.apps.flatMap(\.sites).map { JSONValue.string($0.name) }
    return .object(
      [("name", .string(rule.name)), ("apps", .array(rule.apps.map { .string($0.name) }))]
        + (sites.isEmpty ? [] : [("sites", .array(sites))]) + [
          ("dailyLimitMinutes", .int(dailyLimitMinutes))
        ] + (dailyLimitDays.map { [("dailyLimitDays", .string($0.description))] } ?? []) + [
          ("grantMinutes", .int(rule.grantMinutes)),
          ("maxGrantsPerDay", .int(rule.maxGrantsPerDay)),
          ("grantsToday", .int(grantsToday)),
          ("limitTodayMinutes", .int(limitTodayMinutes)),
        ] + downtimeJSON)
  }

  /// `"downtimeUntil":"07:00"` while in downtime, `"downtimeFrom":"22:00","downtimeTo":"07:00"` before the next.
  private var downtimeJSON: [(String, JSONValue)] {
    guard let downtime else { return [] }
    guard let from = downtime.from else { return [("downtimeUntil", .string(downtime.to))] }
    return [("downtimeFrom", .string(from)), ("downtimeTo", .string(downtime.to))]
  }
}

/// Where every rule stands on one local day; what `shieldbridge status` prints.
public struct DayStatus: Hashable, Sendable {
  public var date: LocalDay
  public var rules: [RuleStatus]

  public init(date: LocalDay, rules: [RuleStatus]) {
    self.date = date
    self.rules = rules
  }

  /// `{"date":"2026-11-29","rules":[…]}`, keys in this order.
  public var json: JSONValue {
    .object([("date", .string(date.description)), ("rules", .array(rules.map(\.json)))])
  }
}

/// A rule's downtime as `status` shows it, in local times (``Downtime/endText(_:from:)``).
public struct DowntimeStanding: Hashable, Sendable {
  /// The start of the next downtime; `nil` while in one.
  public var from: String?
  /// The end of the downtime the rule is in, or of the next.
  public var to: String

  public init(from: String?, to: String) {
    self.from = from
    self.to = to
  }

  /// The rule's standing at `now`: in a downtime, or one beginning within a day; `nil`: neither.
  public static func of(
    _ rule: Rule, at now: WallTime, dayStart: ClockTime, in calendar: LocalCalendar
  ) -> DowntimeStanding? {
    if let end = Downtime.until(rule.downtime, at: now, dayStart: dayStart, in: calendar) {
      return DowntimeStanding(from: nil, to: Downtime.endText(end, from: now, in: calendar))
    }
    guard let start = Downtime.nextStart(rule.downtime, after: now, dayStart: dayStart, in: calendar),
      start.secondsSince1970 - now.secondsSince1970 < 86_400,
      let end = Downtime.until(rule.downtime, at: start, dayStart: dayStart, in: calendar)
    else { return nil }
    return DowntimeStanding(
      from: Downtime.endText(start, from: now, in: calendar), to: Downtime.endText(end, from: now, in: calendar))
  }
}
