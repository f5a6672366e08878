import Brake
import Desktop
import Posix

/// What the meter loop asks of the service it runs in: the shield flow, the
/// warning, and the D-Bus signals. Held as closures so that the loop keeps no
/// strong reference back to the service that owns it.
struct MeterHooks: Sendable {
  /// The shield notification for `app` (the existing `Shield` flow).
  var shield: @Sendable (_ app: String) async -> Void
  /// The plain warning: `minutes` of `app`'s rule are left today.
  var warn: @Sendable (_ app: String, _ minutes: Int) async -> Void
  /// Emits `LimitReached(s rule, s app)`.
  var limitReached: @Sendable (_ rule: String, _ app: String) -> Void
  /// Emits `Unlocked(s rule, u minutes)`.
  var unlocked: @Sendable (_ rule: String, _ minutes: Int) -> Void
}

/// Runs the meter: desktop events in, the meter's decisions out, the ledger kept.
///
/// It consumes one ``DesktopBackend``'s events and feeds the ``UsageMeter``;
/// between events it sleeps until the meter's next deadline (a warning, a
/// limit, midnight), the next save of the ledger, or the next signal of a
/// close in progress, whichever is first, and not at all while nothing counts
/// and nothing is pending: no periodic wake-up.
///
/// Grants recorded by another process (the terminal puzzle, `shieldbridge
/// open`) are found through the ledger file: one `stat` at every desktop
/// event and every wake-up, and when the file changed (another device, inode,
/// size or time: the ledger is replaced by rename on every write) its grants
/// are read again. So a grant lifts the shield at the latest when the app is
/// next activated, and within ``MeterSettings/saveInterval`` while it stays
/// in front.
actor MeterLoop {
  private var rules: RuleSet
  private let ledger: LedgerStore
  private let settings: MeterSettings
  private let hooks: MeterHooks
  private let log: @Sendable (String) -> Void
  /// Opens the backend to go on with after `lost` ones; `nil` when there is none left.
  private let fallback: @Sendable (_ lost: Set<DesktopKind>) async -> (any DesktopBackend)?

  private var meter: UsageMeter
  private var backend: (any DesktopBackend)?
  /// Counts the backends started, so that a late event of a lost one is dropped.
  private var generation = 0
  private var lostKinds: Set<DesktopKind> = []
  private var reader: Task<Void, Never>?
  private var timer: Task<Void, Never>?
  private var timerDeadline: MonotonicTime?
  /// A deadline that was already in the past at the last wake-up: never woken for twice in a row.
  private var staleDeadline: MonotonicTime?
  private var stopped = false

  /// The window in front and what it matched (or the site it shows, see
  /// ``siteReports``); `nil`: nothing covered is in front.
  private var focused: AppMatch?
  /// Whether ``focused`` is the site a browser in front shows rather than the window's own match:
  /// then the window is the browser, which is never hidden for a site's sake.
  private var focusedIsSite = false
  /// The sites the browsers' hosts report, one per host.
  private var siteReports: [SiteReport] = []
  /// The app of the window in front, covered or not: matched again when the rules change.
  private var focusedIdentity: AppIdentity?
  /// The covered apps that run (process fallback), by rule.
  private var running: [String: AppMatch] = [:]
  /// The covered processes of the last `.running`, to tell a relaunch.
  private var runningApps: Set<AppIdentity> = []
  /// The same processes in the order the backend gave them: the first of a rule names it.
  private var runningOrder: [AppIdentity] = []
  /// The rules at their limit and not lifted since, with today's grants when they reached it.
  private var overLimit: [String: Int] = [:]
  /// The ledger file as last read for grants.
  private var ledgerStamp: LedgerStamp?
  /// The use as last written to the ledger.
  private var savedUsage: [LocalDay: [String: Int]] = [:]
  /// The rules last written to the ledger as metered, and the day they were written for.
  private var savedMetered: (day: LocalDay, rules: Set<String>)?
  /// Rules that reached their limit today with these grants, not yet written to the ledger.
  private var unsavedLimits: [String: Int] = [:]
  private var lastSave: MonotonicTime
  private var escalation: CloseEscalation

  init(
    rules: RuleSet, ledger: LedgerStore, settings: MeterSettings, hooks: MeterHooks,
    log: @escaping @Sendable (String) -> Void,
    fallback: @escaping @Sendable (_ lost: Set<DesktopKind>) async -> (any DesktopBackend)?
  ) {
    self.rules = rules
    self.ledger = ledger
    self.settings = settings
    self.hooks = hooks
    self.log = log
    self.fallback = fallback
    let now = MeterInstant(monotonic: .now, wall: ledger.clock.now())
    meter = Self.meter(counting: rules, settings: settings, from: ledger, at: now, log: log)
    savedUsage = meter.usedSecondsByDay
    lastSave = now.monotonic
    escalation = CloseEscalation(closeGrace: settings.closeGrace, killGrace: settings.killGrace)
    ledgerStamp = LedgerStamp(of: ledger.path)
  }

  // MARK: Starting and stopping

  /// Starts reading `backend`'s events.
  func start(_ backend: any DesktopBackend) {
    guard !stopped else {
      backend.stop()
      return
    }
    generation += 1
    let generation = self.generation
    self.backend = backend
    // The puzzle's other processes learn from the ledger that this meter counts the rules.
    _ = save(instant(), reason: "start")
    log(
      "meter: watching the desktop through \(backend.kind) (counting \(backend.countingSource.rawValue) time)"
        + (backend.limitations.isEmpty ? "" : "; " + backend.limitations.joined(separator: "; ")))
    let events = backend.events(idleAfter: settings.idleLimit)
    reader = Task { [weak self] in
      for await event in events {
        guard let self else { return }
        await self.handle(event, generation: generation)
      }
      await self?.ended(generation: generation)
    }
  }

  /// Stops: counts up to now, writes the ledger, stops the backend. The loop does nothing after it.
  func stop() {
    guard !stopped else { return }
    let now = instant()
    _ = meter.advance(to: now)
    _ = save(now, reason: "stop")
    stopped = true
    reader?.cancel()
    reader = nil
    timer?.cancel()
    timer = nil
    backend?.stop()
    backend = nil
  }

  // MARK: What the service asks

  /// A puzzle solved in this process: today's grants for `rule` are now `grantsToday`.
  func granted(_ rule: String, grantsToday: Int) async {
    guard !stopped else { return }
    let now = instant()
    var events = meter.advance(to: now)
    events += meter.granted(rule, grantsToday: grantsToday, at: now)
    await act(on: events, at: now)
    reschedule()
  }

  /// Today's use per rule and the source that counts it, as `Usage()` answers.
  func report() async -> UsageReport {
    let source =
      backend.map {
        UsageReport.Source(
          backend: $0.kind, counting: $0.countingSource, limitations: $0.limitations, attention: $0.attention)
      } ?? .off
    guard !stopped else { return UsageReport(date: meter.day, source: source, rules: meter.usages) }
    let now = instant()
    var events = meter.advance(to: now)
    events += refreshGrants(at: now)
    await act(on: events, at: now)
    reschedule()
    return UsageReport(date: meter.day, source: source, rules: meter.usages)
  }

  /// The browsers' sites changed (a host reported another site, or went
  /// away): counted as a desktop event, and today's use as it stands after it.
  ///
  /// Like every event it reads the ledger's grants first, so a puzzle solved
  /// in a host is found here; a covered site over its limit is not enforced
  /// on the browser (its own shield page stands for it).
  func sitesReported(_ reports: [SiteReport]) async -> UsageReport {
    guard !stopped else { return await report() }
    let now = instant()
    var events = meter.advance(to: now)
    events += refreshGrants(at: now)
    siteReports = reports
    events += matchInUse(at: now)
    await act(on: events, at: now)
    reschedule()
    return await report()
  }

  /// New rules from a reloaded `config.json`: the use so far is counted and
  /// written, and the meter is built again from the ledger with the new rules.
  ///
  /// What the desktop said last (the app in front, the apps that run, idle,
  /// inhibited, the screen) is given to the new meter at once, so that a
  /// covered app in front counts from here on without waiting for the next
  /// focus change. A rule already over its limit is enforced again.
  func replaceRules(_ newRules: RuleSet) async {
    guard !stopped else { return }
    let now = instant()
    var events = meter.advance(to: now)
    events += save(now, reason: "new rules")
    await act(on: events, at: now)
    let old = meter
    rules = newRules
    meter = Self.meter(counting: newRules, settings: settings, from: ledger, at: now, log: log)
    savedUsage = meter.usedSecondsByDay
    ledgerStamp = LedgerStamp(of: ledger.path)
    overLimit = [:]
    events = meter.idle(old.isIdle, at: now)
    events += meter.inhibited(old.isInhibited, at: now)
    events += meter.screenVisible(old.isScreenVisible, at: now)
    events += matchInUse(at: now)
    events += save(now, reason: "new rules")
    log("meter: rules now \(newRules.rules.map(\.name).joined(separator: ", "))")
    await act(on: events, at: now)
    reschedule()
  }

  // MARK: Desktop events

  private func handle(_ event: DesktopEvent, generation: Int) async {
    guard !stopped, generation == self.generation else { return }
    let now = instant()
    var events = meter.advance(to: now)
    events += refreshGrants(at: now)
    var enforce: [AppMatch] = []
    switch event {
    case .focus(let window):
      focusedIdentity = window?.app
      events += matchInUse(at: now)
      if let focused, !focusedIsSite { enforce.append(focused) }
    case .running(let apps):
      var started: [String: AppMatch] = [:]
      for app in apps where !runningApps.contains(app) {
        // A process not seen before, even of a rule that already ran: a relaunch.
        if let match = rules.match(app), !isReportingBrowser(app) { started[match.rule.name] = match }
      }
      runningApps = Set(apps)
      runningOrder = apps
      events += matchInUse(at: now)
      enforce += started.values.sorted { $0.rule.name < $1.rule.name }
    case .idle(let isIdle):
      events += meter.idle(isIdle, at: now)
    case .inhibited(let isInhibited):
      events += meter.inhibited(isInhibited, at: now)
    case .screen(let state):
      events += meter.screenVisible(state == .on, at: now)
    case .notice(let text):
      log("meter: \(backend?.kind.description ?? "desktop"): \(text)")
    case .lost(let reason):
      await lose(reason, at: now)
      return
    }
    let acted = await act(on: events, at: now)
    // An app of a rule over its limit came to the front (or was started again): act on it at once.
    for match in enforce where overLimit[match.rule.name] != nil && !acted.contains(match.rule.name) {
      await enforceLimit(of: match.rule, at: now)
    }
    reschedule()
  }

  /// The event stream ended; without a `.lost` before it, that is a loss too.
  private func ended(generation: Int) async {
    guard !stopped, generation == self.generation else { return }
    await lose("its events ended", at: instant())
  }

  /// The backend stopped working: fall back to the next one, or go on without a desktop.
  private func lose(_ reason: String, at now: MeterInstant) async {
    guard let lost = backend else { return }
    log("meter: the \(lost.kind) desktop was lost: \(reason)")
    lostKinds.insert(lost.kind)
    lost.stop()
    backend = nil
    generation += 1
    reader = nil
    focused = nil
    focusedIsSite = false
    focusedIdentity = nil
    running = [:]
    runningApps = []
    runningOrder = []
    var events = meter.inUse([], at: now)
    events += save(now, reason: "desktop lost")
    await act(on: events, at: now)
    if let next = await fallback(lostKinds), !stopped {
      if lostKinds.contains(next.kind) {
        next.stop()
        log("meter: no other desktop to fall back on; nothing is counted until the service restarts")
      } else {
        log("meter: falling back to \(next.kind)")
        start(next)
      }
    } else {
      log("meter: no other desktop to fall back on; nothing is counted until the service restarts")
    }
    reschedule()
  }

  // MARK: The meter's decisions

  /// Acts on what the meter decided.
  ///
  /// - Returns: The rules whose limit was enforced here, so that the same event does not enforce it twice.
  @discardableResult
  private func act(on events: [MeterEvent], at now: MeterInstant) async -> Set<String> {
    var enforced: Set<String> = []
    var queue = events[...]
    var newDay = false
    while let event = queue.popFirst() {
      switch event {
      case .warning(let name, let remaining):
        guard let rule = rule(named: name) else { continue }
        // Whole minutes left, rounded up ("1 minute left" until the limit); a zero-length minute counts as one.
        let minutes = max(1, Int(min(1e9, (remaining / max(settings.minuteLength, .milliseconds(1))).rounded(.up))))
        let app = displayApp(of: rule)
        log("meter: rule \(name): \(minutes) minute(s) left today, warning")
        await hooks.warn(app, minutes)
      case .limitReached(let name):
        guard let rule = rule(named: name), overLimit[name] == nil else { continue }
        let grants = meter.usage(of: name)?.grantsToday ?? 0
        overLimit[name] = grants
        // Written before the shield is shown: a puzzle in another process may grant from now on.
        unsavedLimits[name] = grants
        queue += save(now, reason: "limit")
        let app = displayApp(of: rule)
        log("meter: rule \(name) reached today's limit (\(app) in use); \(rule.onLimit.rawValue)")
        hooks.limitReached(name, app)
        // The shield and the rule's action at once: the hide must not wait for the notification server.
        async let shielded: Void = hooks.shield(app)
        await enforceLimit(of: rule, at: now)
        await shielded
        enforced.insert(name)
      case .lifted(let name):
        guard let rule = rule(named: name) else { continue }
        let grantsAtLimit = overLimit.removeValue(forKey: name)
        escalation.cancel(rule: name)
        queue += save(now, reason: newDay ? "new day" : "grant")
        // The minutes the grants added to today's limit; on a new day, the day's own limit.
        let grants = meter.usage(of: name)?.grantsToday ?? 0
        let minutes =
          newDay ? rule.dailyLimitMinutes : rule.grantMinutes * max(1, grants - (grantsAtLimit ?? grants - 1))
        log("meter: rule \(name) is unlocked: \(minutes) more minute(s)")
        hooks.unlocked(rule.name, minutes)
      case .newDay(let day):
        log("meter: a new day, \(day): every rule starts from its daily limit")
        newDay = true
        unsavedLimits = [:]
        for name in overLimit.keys where !events.contains(.lifted(rule: name)) {
          // Lift what the meter does not lift itself, so that nothing stays hidden past midnight.
          queue.append(.lifted(rule: name))
        }
        escalation.cancelAll()
        queue += save(now, reason: "new day")
      }
    }
    return enforced
  }

  /// The rule's `onLimit` on its apps: hide (or close where the backend cannot hide), close, or nothing.
  private func enforceLimit(of rule: Rule, at now: MeterInstant) async {
    guard let backend else { return }
    let patterns = rule.apps
    let matches: @Sendable (AppIdentity) -> Bool = { identity in patterns.contains { $0.matches(identity) } }
    switch rule.onLimit {
    case .notify:
      return
    case .hide:
      do {
        let count = try await backend.hide(where: matches)
        log("meter: rule \(rule.name): hid \(count) window(s)")
        return
      } catch {
        log("meter: rule \(rule.name): \(backend.kind) cannot hide (\(error)); closing instead")
      }
    case .close:
      break
    }
    do {
      let pids = try await backend.close(where: matches)
      log("meter: rule \(rule.name): asked \(pids.count) process(es) to close")
      escalation.closing(pids, rule: rule.name, at: now.monotonic)
    } catch {
      log("meter: rule \(rule.name): cannot close its apps: \(error)")
    }
  }

  // MARK: Time

  private func tick() async {
    // A timer replaced while it was waiting to run here is not the current one: leave the new one alone.
    guard !Task.isCancelled, !stopped else { return }
    timer = nil
    timerDeadline = nil
    let now = instant()
    var events = meter.advance(to: now)
    events += refreshGrants(at: now)
    for line in escalation.fire(at: now.monotonic) { log("meter: " + line) }
    if let due = saveDue, due <= now.monotonic { events += save(now, reason: nil) }
    await act(on: events, at: now)
    reschedule()
  }

  /// When the ledger must next be written: `saveInterval` after the last
  /// write while time counts or counted time is not stored; `nil` otherwise.
  private var saveDue: MonotonicTime? {
    guard !meter.countingRules.isEmpty || meter.usedSecondsByDay != savedUsage else { return nil }
    return lastSave.adding(settings.saveInterval)
  }

  /// Sleeps until the first of the meter's deadline, the next save and the next signal.
  private func reschedule() {
    guard !stopped else { return }
    let now = MonotonicTime.now
    var deadline = [meter.nextDeadline(), saveDue, escalation.nextDeadline].compactMap { $0 }.min()
    if let due = deadline, due <= now {
      // Already due at the last wake-up and still due: do not spin on it; look again in a second.
      if due == staleDeadline { deadline = now.adding(.seconds(1)) } else { staleDeadline = due }
    }
    guard deadline != timerDeadline || timer == nil else { return }
    timer?.cancel()
    timerDeadline = deadline
    guard let deadline else {
      timer = nil
      return
    }
    let delay = deadline.duration(since: now)
    timer = Task { [weak self] in
      do { try await Task.sleep(for: delay) } catch { return }
      await self?.tick()
    }
  }

  /// A meter for `rules` that starts from the day's use and grants stored in `ledger`
  /// (from zero, said in the log, when the ledger cannot be read).
  private static func meter(
    counting rules: RuleSet, settings: MeterSettings, from ledger: LedgerStore, at now: MeterInstant,
    log: @Sendable (String) -> Void
  ) -> UsageMeter {
    let stored: Ledger
    do {
      let loaded = try ledger.loadForMeter()
      for warning in loaded.warnings { log("\(warning)") }
      stored = loaded.value
    } catch {
      log("meter: the ledger cannot be read (\(error)); today's use starts from zero")
      stored = Ledger()
    }
    return UsageMeter(
      settings: UsageMeter.Settings(rules: rules, idleLimit: settings.idleLimit, minuteLength: settings.minuteLength),
      ledger: stored, now: now)
  }

  private func instant() -> MeterInstant {
    MeterInstant(monotonic: .now, wall: ledger.clock.now())
  }

  // MARK: The ledger

  /// Writes the use counted (today's, and yesterday's after midnight), the
  /// rules this meter counts today, and the limits reached since the last
  /// write; the log says why when it is not the regular save.
  ///
  /// - Returns: What the meter makes of the grants other processes stored
  ///   meanwhile, which the write read back.
  private func save(_ now: MeterInstant, reason: String?) -> [MeterEvent] {
    let usage = meter.usedSecondsByDay
    let metered = Set(rules.rules.map(\.name))
    let day = meter.day
    lastSave = now.monotonic
    let meteredSaved = savedMetered.map { $0.day == day && $0.rules == metered } ?? false
    guard usage != savedUsage || !meteredSaved || !unsavedLimits.isEmpty else { return [] }
    do {
      let result = try ledger.recordMeter(usage: usage, metered: metered, limitReached: unsavedLimits, on: day)
      for warning in result.warnings { log("meter: \(warning)") }
      savedUsage = usage
      savedMetered = (day, metered)
      unsavedLimits = [:]
      return meter.absorb(result.value, at: now)
    } catch {
      log("meter: cannot store today's use\(reason.map { " (\($0))" } ?? ""): \(error)")
      return []
    }
  }

  /// Grants another process recorded since the ledger was last read.
  private func refreshGrants(at now: MeterInstant) -> [MeterEvent] {
    let stamp = LedgerStamp(of: ledger.path)
    guard stamp != ledgerStamp else { return [] }
    ledgerStamp = stamp
    let stored: Ledger
    do {
      let loaded = try ledger.load()
      for warning in loaded.warnings { log("\(warning)") }
      stored = loaded.value
    } catch {
      log("meter: cannot read the ledger's grants: \(error)")
      return []
    }
    for rule in rules.rules {
      let grants = stored.grants(for: rule.name, on: meter.day)
      if let usage = meter.usage(of: rule.name), grants > usage.grantsToday {
        log("meter: rule \(rule.name): \(grants - usage.grantsToday) grant(s) recorded by another process")
      }
    }
    return meter.absorb(stored, at: now)
  }

  // MARK: What is in use

  /// Matches what the desktop said last (the window in front or the apps
  /// that run) and the browsers' sites against the rules, and tells the meter.
  ///
  /// One budget, never counted twice: a browser in front that shows a
  /// covered site counts for the site's rule instead of the window's own
  /// match. With focus, the browser is in front when the focused window's
  /// process is the reporting browser; without focus (the process fallback)
  /// a reported site counts while it is reported (the extension reports
  /// nothing while the browser has no focus), and the browser's own process
  /// then counts only when it shows no covered site.
  private func matchInUse(at now: MeterInstant) -> [MeterEvent] {
    guard backend?.countingSource != .running else {
      var nowRunning: [String: AppMatch] = [:]
      for report in siteReports.sorted(by: { $0.site < $1.site }) {
        if let match = rules.match(site: report.site), nowRunning[match.rule.name] == nil {
          nowRunning[match.rule.name] = match
        }
      }
      for app in runningOrder where !isReportingBrowser(app) {
        if let match = rules.match(app), nowRunning[match.rule.name] == nil { nowRunning[match.rule.name] = match }
      }
      running = nowRunning
      focused = nil
      focusedIsSite = false
      return meter.inUse(Set(running.keys), at: now)
    }
    running = [:]
    let site = focusedIdentity?.pid.flatMap { pid in
      siteReports.lazy.filter { $0.browserPID == pid }.compactMap { self.rules.match(site: $0.site) }.first
    }
    focused = site ?? focusedIdentity.flatMap { rules.match($0) }
    focusedIsSite = site != nil
    return meter.inUse(focused.map { [$0.rule.name] } ?? [], at: now)
  }

  /// Whether `app` is a browser whose host reports a covered site: its own match gives way to the site's.
  private func isReportingBrowser(_ app: AppIdentity) -> Bool {
    guard let pid = app.pid else { return false }
    return siteReports.contains { $0.browserPID == pid && rules.match(site: $0.site) != nil }
  }

  // MARK: Helpers

  private func rule(named name: String) -> Rule? {
    rules.rules.first { $0.name == name }
  }

  /// The name to show for `rule`: the app of it in front or running, else its first app.
  private func displayApp(of rule: Rule) -> String {
    if let focused, focused.rule.name == rule.name { return focused.app.name }
    if let running = running[rule.name] { return running.app.name }
    return rule.apps.first?.name ?? rule.name
  }
}
