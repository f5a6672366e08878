public import Time

/// Counts the time each rule's apps are used per local day and says when a
/// rule reaches its warning, its limit, and when a grant lifts it.
///
/// Pure accounting: it is told what happens (which rules' apps are in use,
/// idle, inhibition, the screen, the clocks) and answers with events; it does
/// no I/O and reads no clock itself. A rule's time counts while its apps are in
/// use, the screen is visible, and input is not idle (or idle is inhibited,
/// as by a playing video). Every input first counts the time since the
/// previous one under the state that held until then, so the count is exact
/// to the nanosecond however often focus changes.
///
/// Each input carries the moment it happened, which is the source's own
/// time where it gives one (an X server's timestamp, ``EventClock``), so it
/// can lie before what was already booked: the timer ran first after the
/// process was stopped, or a batch of events was read late. A change of
/// state (in use, idle, inhibited, the screen) stamped in the past is booked
/// again from its stamp: the time booked since then to the state before it
/// moves to the state after it (or to nothing), never further back than the
/// previous change. Where the source gives no time and the process did not
/// run, ``unobserved(since:at:)`` books the span as unknown, which is not use.
///
/// Durations come only from the monotonic clock, days from the wall clock
/// checked against the boot time: a wall clock set back or forward never
/// changes the amount, and a day ends only when both say so. A local day's
/// time spans from its local midnight to the next (23 or 25 hours on the days
/// DST changes), as the zone said when the day began, so a zone changed
/// during the day does not move its end; time that spans midnight is split
/// between the two days, and the new day starts every rule from its base
/// limit. A wall clock set forward counts only as far as the boot time
/// (`CLOCK_BOOTTIME`, which counts suspend) has moved since the day began,
/// so it does not open the next day early; one set back keeps the day until
/// the wall clock reaches its midnight again. Days only move forward: a day
/// the meter already holds (the ledger's, after a clock set back across a
/// restart) continues its count when it comes.
///
/// The meter reads its start from the ``Ledger`` (today's use and grants, so a
/// restart keeps the day's use) and the caller saves ``usedSecondsToday`` (or
/// ``usedSecondsByDay``) back. Nothing here sleeps or polls: the caller waits
/// for the desktop's next event or ``nextDeadline()``, whichever comes first.
public struct UsageMeter: Sendable {
  /// What the meter counts against.
  public struct Settings: Hashable, Sendable {
    public var rules: RuleSet
    /// Input idle longer than this stops the count, unless idle is inhibited.
    ///
    /// The desktop backend measures it (`events(idleAfter:)`) and reports
    /// ``UsageMeter/idle(_:at:)``; the count stops from that report on.
    public var idleLimit: Duration
    /// How long a minute of the rules' limits lasts: 60 s, except in the demo and the tests.
    public var minuteLength: Duration
    /// When a local day begins (`dayStartsAt`); midnight unless set.
    public var dayStart: ClockTime = .midnight
    /// The time zone the local days and downtime hours are read in: the process's (`.system`) for the service.
    public var calendar: LocalCalendar

    public init(
      rules: RuleSet, calendar: LocalCalendar, idleLimit: Duration = .seconds(300),
      minuteLength: Duration = .seconds(60)
    ) {
      self.rules = rules
      self.calendar = calendar
      self.idleLimit = idleLimit
      self.minuteLength = minuteLength
    }
  }

  /// The rules and the length of their minutes.
  public let settings: Settings
  /// The configured rules by name (the first of a name, should two share one).
  private let rulesByName: [String: Rule]
  /// The days the meter holds: those of the ledger it started from, and those it has seen since.
  private var days: [LocalDay: MeterDay]
  /// The local day of the latest input (the day time counts towards now),
  /// the wall and boot times it began at, and its end (``DayAnchor``).
  ///
  /// The end is kept rather than worked out again: a zone changed since must
  /// not move it, and working it out takes `mktime` and several
  /// `localtime_r`, each reading the zone again. The wall time of a later
  /// input counts only as far as the boot time has moved since the anchor.
  private var anchor: DayAnchor
  /// Whether the meter was given this boot's id, so that its anchor is worth storing.
  private let knowsBoot: Bool
  /// The local day of the latest input: the day time counts towards now.
  public var day: LocalDay { anchor.day }
  /// The events already given on ``day``.
  private var notices: [String: MeterNotices] = [:]
  /// Per rule with downtime periods, whether the latest input lies in one and until when (``DowntimeState``).
  var downtime: [String: DowntimeState] = [:]
  /// The latest input: the largest monotonic reading seen, the boot time, and
  /// the wall time that came with the latest as far as the boot time vouches for it.
  private(set) var last: MeterInstant
  /// When the state (in use, idle, inhibited, the screen) last changed: a
  /// change stamped earlier is booked from here, not from its stamp.
  private var stateSince: MonotonicTime
  /// The time from ``stateSince`` to ``last`` by the day it was booked on, in
  /// order: what a change stamped in the past books again.
  private var sinceChange: [Booked] = []

  /// A span booked on one day, whether or not anything counted during it.
  private struct Booked: Sendable {
    var day: LocalDay
    var time: Duration
  }

  /// How far a wall clock may run ahead of the boot time since the day began
  /// and still count: readings of the two clocks are not taken at one instant,
  /// and a small step of the time service is no attack. A day ends at most this early.
  public static let wallClockTolerance: Duration = .seconds(300)

  /// The shortest a day is when the meter moves into it from the day before:
  /// the day DST starts, less ``wallClockTolerance``. A zone moved east ends
  /// the day after the move no sooner than this, so a zone change cannot make
  /// a day of a few hours with a fresh limit.
  public static let minimumDayLength: Duration = .seconds(23 * 3_600) - wallClockTolerance

  /// The configured rules whose apps are in use.
  public private(set) var rulesInUse: Set<String> = []
  /// Per rule in use, the name of its app or site in front (the name in
  /// `config.json`): its time is split by these (``appSeconds(on:)``).
  public private(set) var appsInUse: [String: String] = [:]
  /// Whether input has been idle longer than the idle limit.
  public private(set) var isIdle = false
  /// Whether something (a playing video) inhibits idle.
  public private(set) var isInhibited = false
  /// Whether the screen is on and unlocked.
  public private(set) var isScreenVisible = true

  /// A meter that starts at `now` with the use and grants stored in `ledger`.
  ///
  /// Nothing is in use yet, input is not idle and the screen is visible,
  /// until the caller says otherwise. With `bootID` (``BootTime/bootID``),
  /// the day is the one the ledger's ``Ledger/dayAnchor`` gives when it is
  /// of this boot (``DayAnchor/resuming(_:bootID:at:)``), so a restart with
  /// the clock or the zone changed stays on the day; without one, or after a
  /// reboot, the wall clock's day.
  ///
  /// `appSeconds` is the split by app of the days' seconds as the history
  /// last kept it (``appSeconds(on:)``), so a restart keeps the split too.
  public init(
    settings: Settings, ledger: Ledger, now: MeterInstant, bootID: String? = nil,
    appSeconds: [LocalDay: [String: [String: Int]]] = [:]
  ) {
    self.settings = settings
    var rulesByName: [String: Rule] = [:]
    for rule in settings.rules.rules where rulesByName[rule.name] == nil { rulesByName[rule.name] = rule }
    self.rulesByName = rulesByName
    var days: [LocalDay: MeterDay] = [:]
    for (day, grants) in ledger.days { days[day, default: MeterDay()].grants = grants }
    for (day, used) in ledger.usedSecondsByDay {
      days[day, default: MeterDay()].used = used.mapValues { Duration.seconds(max(0, $0)) }
    }
    for (day, rules) in appSeconds where days[day] != nil {
      for (rule, split) in rules {
        let used = days[day]?.used[rule]?.wholeSeconds ?? 0
        days[day]?.apps[rule] = AppSplit.fitted(split, within: used).mapValues { Duration.seconds($0) }
      }
    }
    self.days = days
    knowsBoot = bootID != nil
    anchor = DayAnchor.resuming(
      ledger.dayAnchor, bootID: bootID ?? "", at: now, dayStart: settings.dayStart, in: settings.calendar)
    last = now
    stateSince = now.monotonic
    _ = refreshDowntime()
  }

  // MARK: Inputs

  /// The rules whose apps are in use now: the focused window's rule, or
  /// (process fallback) the rules of every covered app that runs. Empty: none.
  ///
  /// Names that no configured rule has are ignored; each rule counts once,
  /// however many of its apps are in use.
  public mutating func inUse(_ rules: Set<String>, at now: MeterInstant) -> [MeterEvent] {
    inUse(apps: Dictionary(uniqueKeysWithValues: rules.map { ($0, "") }), at: now)
  }

  /// The rules whose apps are in use now, each with the name of its app or
  /// site in front (the name in `config.json`; empty: not known), as
  /// ``inUse(_:at:)`` takes them. The rule's time is split by these names.
  public mutating func inUse(apps: [String: String], at now: MeterInstant) -> [MeterEvent] {
    updateState(at: now) { meter in
      meter.appsInUse = apps.filter { meter.rulesByName[$0.key] != nil && !$0.value.isEmpty }
      meter.rulesInUse = Set(apps.keys).intersection(meter.rulesByName.keys)
    }
  }

  /// Input has been idle longer than the idle limit (`true`), or input came again.
  public mutating func idle(_ isIdle: Bool, at now: MeterInstant) -> [MeterEvent] {
    updateState(at: now) { $0.isIdle = isIdle }
  }

  /// Something inhibits idle (`true`: a video plays), or it stopped.
  public mutating func inhibited(_ isInhibited: Bool, at now: MeterInstant) -> [MeterEvent] {
    updateState(at: now) { $0.isInhibited = isInhibited }
  }

  /// The screen is on and unlocked (`true`), or blanked or locked.
  public mutating func screenVisible(_ isVisible: Bool, at now: MeterInstant) -> [MeterEvent] {
    updateState(at: now) { $0.isScreenVisible = isVisible }
  }

  /// Whether an input at `now` would move the meter to another day: the one
  /// moment its caller checks the boot time against the kernel's before it
  /// hands the input in (``CheckedBootClock/recheck(_:)``), so that every
  /// other input costs no read of `/proc`.
  public func endsDay(at now: MeterInstant) -> Bool {
    let reading = anchor.reading(wall: now.wall, boot: now.boot, dayStart: settings.dayStart, in: settings.calendar)
    return reading.dayEnded && reading.day != day
  }

  /// Time passed: counts it and returns what became due (a warning, a limit, a new day).
  public mutating func advance(to now: MeterInstant) -> [MeterEvent] {
    update(at: now) { _, _ in }
  }

  /// The process did not run from `start` until `now`, and the source of the
  /// state gives no time of its own (a timer due at `start` fired only now):
  /// what happened meanwhile is unknown, so the span counts as no use.
  ///
  /// The time up to `start` counts as usual; the state stays as it was, and
  /// counts again from `now` on. A change reported after this with a stamp
  /// before `now` is booked from `now`.
  public mutating func unobserved(since start: MonotonicTime, at now: MeterInstant) -> [MeterEvent] {
    var events = account(until: now.backdated(to: start))
    events += account(until: now, counting: false)
    stateSince = max(stateSince, now.monotonic)
    sinceChange = []
    announce(into: &events)
    return events
  }

  /// Today's grants for `rule` are now `grantsToday` (a puzzle was solved).
  ///
  /// A count no higher than the one the meter has changes nothing. A higher
  /// one raises today's limit: ``MeterEvent/lifted(rule:)`` when the rule was
  /// over its limit and no longer is, and a new warning before the new limit
  /// when it is far enough ahead for one.
  public mutating func granted(_ rule: String, grantsToday: Int, at now: MeterInstant) -> [MeterEvent] {
    update(at: now) { meter, events in
      guard let configured = meter.rulesByName[rule] else { return }
      meter.raiseGrants(of: configured, to: grantsToday, events: &events)
    }
  }

  /// Takes in what another writer stored: for every day the ledger holds,
  /// the larger of its and the meter's grants and seconds used.
  ///
  /// For the value ``LedgerStore/recordUsage(_:on:)`` returns, or a ledger
  /// read after another process recorded a grant. More grants today act as
  /// ``granted(_:grantsToday:at:)`` does.
  public mutating func absorb(_ ledger: Ledger, at now: MeterInstant) -> [MeterEvent] {
    update(at: now) { meter, events in
      for (day, grants) in ledger.days {
        for (name, count) in grants where count > meter.storedGrants(of: name, on: day) {
          if day == meter.day, let rule = meter.rulesByName[name] {
            meter.raiseGrants(of: rule, to: count, events: &events)
          } else {
            meter.days[day, default: MeterDay()].grants[name] = count
          }
        }
      }
      for (day, used) in ledger.usedSecondsByDay {
        for (name, seconds) in used where Duration.seconds(seconds) > meter.used(of: name, on: day) {
          meter.days[day, default: MeterDay()].used[name] = .seconds(seconds)
        }
      }
    }
  }

  // MARK: Reading

  /// The configured rules whose time counts now.
  public var countingRules: Set<String> {
    guard isScreenVisible, !isIdle || isInhibited else { return [] }
    return rulesInUse
  }

  /// When ``advance(to:)`` must next be called for an event to come on time:
  /// the next warning, limit or local midnight while something counts.
  ///
  /// `nil` while nothing counts, so the caller sleeps until the desktop says
  /// something. Midnight is a monotonic estimate from the latest wall time; if
  /// it comes early, the next deadline is the rest of the way.
  public func nextDeadline() -> MonotonicTime? {
    let counting = countingRules
    // A downtime's end while a rule is in it (the rule is lifted then, counted or not),
    // its start while the rule counts.
    var wait = downtimeWait(counting: counting)
    guard !counting.isEmpty else { return wait.map { last.monotonic.adding($0) } }
    // The day's own midnight, from the wall time the boot time vouches for
    // (what `last` holds): a clock set forward makes nothing due at once.
    if let midnight = anchor.midnight {
      let due = max(.zero, midnight.duration(since: last.wall))
      wait = min(wait ?? due, due)
    }
    for rule in settings.rules.rules where counting.contains(rule.name) {
      let used = used(of: rule.name, on: day)
      let limit = limit(of: rule, on: day)
      guard used < limit else { continue }
      var due = limit - used
      if warns(rule, before: limit), notices[rule.name]?.warnedFor != limit {
        let untilWarning = limit - warningLead(of: rule) - used
        if untilWarning > .zero { due = untilWarning }
      }
      wait = min(wait ?? due, due)
    }
    return wait.map { last.monotonic.adding($0) }
  }

  /// Whether the rule named `rule` is at or over today's limit at the latest
  /// input (a downtime's limit is zero); `false` for a name no rule has.
  public func isAtLimit(_ rule: String) -> Bool {
    guard let configured = rulesByName[rule] else { return false }
    return isOver(configured, on: day)
  }

  /// Where `rule` stands today, as of the latest input (call ``advance(to:)``
  /// first for the time since); `nil` for a name no rule has.
  public func usage(of rule: String) -> RuleUsage? {
    guard let configured = rulesByName[rule] else { return nil }
    return RuleUsage(
      rule: rule, used: used(of: rule, on: day), limit: limit(of: configured, on: day),
      grantsToday: grants(of: rule, on: day), counting: countingRules.contains(rule))
  }

  /// Today's limit of `rule` in whole seconds as the day has it, without a
  /// downtime's zero: what the history keeps as the day's limit; `nil` for a name no rule has.
  public func dayLimitSeconds(of rule: String) -> Int? {
    guard let configured = rulesByName[rule] else { return nil }
    return (settings.minuteLength * configured.limitMinutes(grants: grants(of: rule, on: day), on: day)).wholeSeconds
  }

  /// Where every rule stands today, in the order of the rules.
  public var usages: [RuleUsage] {
    var seen: Set<String> = []
    return settings.rules.rules.compactMap { seen.insert($0.name).inserted ? usage(of: $0.name) : nil }
  }

  /// The anchor of the day, to store in the ledger for the next start on this
  /// boot and for the processes that record grants; `nil` for a meter that
  /// was given no boot id.
  public var dayAnchor: DayAnchor? {
    knowsBoot ? anchor : nil
  }

  /// The whole seconds used on ``day`` per rule, to store in the ledger.
  public var usedSecondsToday: [String: Int] {
    usedSeconds(on: day)
  }

  /// The whole seconds used on `day` per rule (rules without use left out).
  public func usedSeconds(on day: LocalDay) -> [String: Int] {
    (days[day]?.used ?? [:]).mapValues(\.wholeSeconds).filter { $0.value > 0 }
  }

  /// The whole seconds of each rule on `day` split by its app or site in
  /// front (``inUse(apps:at:)``), summing to the rule's whole seconds of
  /// ``usedSeconds(on:)`` (``AppSplit/wholeSeconds(_:total:)``); rules without a split left out.
  public func appSeconds(on day: LocalDay) -> [String: [String: Int]] {
    guard let meterDay = days[day] else { return [:] }
    var result: [String: [String: Int]] = [:]
    for (rule, parts) in meterDay.apps {
      let split = AppSplit.wholeSeconds(parts, total: meterDay.used[rule]?.wholeSeconds ?? 0)
      if !split.isEmpty { result[rule] = split }
    }
    return result
  }

  /// ``appSeconds(on:)`` for every day the meter holds.
  public var appSecondsByDay: [LocalDay: [String: [String: Int]]] {
    var result: [LocalDay: [String: [String: Int]]] = [:]
    for day in days.keys {
      let split = appSeconds(on: day)
      if !split.isEmpty { result[day] = split }
    }
    return result
  }

  /// The grants the meter knows per rule on every day it holds (rules
  /// without grants left out), to store beside the use: the ledger keeps the
  /// larger of its and these (``Ledger/recordKnownGrants(_:)``), so grants a
  /// file lost come back with the next save.
  public var grantsByDay: [LocalDay: [String: Int]] {
    var result: [LocalDay: [String: Int]] = [:]
    for (day, meterDay) in days {
      let grants = meterDay.grants.filter { $0.value > 0 }
      if !grants.isEmpty { result[day] = grants }
    }
    return result
  }

  /// The whole seconds used per rule on every day the meter holds, to store
  /// in the ledger at once (``LedgerStore/recordUsage(_:)``): after midnight
  /// this saves the end of the day before as well.
  public var usedSecondsByDay: [LocalDay: [String: Int]] {
    var result: [LocalDay: [String: Int]] = [:]
    for day in days.keys {
      let seconds = usedSeconds(on: day)
      if !seconds.isEmpty { result[day] = seconds }
    }
    return result
  }

  // MARK: Accounting

  /// Counts the time since the latest input, applies `change`, and returns the events due after it.
  private mutating func update(
    at now: MeterInstant, _ change: (inout UsageMeter, inout [MeterEvent]) -> Void
  ) -> [MeterEvent] {
    var events = account(until: now)
    change(&self, &events)
    announce(into: &events)
    return events
  }

  /// Applies a change of state that happened at `now`, booking again the
  /// time booked since then when `now` lies before the latest input.
  private mutating func updateState(at now: MeterInstant, _ change: (inout UsageMeter) -> Void) -> [MeterEvent] {
    guard now.monotonic < last.monotonic else {
      return update(at: now) { meter, _ in
        change(&meter)
        meter.stateSince = max(meter.stateSince, now.monotonic)
        meter.sinceChange = []
      }
    }
    // Booked already up to `last` under the state before the change: the
    // time after the stamp (or after the previous change, if that is later) moves.
    let from = max(now.monotonic, stateSince)
    var back = last.monotonic.duration(since: from)
    let before = countingRules
    let appsBefore = appsInUse
    var moved: [Booked] = []
    while back > .zero, var segment = sinceChange.popLast() {
      let part = min(segment.time, back)
      for rule in before {
        let used = days[segment.day, default: MeterDay()].used[rule, default: .zero]
        days[segment.day, default: MeterDay()].used[rule] = max(.zero, used - part)
        if let app = appsBefore[rule], let appUsed = days[segment.day]?.apps[rule]?[app] {
          days[segment.day]?.apps[rule]?[app] = max(.zero, appUsed - part)
        }
      }
      moved.insert(Booked(day: segment.day, time: part), at: 0)
      segment.time -= part
      back -= part
      if segment.time > .zero { sinceChange.append(segment) }
    }
    change(&self)
    let after = countingRules
    for segment in moved { add(segment.time, to: after, on: segment.day) }
    stateSince = from
    sinceChange = moved
    var events: [MeterEvent] = []
    announce(into: &events)
    return events
  }

  /// Adds the time since the latest input to the rules that counted during it, and moves to `now`'s day.
  ///
  /// Only the monotonic clock measures: a reading that went backwards counts
  /// nothing. When the day changed, the part of the time before the old day's
  /// midnight (by the old wall time) stays on the old day and the rest goes to
  /// the new one; a wall clock that jumped puts the time on the day it jumped
  /// from, and the next input's on the day it jumped to.
  private mutating func account(until now: MeterInstant, counting isCounting: Bool = true) -> [MeterEvent] {
    let elapsed = now.monotonic.duration(since: last.monotonic)
    let reading = anchor.reading(wall: now.wall, boot: now.boot, dayStart: settings.dayStart, in: settings.calendar)
    let nowDay = reading.day
    // Held before this input: the ledger's, or one the meter was on before.
    let isHeld = days[nowDay] != nil
    let counting = isCounting ? countingRules : []
    if elapsed > .zero {
      var beforeMidnight = elapsed
      if reading.dayEnded, let midnight = anchor.midnight {
        beforeMidnight = min(elapsed, max(.zero, midnight.duration(since: last.wall)))
      }
      book(beforeMidnight, to: counting, on: day)
      if beforeMidnight < elapsed { book(elapsed - beforeMidnight, to: counting, on: nowDay) }
    }
    last = MeterInstant(monotonic: max(last.monotonic, now.monotonic), wall: reading.wall, boot: now.boot)
    let lifted = refreshDowntime()
    guard reading.dayEnded, nowDay != day else { return lifted }
    // The new day's wall time is the one the boot time vouches for, without the tolerance,
    // so that the tolerance is not taken again each day.
    return lifted + moveToDay(nowDay, isHeld: isHeld, wall: min(now.wall, reading.vouched), boot: now.boot)
  }

  /// Adds `time` to `rules` and keeps it with the span since the last change
  /// (``sinceChange``; a span not counted is kept too, as nothing).
  private mutating func book(_ time: Duration, to rules: Set<String>, on day: LocalDay) {
    add(time, to: rules, on: day)
    if let lastIndex = sinceChange.indices.last, sinceChange[lastIndex].day == day {
      sinceChange[lastIndex].time += time
    } else {
      // The last two days the span touched: a change is stamped seconds in the past, not days.
      if sinceChange.count >= 2 { sinceChange.removeFirst() }
      sinceChange.append(Booked(day: day, time: time))
    }
  }

  private mutating func add(_ time: Duration, to rules: Set<String>, on day: LocalDay) {
    for rule in rules {
      days[day, default: MeterDay()].used[rule, default: .zero] += time
      if let app = appsInUse[rule] {
        days[day, default: MeterDay()].apps[rule, default: [:]][app, default: .zero] += time
      }
    }
  }

  /// Makes `newDay` the current day from `wall` and `boot` on: ``MeterEvent/newDay(_:)``
  /// (``MeterEvent/dayResumed(_:)`` for a day the meter held already), and
  /// ``MeterEvent/lifted(rule:)`` for every rule that was over its limit and is not on the new day.
  private mutating func moveToDay(
    _ newDay: LocalDay, isHeld: Bool, wall: WallTime, boot: BootTime
  ) -> [MeterEvent] {
    let wasOver = Set(settings.rules.rules.filter { isOver($0, on: day) }.map(\.name))
    anchor = anchor.moved(to: newDay, wall: wall, boot: boot, dayStart: settings.dayStart, in: settings.calendar)
    notices = [:]
    forgetOldDays()
    var events: [MeterEvent] = [isHeld ? .dayResumed(newDay) : .newDay(newDay)]
    var lifted: Set<String> = []
    for rule in settings.rules.rules
    where wasOver.contains(rule.name) && !isOver(rule, on: newDay) && lifted.insert(rule.name).inserted {
      events.append(.lifted(rule: rule.name))
    }
    return events
  }

  /// Drops the days farthest from today beyond ``Ledger/maximumDays``, so a
  /// meter that runs for months stays small.
  ///
  /// Unlike the ledger, it keeps days older than ``Ledger/keptDays`` while
  /// there is room: a clock set forward a week and back again returns to a
  /// day whose grants and use the meter still holds, and its next save puts
  /// them back in the ledger, which dropped them.
  private mutating func forgetOldDays() {
    let today = day
    if days.count > Ledger.maximumDays {
      let kept = Set(days.keys.sorted { abs(today.days(to: $0)) < abs(today.days(to: $1)) }.prefix(Ledger.maximumDays))
      days = days.filter { kept.contains($0.key) }
    }
  }

  /// Sets today's grants of `rule` to `count` when that is more, lifting and re-arming its warning.
  private mutating func raiseGrants(of rule: Rule, to count: Int, events: inout [MeterEvent]) {
    guard count > storedGrants(of: rule.name, on: day) else { return }
    let wasOver = isOver(rule, on: day)
    days[day, default: MeterDay()].grants[rule.name] = count
    let used = used(of: rule.name, on: day)
    let limit = limit(of: rule, on: day)
    if wasOver && used < limit { events.append(.lifted(rule: rule.name)) }
    // The new limit is too close for a warning before it: the user has just
    // solved a puzzle for these minutes and knows how few they are.
    if rule.warnMinutes > 0, used < limit, used >= limit - warningLead(of: rule) {
      notices[rule.name, default: MeterNotices()].warnedFor = limit
    }
  }

  /// Appends the warnings and limits due for the rules that count now, each once per limit.
  ///
  /// A limit is reported when a counting rule's use reaches it, and when a
  /// rule already at it (restored from the ledger, or a limit of 0) comes into
  /// use. A warning when a counting rule's use is within `warnMinutes` of the
  /// limit and none was given for this limit; a rule that jumps past its
  /// limit gets the limit alone.
  private mutating func announce(into events: inout [MeterEvent]) {
    let counting = countingRules
    guard !counting.isEmpty else { return }
    for rule in settings.rules.rules where counting.contains(rule.name) {
      let used = used(of: rule.name, on: day)
      let limit = limit(of: rule, on: day)
      var notice = notices[rule.name] ?? MeterNotices()
      if used >= limit {
        if notice.reachedFor != limit {
          events.append(.limitReached(rule: rule.name))
          notice.reachedFor = limit
          notice.warnedFor = limit
        }
      } else if warns(rule, before: limit), notice.warnedFor != limit, used >= limit - warningLead(of: rule) {
        events.append(.warning(rule: rule.name, remaining: limit - used))
        notice.warnedFor = limit
      }
      notices[rule.name] = notice
    }
  }

  func used(of rule: String, on day: LocalDay) -> Duration {
    days[day]?.used[rule] ?? .zero
  }

  /// The grants the meter holds, more than a rule allows included.
  private func storedGrants(of rule: String, on day: LocalDay) -> Int {
    days[day]?.grants[rule] ?? 0
  }

  /// The grants that count: no more than the rule's `maxGrantsPerDay` (``Rule/countedGrants(_:)``).
  private func grants(of rule: String, on day: LocalDay) -> Int {
    let stored = days[day]?.grants[rule] ?? 0
    return rulesByName[rule]?.countedGrants(stored) ?? max(0, stored)
  }

  /// `(dailyLimitMinutes(on: day) + grants × grantMinutes) × minuteLength`;
  /// zero on today while the rule is in downtime.
  func limit(of rule: Rule, on day: LocalDay) -> Duration {
    if day == self.day, downtime[rule.name]?.end != nil { return .zero }
    return settings.minuteLength * rule.limitMinutes(grants: grants(of: rule.name, on: day), on: day)
  }

  private func warningLead(of rule: Rule) -> Duration {
    settings.minuteLength * rule.warnMinutes
  }

  /// Whether `rule` is warned before `limit`: it has a warning, and the limit is longer than it.
  ///
  /// A warning as long as the limit or longer would come at the first second
  /// of the day's time ("1 minute left" as a 1-minute limit starts), which
  /// tells nothing the limit does not: such a limit comes without one. A
  /// use restored inside the warning of a longer limit is still warned at
  /// once, with the time that is left.
  private func warns(_ rule: Rule, before limit: Duration) -> Bool {
    rule.warnMinutes > 0 && limit > warningLead(of: rule)
  }

  private func isOver(_ rule: Rule, on day: LocalDay) -> Bool {
    used(of: rule.name, on: day) >= limit(of: rule, on: day)
  }
}
