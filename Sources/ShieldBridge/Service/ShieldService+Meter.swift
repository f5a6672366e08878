import DBus
import Desktop
import Model
import Posix
import ShieldCore

extension ShieldService {
  /// Starts the meter on ``Options/desktop`` (or the one
  /// ``Options/openingDesktop`` opens), unless there is none or nothing to meter.
  ///
  /// With the built-in rule alone nothing is metered: it covers every app for
  /// a shield asked by name, but names none the desktop could report. The
  /// desktop is then opened only when a reload brings rules (``meter(_:)``).
  func startMeter() async {
    tellBootCheck()
    await meter(options.configuration.rules)
  }

  /// Meters `rules`, the rules in force now, as a start with them would: the
  /// desktop opened and watched when there are rules and none is watched
  /// yet, the meter off with the built-in rule alone.
  ///
  /// A desktop lost for good (no backend left to fall back on) stays lost
  /// until the service restarts, as the log said.
  func meter(_ rules: RuleSet) async {
    options.coverage.update(rules)
    guard !stopped else { return }
    if rules.isBuiltIn {
      let wasWatching = backend != nil
      if let backend {
        // Its events end with it; the generation drops what is still on the way.
        generation += 1
        reader?.cancel()
        reader = nil
        backend.stop()
        self.backend = nil
        inbox.yield(Envelope(.desktopLost, at: instant()))
      }
      if wasWatching || meterState != .offWithoutRules {
        meterLog.info("off (config.json has no rules, so no app is metered)")
      }
      meterState = .offWithoutRules
      return
    }
    guard backend == nil, meterState != .lost else { return }
    let desktop = unwatchedDesktop ?? options.openingDesktop?()
    unwatchedDesktop = nil
    guard let desktop else {
      if meterState != .offWithoutDesktop { meterLog.info("off (no desktop is watched)") }
      meterState = .offWithoutDesktop
      return
    }
    // A stop of the process is told from a busy machine by its SIGCONT (noteMissedTimer()).
    ContinueSignal.watch()
    meterState = .watching
    watch(desktop)
  }

  /// Reads `backend`'s events into the loop.
  func watch(_ backend: any DesktopBackend) {
    guard !stopped else {
      backend.stop()
      return
    }
    generation += 1
    let generation = self.generation
    self.backend = backend
    meterLog.info(
      "watching the desktop through \(backend.kind) (counting \(backend.countingSource.rawValue) time)"
        + (backend.limitations.isEmpty ? "" : "; " + backend.limitations.joined(separator: "; ")))
    inbox.yield(Envelope(.desktopStarted(countsRunning: backend.countingSource == .running), at: instant()))
    let events = backend.stampedEvents(idleAfter: options.meter.idleLimit)
    let inbox = self.inbox
    let clock = startOptions.ledger.clock
    reader = Task { [weak self] in
      for await stamped in events {
        // The moment it happened: the source's stamp where it gives one (read
        // late after a stop, it lies in the past), else now.
        let handled = MeterInstant.now(wall: clock)
        let at = stamped.stamp.map { handled.backdated(to: $0) } ?? handled
        switch stamped.event {
        case .focus(let window): inbox.yield(Envelope(.focus(window?.app), at: at))
        case .running(let apps): inbox.yield(Envelope(.running(apps), at: at))
        case .idle(let isIdle): inbox.yield(Envelope(.idle(isIdle), at: at))
        case .inhibited(let isInhibited): inbox.yield(Envelope(.inhibited(isInhibited), at: at))
        case .screen(let state): inbox.yield(Envelope(.screenVisible(state == .on), at: at))
        case .notice(let text): await self?.notice(text)
        case .lost(let reason):
          await self?.lose(reason, generation: generation)
          return
        }
      }
      await self?.lose("its events ended", generation: generation)
    }
  }

  private func notice(_ text: String) {
    log.for("desktop").for(backend?.kind.description ?? "").notice(text)
  }

  /// The backend stopped working: fall back to the next one, or go on without a desktop.
  private func lose(_ reason: String, generation: Int) async {
    guard !stopped, generation == self.generation, let lost = backend else { return }
    meterLog.warning("the \(lost.kind) desktop was lost: \(reason)")
    lostKinds.insert(lost.kind)
    lost.stop()
    backend = nil
    self.generation += 1
    reader = nil
    inbox.yield(Envelope(.desktopLost, at: instant()))
    if let next = await options.fallbackDesktop?(lostKinds), !stopped {
      if lostKinds.contains(next.kind) {
        next.stop()
        meterLog.error("no other desktop to fall back on; nothing is counted until the service restarts")
      } else {
        meterLog.notice("falling back to \(next.kind)")
        watch(next)
      }
    } else {
      meterLog.error("no other desktop to fall back on; nothing is counted until the service restarts")
    }
    if backend == nil { meterState = .lost }
  }

  /// Stops the desktop and the timer; the loop saves what was counted when it ends.
  func stopMeter() {
    guard !stopped else { return }
    stopped = true
    reader?.cancel()
    reader = nil
    timer?.cancel()
    timer = nil
    backend?.stop()
    backend = nil
    unwatchedDesktop?.stop()
    unwatchedDesktop = nil
  }

  /// Writes the use counted up to now (the service stops).
  func saveAtStop() {
    if let last = core.stop(at: checkedForDay(instant())) { _ = save(last) }
  }

  /// `instant`, its boot time checked against the kernel's uptime again when
  /// the meter would begin another day at it: the one decision the boot time
  /// vouches for, so that only it reads `/proc` (``CheckedBootClock``).
  func checkedForDay(_ instant: MeterInstant) -> MeterInstant {
    guard core.meter.endsDay(at: instant) else { return instant }
    var checked = instant
    checked.boot = startOptions.ledger.clock.recheckBoot(instant.boot)
    tellBootCheck()
    return checked
  }

  /// Logs what the last check of the boot time found, once per change: a
  /// boot clock faked for this process is not believed, and the log says so.
  func tellBootCheck() {
    guard let check = startOptions.ledger.clock.bootClock?.lastCheck, check.offset != toldBootOffset else { return }
    toldBootOffset = check.offset
    guard check.offset != 0 else {
      meterLog.info("the boot clock agrees with the kernel's uptime (/proc/uptime) again")
      return
    }
    let seconds = Int(min(Double(check.offset.magnitude) / 1e9, 1e12).rounded())
    meterLog.warning(
      "this process's boot clock (CLOCK_BOOTTIME) is \(seconds) s \(check.offset > 0 ? "ahead of" : "behind") "
        + "the kernel's uptime (/proc/uptime): it is faked for the process (libfaketime fakes it unless "
        + "FAKETIME_DONT_FAKE_MONOTONIC is set); the kernel's uptime is used, so the day stays as the kernel has it")
  }

  /// The rule's `onLimit` on its apps: hide (or close where the backend cannot hide), close, or nothing.
  ///
  /// The rule is the core's, which decided it: a reload that renamed it
  /// while the decision was on its way does not make it a rule of no apps.
  func enforce(_ name: String, as wayOut: WayOut? = nil) async {
    guard let backend, let rule = core.rules.rules.first(where: { $0.name == name }) else { return }
    let patterns = rule.apps
    let matches: @Sendable (AppIdentity) -> Bool = { identity in patterns.contains { $0.matches(identity) } }
    // The way out hides or closes as the core decided (WayOut.decide), the limit as onLimit says.
    let action: LimitAction =
      switch wayOut {
      case .hide: .hide
      case .close: .close
      case nil: rule.onLimit
      }
    switch action {
    case .notify:
      return
    case .hide:
      do {
        let count = try await backend.hide(where: matches)
        meterLog.info("rule \(rule.name): hid \(count) window(s)")
        return
      } catch {
        meterLog.warning("rule \(rule.name): \(backend.kind) cannot hide (\(error)); closing instead")
      }
    case .close:
      break
    }
    do {
      let pids = try await backend.close(where: matches)
      meterLog.info("rule \(rule.name): asked \(pids.count) process(es) to close")
      escalation.closing(pids, rule: rule.name, at: .now)
    } catch {
      meterLog.error("rule \(rule.name): cannot close its apps: \(error)")
    }
  }

  /// Sleeps until the first of the core's wake-up and the next signal of a close in progress.
  func reschedule() {
    guard !stopped else { return }
    // A stop during the input just handled made the deadline late: noted before it is replaced.
    noteMissedTimer()
    let now = instant()
    let escalationWait = escalation.nextDeadline.map { max(.zero, $0.duration(since: now.monotonic)) }
    guard let wait = [core.wait(after: now), escalationWait].compactMap({ $0 }).min() else {
      // Nothing is due: a deadline that fired is no longer one to miss.
      if timer == nil { timerDeadline = nil }
      return
    }
    let deadline = now.monotonic.advanced(by: wait)
    // A timer due no later stays: it may fire early or for nothing, and the
    // tick then sets the next one. Most inputs (a focus change) move no
    // deadline forward, so they start no task and cancel none.
    if let timerDeadline, timer != nil, timerDeadline <= deadline { return }
    timer?.cancel()
    timerDeadline = deadline
    let inbox = self.inbox
    let clock = startOptions.ledger.clock
    timer = Task { [weak self] in
      do { try await Task.sleep(for: wait) } catch { return }
      await self?.timerFired(deadline)
      inbox.yield(Envelope(.tick, at: .now(wall: clock)))
    }
  }

  /// How late a timer may fire before the process is taken to have been stopped meanwhile.
  static let stoppedAfter: Duration = .seconds(3)

  /// Notes a timer due far in the past because the process was stopped
  /// (`kill -STOP`, then `SIGCONT`), when the backend's changes carry no
  /// stamps of their own: from that deadline on, what the desktop did is
  /// unknown (``ShieldInput/unobserved(since:)``). A timer late on a busy
  /// machine, with no `SIGCONT` since it was due, counts as usual: the
  /// process ran late, but the desktop's state held meanwhile.
  ///
  /// One comparison per input, and no wake-up of its own: while time counts,
  /// a timer is always set (the save interval at the latest), so a stop while
  /// counting misses one.
  func noteMissedTimer() {
    guard let due = timerDeadline, due != toldMissedDeadline, backend?.stampsChanges == false else { return }
    guard MonotonicTime.now.duration(since: due) > Self.stoppedAfter, ContinueSignal.continued(since: due) else {
      return
    }
    missedDeadline = min(missedDeadline ?? due, due)
    toldMissedDeadline = due
  }

  /// The input that tells the core of a missed timer, once; `nil` when none was missed.
  func takeMissedTimer() -> Envelope? {
    noteMissedTimer()
    guard let due = missedDeadline else { return nil }
    missedDeadline = nil
    let now = instant()
    return Envelope(.unobserved(since: now.backdated(to: due)), at: now)
  }

  /// The deadline stays until the tick's handling sets the next one
  /// (``reschedule()``): a stop while the tick is handled (its save can take
  /// a while on a busy disk) is still a stop that missed a timer.
  private func timerFired(_ deadline: MonotonicTime) {
    noteMissedTimer()
    if timerDeadline == deadline { timer = nil }
    for line in escalation.fire(at: .now) { meterLog.info(line) }
  }

  /// Today's use per rule and the source that counts it: what `Usage()` answers.
  ///
  /// Without a desktop the source is `off` and each configured rule shows
  /// what the ledger holds, counting nothing; with only the built-in rule
  /// the rules are empty.
  public func usage() async -> UsageReport {
    // Read now rather than when the watcher next tells: a grant just recorded shows at once.
    if let loaded = try? options.ledger.load() {
      await settle(.ledger(loaded.value))
    } else {
      await settle(.tick)
    }
    let source =
      backend.map {
        UsageReport.Source(
          backend: $0.kind, counting: $0.countingSource, limitations: $0.limitations, attention: $0.attention)
      } ?? .off
    let rules = options.configuration.rules.isBuiltIn ? [] : core.usages
    let sites = siteCallers.values.compactMap { caller -> UsageReport.ReportedSite? in
      guard let site = caller.site, let match = options.configuration.rules.match(site: site) else { return nil }
      return UsageReport.ReportedSite(
        site: site, browserPID: caller.browserPID, rule: match.rule.name, app: match.app.name)
    }
    return UsageReport(
      date: core.meter.day, source: source, rules: rules,
      sites: sites.sorted { ($0.site, $0.browserPID) < ($1.site, $1.browserPID) })
  }
}
