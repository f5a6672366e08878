import Model

extension ShieldCore {
  // MARK: What the meter decided

  /// Acts on the meter's events in order.
  ///
  /// - Returns: The rules whose limit was enforced here, so that the same input does not enforce it twice.
  mutating func act(on events: [MeterEvent], at now: MeterInstant, effects: inout Effects) -> Set<String> {
    var enforced: Set<String> = []
    var queue = events[...]
    var newDay = false
    while let event = queue.popFirst() {
      switch event {
      case .warning(let name, let remaining):
        guard let rule = rule(named: name) else { continue }
        // Whole minutes left, rounded up ("1 minute left" until the limit); a zero-length minute counts as one.
        let minute = max(settings.minuteLength, .milliseconds(1))
        let minutes = max(1, Int(min(1e9, (remaining / minute).rounded(.up))))
        effects.log(.notice, "meter", "rule \(name): \(minutes) minute(s) left today, warning")
        effects.append(.post(.warning(app: displayApp(of: rule), minutes: minutes), key: nextPostKey()))
      case .limitReached(let name):
        guard let rule = rule(named: name) else { continue }
        let grants = meter.usage(of: name)?.grantsToday ?? 0
        if let atLimit = overLimit[name] {
          // A grant that lifted nothing (the use is past the new limit too):
          // the limit at this count is reached as well, and the ledger says
          // so, so that the next task may be taken; the shield stays as it is.
          if atLimit != grants {
            overLimit[name] = grants
            save(reason: "limit", at: now, effects: &effects)
          }
          continue
        }
        overLimit[name] = grants
        save(reason: "limit", at: now, effects: &effects)
        let app = displayApp(of: rule)
        effects.log(.notice, "meter", "rule \(name) reached today's limit (\(app) in use); \(rule.onLimit.rawValue)")
        effects.append(.limitReached(rule: name, app: app))
        // The rule's action first: the hide must not wait for the notification server.
        effects.append(.enforce(rule: name))
        if !isShown(rule: name) { postShield(rule: name, app: app, at: now, effects: &effects) }
        enforced.insert(name)
      case .lifted(let name):
        guard let rule = rule(named: name) else { continue }
        let grantsAtLimit = overLimit.removeValue(forKey: name)
        effects.append(.stopClosing(rule: name))
        // The minutes the grants added to today's limit; on a new day, the day's own limit; at a
        // downtime's end (no grant since the limit), what is left of the day's limit.
        let usage = meter.usage(of: name)
        let grants = usage?.grantsToday ?? 0
        let downtimeEnded = !newDay && grantsAtLimit == grants
        let left = usage.map { Int((($0.limit - $0.used) / settings.minuteLength).rounded(.down)) } ?? 0
        let minutes =
          newDay
          ? rule.dailyLimitMinutes(on: meter.day)
          : downtimeEnded ? max(1, left) : rule.grantMinutes * max(1, grants - (grantsAtLimit ?? grants - 1))
        // Saved once at the end of the input, however many rules a new day lifts.
        effects.save = newDay ? "new day" : "grant"
        effects.log(.notice, "meter", "rule \(name) is unlocked: \(minutes) more minute(s)")
        lift(rule: name, effects: &effects)
        effects.append(.unlocked(rule: name, minutes: minutes))
      case .newDay(let day), .dayResumed(let day):
        if case .newDay = event {
          effects.log(.info, "meter", "a new day, \(day): every rule starts from its daily limit")
          effects.append(.dayBegan(day))
        } else {
          effects.log(.info, "meter", "\(day) began again, a day already held: its use and grants go on")
        }
        newDay = true
        for name in overLimit.keys.sorted() where !events.contains(.lifted(rule: name)) {
          // Lift what the meter does not lift itself, so that nothing stays hidden past midnight.
          queue.append(.lifted(rule: name))
        }
        effects.append(.stopClosingAll)
        effects.save = "new day"
      }
    }
    return enforced
  }

  /// Takes in what the ledger holds: grants recorded by other processes lift
  /// their rules, and grants above a rule's maximum count as the maximum (a
  /// warning once per count). A ledger that lacks what the meter knows
  /// (its entry for a day was dropped, it was moved aside as damaged, it was
  /// edited by hand) is saved again at once: the grants, the use saved and
  /// the meter's record come back, so no process offers a grant already taken.
  mutating func absorb(_ ledger: Ledger, at now: MeterInstant, effects: inout Effects) {
    for rule in rules.rules {
      let grants = rule.countedGrants(ledger.grants(for: rule.name, on: meter.day))
      if let usage = meter.usage(of: rule.name), grants > usage.grantsToday {
        effects.log(.notice, "meter", "rule \(rule.name): \(grants - usage.grantsToday) grant(s) recorded")
      }
    }
    warnOfGrantsAboveMaximum(in: ledger, effects: &effects)
    // A count the meter itself saved and has lowered since (a change stamped in
    // the past) is not taken back: the next save replaces it.
    var taken = ledger
    for (day, saved) in savedUsage {
      for (rule, seconds) in saved where taken.usedSeconds(for: rule, on: day) == seconds {
        taken.forgetUsedSeconds(for: rule, on: day)
      }
    }
    effects.meter(meter.absorb(taken, at: now))
    if lacksWhatIsKnown(ledger) {
      // At debug: a ledger read before the service's own latest save lacks it too, and that save changes nothing.
      effects.log(.debug, "meter", "the ledger lacks grants or use this service knows; they are written again")
      effects.save = effects.save ?? "the ledger lacked what the meter knows"
    }
  }

  /// Logs each rule whose grants in `ledger` today are above its maximum, once per count found.
  mutating func warnOfGrantsAboveMaximum(in ledger: Ledger, effects: inout Effects) {
    var found: [String: Int] = [:]
    for warning in ledger.grantsAboveMaximum(of: rules, on: meter.day) {
      guard case .grantsAboveMaximum(_, let rule, let count, _) = warning else { continue }
      found[rule] = count
      if grantsAboveMaximum[rule] != count { effects.log(.warning, "meter", "\(warning)") }
    }
    grantsAboveMaximum = found
  }

  /// Whether `ledger` holds fewer grants than the meter knows, less use than
  /// was saved, or less of the meter's record, on a day a ledger keeps.
  func lacksWhatIsKnown(_ ledger: Ledger) -> Bool {
    let today = meter.day
    func isKept(_ day: LocalDay) -> Bool { today.days(to: day) > -Ledger.keptDays }
    for (day, grants) in meter.grantsByDay where isKept(day) {
      let lacking = grants.contains { ledger.grants(for: $0.key, on: day) < min($0.value, Ledger.maximumStoredGrants) }
      if lacking { return true }
    }
    for (day, used) in savedUsage where isKept(day) {
      let lacking = used.contains {
        ledger.usedSeconds(for: $0.key, on: day) < min($0.value, Ledger.maximumUsedSeconds)
      }
      if lacking { return true }
    }
    if isMetering, !Set(rules.rules.map(\.name)).isSubset(of: ledger.metered(on: today)) { return true }
    return savedLimits.contains { (ledger.limitReached(for: $0.key, on: today) ?? -1) < $0.value }
  }

  /// New rules: the use so far is saved, and the meter is built again from
  /// the ledger with the new rules, each with the day of the rules it takes
  /// over (``Model/RuleChange/takeOver``); what the desktop said last is given
  /// to it at once.
  ///
  /// No gap opens: a rule at its limit (or in downtime) before stays at it
  /// when the new meter has it at or over its limit, and what of it is in
  /// front is enforced again at once, so a focus that comes with the change,
  /// or just after it, finds the rule over its limit as before.
  mutating func replaceRules(_ change: RuleChange, ledger: Ledger, at now: MeterInstant, effects: inout Effects) {
    _ = act(on: effects.events, at: now, effects: &effects)
    effects.events = []
    let old = meter
    let wasOver = overLimit
    // The use counted since the last save is not in the ledger yet: the larger count of each wins.
    var merged = ledger
    for (day, seconds) in old.usedSecondsByDay { merged.recordUsedSeconds(seconds, on: day) }
    // And the grants it knows, which a ledger that cannot be read (or lost them) lacks.
    merged.recordKnownGrants(old.grantsByDay)
    // And the day it is on, which a save not yet written may not have stored.
    if let anchor = old.dayAnchor { merged.dayAnchor = anchor }
    // Today's use and grants belong to the apps: each rule takes over the day of the rules it continues.
    merged = merged.takingOver(change.takeOver, on: old.day)
    let newRules = change.rules
    rules = newRules
    meter = UsageMeter(
      settings: settings.meterSettings(newRules),
      ledger: merged, now: now, bootID: settings.bootID, appSeconds: old.appSecondsByDay)
    overLimit = [:]
    for rule in newRules.rules {
      let before = [rule.name] + (change.takeOver[rule.name] ?? [])
      guard before.contains(where: { wasOver[$0] != nil }), meter.isAtLimit(rule.name) else { continue }
      overLimit[rule.name] = meter.usage(of: rule.name)?.grantsToday ?? 0
    }
    effects.meter(meter.idle(old.isIdle, at: now))
    effects.meter(meter.inhibited(old.isInhibited, at: now))
    effects.meter(meter.screenVisible(old.isScreenVisible, at: now))
    effects.meter(matchInUse(at: now))
    // What of a rule over its limit is in front or runs is hidden (or closed) again, as a focus on it would be.
    if let focused, !focusedIsSite { effects.broughtBack.append(focused) }
    effects.broughtBack += running.values.sorted { $0.rule.name < $1.rule.name }
    effects.log(.info, "meter", "rules now \(newRules.rules.map(\.name).joined(separator: ", "))")
    // After what the change enforces: the rules in force and the counts carried to them, in one write.
    effects.save = "new rules"
  }

  // MARK: What is in use

  /// Matches what the desktop said last (the window in front or the apps
  /// that run) and the browsers' sites against the rules, and tells the meter.
  ///
  /// One budget, never counted twice: a browser in front that shows a
  /// covered site counts for the site's rule instead of the window's own
  /// match. With focus, the desktop decides: the browser is in front when
  /// the focused window's process is the reporting browser, whatever the
  /// browser says of its own focus. Without focus (the process fallback) the
  /// browser's word decides: a reported site counts while the browser says
  /// its window is focused, and the browser's own process then counts only
  /// when it shows no such site.
  mutating func matchInUse(at now: MeterInstant) -> [MeterEvent] {
    switch watching {
    case .off:
      focused = nil
      focusedIsSite = false
      running = [:]
      return meter.inUse([], at: now)
    case .running:
      var nowRunning: [String: AppMatch] = [:]
      for report in siteReports.sorted(by: { $0.site < $1.site }) where report.windowFocused {
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
      return meter.inUse(apps: running.mapValues(\.app.name), at: now)
    case .focus:
      running = [:]
      let rules = self.rules
      let site = focusedIdentity?.pid.flatMap { pid in
        siteReports.lazy.filter { $0.browserPID == pid }.compactMap { rules.match(site: $0.site) }.first
      }
      focused = site ?? focusedIdentity.flatMap { rules.match($0) }
      focusedIsSite = site != nil
      return meter.inUse(apps: focused.map { [$0.rule.name: $0.app.name] } ?? [:], at: now)
    }
  }

  /// Whether `app` is a browser that says its focused window shows a covered
  /// site (process fallback): its own match gives way to the site's.
  func isReportingBrowser(_ app: AppIdentity) -> Bool {
    guard let pid = app.pid else { return false }
    return siteReports.contains { $0.browserPID == pid && $0.windowFocused && rules.match(site: $0.site) != nil }
  }

  /// The name to show for `rule`: the app of it in front or running, else its first app.
  func displayApp(of rule: Rule) -> String {
    if let focused, focused.rule.name == rule.name { return focused.app.name }
    if let running = running[rule.name] { return running.app.name }
    return rule.apps.first?.name ?? rule.name
  }
}
