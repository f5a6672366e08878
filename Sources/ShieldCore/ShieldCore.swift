public import DeepLink
import Log
public import Model
public import Time

/// Every decision the service makes, as one value: inputs in, effects out.
///
/// It holds the meter (``UsageMeter``), what the desktop said last and what
/// it matched, the rules at their limit, the shields shown and closed, the
/// tasks open, and the clicks seen lately. It has no bus, no desktop, no
/// files and no clock of its own: the service hands it each input with the
/// moment it happened (``handle(_:at:)``), carries out the effects in order,
/// and hands back their results as inputs. So every rule of a shield's life
/// is decided here once, for every notification server, and tested without
/// any of them.
///
/// A shield's life:
/// - an action followed by a close (xfce4-notifyd closes the bubble it was
///   clicked on) is an action, not a dismissal;
/// - a dismissal holds the shield back, but an app of a rule over its limit
///   brought to the front again is hidden and offered the shield again, at
///   most once every ``Settings/reofferInterval``;
/// - a task that ends unsolved leaves the shield offerable at once;
/// - a grant is asked for only while the rule is at or over its limit, and
///   the one lift it causes closes every shield and inline task of the rule.
public struct ShieldCore: Sendable {
  /// The timings and the fixed parts the core decides with.
  public struct Settings: Hashable, Sendable {
    /// Input idle longer than this stops the count, unless idle is inhibited.
    public var idleLimit: Duration
    /// How long one minute of a rule's limits lasts: 60 s, except in the demo and the tests.
    public var minuteLength: Duration
    /// While time counts (or counted time is not stored), the use is saved at least this often.
    public var saveInterval: Duration
    /// The same click again within this time is a repeat.
    public var doubleClickWindow: Duration
    /// An app brought back over its limit is offered the shield again at most this often.
    public var reofferInterval: Duration
    /// How many closed shields keep their links, for servers that show them again from a history.
    public var closedShieldsKept: Int
    /// Draws the inline tasks.
    public var puzzleSeed: UInt64
    /// This boot's id (``Posix/BootTime/bootID``): the meter resumes the day
    /// of the ledger's anchor of this boot and saves its own; `nil`: the wall clock's day.
    public var bootID: String?
    /// When a local day begins (`dayStartsAt`); midnight unless set.
    public var dayStart: ClockTime = .midnight
    /// The time zone local days and downtime hours are read in: the process's (`.system`) for the service.
    public var calendar: LocalCalendar

    public init(
      calendar: LocalCalendar, idleLimit: Duration = .seconds(300), minuteLength: Duration = .seconds(60),
      saveInterval: Duration = .seconds(30),
      doubleClickWindow: Duration = .seconds(1), reofferInterval: Duration = .seconds(60), closedShieldsKept: Int = 16,
      puzzleSeed: UInt64 = 0, bootID: String? = nil
    ) {
      self.calendar = calendar
      self.bootID = bootID
      self.idleLimit = idleLimit
      self.minuteLength = minuteLength
      self.saveInterval = saveInterval
      self.doubleClickWindow = doubleClickWindow
      self.reofferInterval = reofferInterval
      self.closedShieldsKept = closedShieldsKept
      self.puzzleSeed = puzzleSeed
    }

    /// The meter's settings for `rules`.
    func meterSettings(_ rules: RuleSet) -> UsageMeter.Settings {
      var settings = UsageMeter.Settings(
        rules: rules, calendar: calendar, idleLimit: idleLimit, minuteLength: minuteLength)
      settings.dayStart = dayStart
      return settings
    }
  }

  /// How the desktop is watched.
  enum Watching: Hashable, Sendable {
    /// No desktop: nothing is metered, shields come only when asked for.
    case off
    /// The focused window counts.
    case focus
    /// The apps that run count (process fallback).
    case running
  }

  /// A shield posted and not known to be closed, or closed lately.
  struct Shown: Hashable, Sendable {
    var rule: String
    /// The links its actions carry, by action key.
    var links: [String: String]
    /// Counts the shields posted: a server may give a new shield the id of a
    /// closed one, and a click on the new one is no repeat of a click on the old.
    var posting: UInt64
    /// Whether an action came for it: a close after it is no dismissal.
    var acted = false
    /// Whether its way out was taken: it is counted once, however often it is clicked.
    var tookWayOut = false
  }

  /// A task asked in a notification, waiting for its reply.
  struct InlineTask: Sendable {
    var rule: String
    var app: String?
    var grantMinutes: Int
    /// The requests for more time for the rule today, this one included.
    var asked: Int = 0
    /// The rule's pause, and when the task was first asked: no reply is taken before it ran.
    var pause = Pause(seconds: 0)
    var askedAt: MeterInstant?
    var activation: String
    var session: PuzzleSession<SeededRandom>
  }

  /// A post whose answer has not come back.
  enum Pending: Sendable {
    case shield(rule: String)
    case task(InlineTask)
    case other
  }

  /// A click, as the double-click window tells repeats apart.
  struct Click: Hashable, Sendable {
    var notification: UInt32
    var key: String
  }

  public let settings: Settings
  public internal(set) var rules: RuleSet
  /// Today's use and limits, as of the latest input.
  public internal(set) var meter: UsageMeter
  let router: Router<ShieldAction>

  var watching = Watching.off
  /// The app of the window in front, covered or not: matched again when the rules change.
  var focusedIdentity: AppIdentity?
  /// The window in front and what it matched (or the site it shows); `nil`: nothing covered is in front.
  var focused: AppMatch?
  /// Whether ``focused`` is the site a browser shows rather than the window's own match:
  /// then the window is the browser, which is never hidden for a site's sake.
  var focusedIsSite = false
  var siteReports: [SiteReport] = []
  /// The covered apps that run (process fallback), by rule.
  var running: [String: AppMatch] = [:]
  /// The covered processes last reported, to tell a relaunch.
  var runningApps: Set<AppIdentity> = []
  /// The same processes in the backend's order: the first of a rule names it.
  var runningOrder: [AppIdentity] = []
  /// The rules at their limit and not lifted since, with today's grants when they got there.
  public internal(set) var overLimit: [String: Int] = [:]

  var savedUsage: [LocalDay: [String: Int]]
  var savedLimits: [String: Int] = [:]
  var savedGrants: [LocalDay: [String: Int]]
  /// The shields posted per day and rule, for the history (seeded from it at the start).
  var shieldsShown: [LocalDay: [String: Int]] = [:]
  var savedShields: [LocalDay: [String: Int]] = [:]
  /// Rule → the grants above its maximum a ledger held today, as last logged: the warning is given once per count.
  var grantsAboveMaximum: [String: Int] = [:]
  var lastSave: MeterInstant
  /// Whether the last wait was already due: never woken for a due time twice in a row.
  var wasDue = false

  var shown: [UInt32: Shown] = [:]
  var closedShields: RecentlyClosed<Shown>
  var pending: [PostKey: Pending] = [:]
  var nextKey: UInt64 = 1 << 32
  var postings: UInt64 = 0
  /// When the shield of a rule was last offered (posted, or dismissed): re-offers wait ``Settings/reofferInterval``.
  var lastOffer: [String: MeterInstant] = [:]
  /// The tasks (and views) open, by activation, with the rule they unlock (`nil`: a view, or a caller's link).
  var tasks: [String: String?] = [:]
  /// The tasks asked in notifications, by the notification's id.
  var inline: [UInt32: InlineTask] = [:]
  /// The notification ids of the tasks solved, waiting for their grant, by rule.
  var solving: [String: [UInt32: InlineTask]] = [:]
  var clicks: [Click: MeterInstant] = [:]
  var random: SeededRandom
  /// The weekly summary, while one is configured.
  var weeklySummary: WeeklySummary?
  /// What the panels were last told (``ShieldEffect/glance(_:)``): `.some(nil)` once nothing covered is in front.
  var toldGlance: Glance??

  /// A core for `rules` that starts from the day's use and grants in
  /// `ledger`, and from `history` the split by app and the shields shown of
  /// the days the ledger holds.
  ///
  /// `takeOver` says whose day each rule takes over when `rules` are the
  /// rules in force after a change the ledger does not hold yet
  /// (``Model/RuleChange/takeOver``): the ledger's counts are carried to
  /// them (``Model/Ledger/takingOver(_:on:)``), and ``startingSave(at:)`` stores that.
  public init(
    rules: RuleSet, ledger: Ledger, takeOver: [String: [String]] = [:], history: History = History(),
    settings: Settings, links: LinkConfiguration = .standard, now: MeterInstant
  ) {
    self.settings = settings
    self.rules = rules
    router = Router(configuration: links)
    // The day the meter is on decides which day's counts are carried.
    let day = UsageMeter(settings: settings.meterSettings(rules), ledger: ledger, now: now, bootID: settings.bootID).day
    // The history keeps that day too: where it holds more (the ledger deleted or cut back since), its
    // seconds and grants count, so that losing one file loosens nothing.
    var ledger = ledger
    if let entries = history.days[day] {
      ledger.recordUsedSeconds(entries.mapValues(\.usedSeconds), on: day)
      ledger.recordKnownGrants([day: entries.mapValues(\.grants)])
    }
    if !takeOver.isEmpty { ledger = ledger.takingOver(takeOver, on: day) }
    meter = UsageMeter(
      settings: settings.meterSettings(rules),
      ledger: ledger, now: now, bootID: settings.bootID,
      appSeconds: history.days.mapValues { $0.mapValues(\.apps) })
    for (day, entries) in history.days {
      let shown = entries.mapValues(\.shieldsShown).filter { $0.value > 0 }
      if !shown.isEmpty { shieldsShown[day] = shown }
    }
    savedShields = shieldsShown
    savedUsage = meter.usedSecondsByDay
    savedGrants = meter.grantsByDay
    for case .grantsAboveMaximum(_, let rule, let count, _) in ledger.grantsAboveMaximum(of: rules, on: meter.day) {
      // What the service logged as it read the ledger.
      grantsAboveMaximum[rule] = count
    }
    lastSave = now
    closedShields = RecentlyClosed(capacity: settings.closedShieldsKept)
    random = SeededRandom(seed: settings.puzzleSeed)
  }

  // MARK: The one entry point

  /// Takes one input that happened at `now` and returns what to do, in order.
  public mutating func handle(_ input: ShieldInput, at now: MeterInstant) -> [ShieldEffect] {
    var effects = Effects()
    if case .unobserved(let since) = input {
      // Not advanced first: that would count the span nobody saw.
      effects.meter(meter.unobserved(since: since.monotonic, at: now))
    } else {
      effects.meter(meter.advance(to: now))
    }
    switch input {
    case .desktopStarted(let countsRunning):
      watching = countsRunning ? .running : .focus
      effects.meter(matchInUse(at: now))
      // The ledger says at once which rules a meter counts: a task asked elsewhere waits for their limit.
      effects.save = "meter started"
    case .desktopLost:
      watching = .off
      focusedIdentity = nil
      runningApps = []
      runningOrder = []
      effects.meter(matchInUse(at: now))
      effects.save = "desktop lost"
    case .focus(let window):
      focusedIdentity = window
      effects.meter(matchInUse(at: now))
      if let focused, !focusedIsSite { effects.broughtBack.append(focused) }
    case .running(let apps):
      var started: [String: AppMatch] = [:]
      for app in apps where !runningApps.contains(app) {
        // A process not seen before, even of a rule that already ran: a relaunch.
        if let match = rules.match(app), !isReportingBrowser(app) { started[match.rule.name] = match }
      }
      runningApps = Set(apps)
      runningOrder = apps
      effects.meter(matchInUse(at: now))
      effects.broughtBack += started.values.sorted { $0.rule.name < $1.rule.name }
    case .idle(let isIdle):
      effects.meter(meter.idle(isIdle, at: now))
    case .inhibited(let isInhibited):
      effects.meter(meter.inhibited(isInhibited, at: now))
    case .screenVisible(let isVisible):
      effects.meter(meter.screenVisible(isVisible, at: now))
    case .sites(let reports):
      siteReports = reports
      effects.meter(matchInUse(at: now))
    case .ledger(let ledger):
      absorb(ledger, at: now, effects: &effects)
    case .rulesReplaced(let change, let ledger):
      replaceRules(change, ledger: ledger, at: now, effects: &effects)
    case .tick:
      break
    case .weeklySummary, .weeklySummaryPosted:
      handleWeeklySummary(input, at: now, effects: &effects)
    case .unobserved(let since):
      let seconds = Int(min(1e9, (now.monotonic.duration(since: since.monotonic) / .seconds(1)).rounded()))
      effects.log(
        .notice, "meter",
        "the service did not run for \(seconds) s (it was stopped) and the desktop gives no time of its events: "
          + "that span is not counted")
    default:
      handleShieldInput(input, at: now, effects: &effects)
    }
    return finish(effects, at: now)
  }

  /// How long until the core must be woken with ``ShieldInput/tick``: the
  /// meter's next warning, limit or midnight, the next save, the weekly
  /// summary's next look, or the next minute the panels show; `nil` while
  /// nothing counts, nothing is left to save and no weekly summary is configured.
  public mutating func wait(after now: MeterInstant) -> Duration? {
    let meterWait = meter.nextDeadline().map { $0.duration(since: now.monotonic) }
    let saveWait = unsavedSince.map { settings.saveInterval - now.monotonic.duration(since: $0.monotonic) }
    let waits = [meterWait, saveWait, weeklySummaryWait(after: now), glanceWait()]
    guard let wait = waits.compactMap({ $0 }).min() else {
      wasDue = false
      return nil
    }
    // Due at the last wake-up and due again: do not spin on it; look again in a second.
    if wait <= .zero && wasDue { return .seconds(1) }
    wasDue = wait <= .zero
    return max(.zero, wait)
  }

  /// The use counted up to `now`, to store as the service stops: nothing
  /// else is decided once the inputs have ended.
  public mutating func stop(at now: MeterInstant) -> ShieldEffect.Save? {
    var effects = Effects()
    _ = meter.advance(to: now)
    save(reason: "stop", at: now, effects: &effects)
    return effects.list.lazy.compactMap { if case .save(let save) = $0 { save } else { nil } }.first
  }

  /// What the core starts from, to store before any input: the rules in
  /// force and the counts they took over (``init(rules:ledger:takeOver:history:settings:links:now:)``).
  public mutating func startingSave(at now: MeterInstant) -> ShieldEffect.Save? {
    var effects = Effects()
    save(reason: "start", at: now, effects: &effects)
    return effects.list.lazy.compactMap { if case .save(let save) = $0 { save } else { nil } }.first
  }

  /// Today's use of every rule, as `Usage()` reports it.
  public var usages: [RuleUsage] { meter.usages }

  /// Whether a desktop is watched and counts the rules' time.
  public var isMetering: Bool { watching != .off && !rules.isBuiltIn }

  /// When the use was last saved, while there is use to save (time counts,
  /// or counted time is not stored); `nil` otherwise. The next save is due
  /// ``Settings/saveInterval`` after it.
  var unsavedSince: MeterInstant? {
    guard !meter.countingRules.isEmpty || meter.usedSecondsByDay != savedUsage else { return nil }
    return lastSave
  }

  // MARK: Gathering effects

  /// The effects of one input as they are gathered: the meter's events are acted on at the end, in order.
  struct Effects {
    var list: [ShieldEffect] = []
    var events: [MeterEvent] = []
    /// Apps of a rule brought to the front (or started again): enforced when their rule is over its limit.
    var broughtBack: [AppMatch] = []
    /// Why the use must be saved now; `nil`: only when due.
    var save: String?
    /// Whether this input already asked for a save: another one is asked only when something changed since.
    var saved = false

    mutating func meter(_ new: [MeterEvent]) { events += new }
    mutating func append(_ effect: ShieldEffect) { list.append(effect) }
    mutating func log(_ level: LogLevel, _ subsystem: String, _ message: String) {
      list.append(.log(LogEntry(level, subsystem: subsystem, message)))
    }
  }

  private mutating func finish(_ gathered: Effects, at now: MeterInstant) -> [ShieldEffect] {
    var effects = gathered
    let enforced = act(on: effects.events, at: now, effects: &effects)
    for match in effects.broughtBack where overLimit[match.rule.name] != nil && !enforced.contains(match.rule.name) {
      effects.append(.enforce(rule: match.rule.name))
      reoffer(match.rule, app: match.app.name, at: now, effects: &effects)
    }
    if let reason = effects.save {
      save(reason: reason, at: now, effects: &effects)
    } else if let since = unsavedSince, now.monotonic.duration(since: since.monotonic) >= settings.saveInterval {
      save(reason: nil, at: now, effects: &effects)
    }
    postWeeklySummaryIfDue(at: now, effects: &effects)
    tellGlance(at: now, effects: &effects)
    return effects.list
  }

  /// Asks for the use to be saved, with the rules at their limit: when
  /// something changed since the last save, or for a `reason` once per input
  /// (a new day that lifts three rules is one write, not four).
  mutating func save(reason: String?, at now: MeterInstant, effects: inout Effects) {
    lastSave = now
    let usage = meter.usedSecondsByDay
    let grants = meter.grantsByDay
    let changed =
      usage != savedUsage || overLimit != savedLimits || grants != savedGrants || shieldsShown != savedShields
    guard changed || (reason != nil && !effects.saved) else { return }
    effects.saved = true
    let replacing = savedUsage
    savedUsage = usage
    savedLimits = overLimit
    savedGrants = grants
    savedShields = shieldsShown
    // The limit in force today, as the meter has it (grants included), for the history.
    var limits: [String: Int] = [:]
    // The day's limit, not a downtime's zero.
    for usage in meter.usages { limits[usage.rule] = meter.dayLimitSeconds(of: usage.rule) ?? usage.limitSeconds }
    effects.append(
      .save(
        ShieldEffect.Save(
          usedSecondsByDay: usage, replacing: replacing, grantsByDay: grants, limitReached: overLimit,
          metered: isMetering ? Set(rules.rules.map(\.name)) : [], anchor: meter.dayAnchor, reason: reason,
          appSecondsByDay: meter.appSecondsByDay, limitSecondsToday: limits, shieldsShownByDay: shieldsShown,
          rulesInForce: rules)))
  }

  /// The keys of the core's own posts start above the service's caller keys
  /// (counted from 1), so that an answer never reaches the wrong waiter.
  mutating func nextPostKey() -> PostKey {
    nextKey += 1
    return PostKey(nextKey)
  }

  func rule(named name: String) -> Rule? {
    rules.rules.first { $0.name == name }
  }
}
