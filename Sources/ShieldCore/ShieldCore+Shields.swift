import DeepLink
import Model

extension ShieldCore {
  // MARK: Shields, clicks and tasks

  mutating func handleShieldInput(_ input: ShieldInput, at now: MeterInstant, effects: inout Effects) {
    switch input {
    case .shieldAsked(let app, let rule, let key):
      post(
        .shield(rule: rule, app: app, kind: shieldKind(of: rule, at: now)), key: key, pending: .shield(rule: rule),
        effects: &effects)
      lastOffer[rule] = now
    case .linkOpened(let action, let link, let key):
      open(TaskRequest(action: action, link: link, rule: nil, token: nil, key: key), effects: &effects)
    case .posted(let key, let id, let links):
      posted(key, id: id, links: links, effects: &effects)
    case .action(let id, let key, let token):
      click(id, key: key, token: token, at: now, effects: &effects)
    case .closed(let id, let byUser):
      closed(id, byUser: byUser, at: now, effects: &effects)
    case .replied(let id, let text):
      answer(id, text: text, at: now, effects: &effects)
    case .taskOpened(let activation, let rule, let opening):
      taskOpened(activation, rule: rule, opening, at: now, effects: &effects)
    case .taskEnded(let activation):
      if let rule = tasks.removeValue(forKey: activation) {
        effects.log(.info, "task", "the task \(activation) ended")
        // Ended unsolved (a solved one lifted the rule): the shield may be offered again at once.
        if let rule { lastOffer[rule] = nil }
      }
    case .grant(let rule, let result):
      granted(rule, result, at: now, effects: &effects)
    default:
      break
    }
  }

  /// Posts the shield of `rule` and remembers when it was offered.
  mutating func postShield(rule: String, app: String?, at now: MeterInstant, effects: inout Effects) {
    post(
      .shield(rule: rule, app: app, kind: shieldKind(of: rule, at: now)), key: nextPostKey(),
      pending: .shield(rule: rule), effects: &effects)
    lastOffer[rule] = now
    shieldsShown[meter.day, default: [:]][rule, default: 0] += 1
    // No save of its own (a shield asked for by a caller must not wait for the disk): the next save
    // carries it to the history, which is soon while time counts, and at a grant, a new day and the stop.
  }

  /// An app of a rule over its limit came back: the shield is offered again,
  /// unless one is shown, a task for the rule is open, or it was offered (or
  /// dismissed) less than ``Settings/reofferInterval`` ago.
  mutating func reoffer(_ rule: Rule, app: String, at now: MeterInstant, effects: inout Effects) {
    guard !isShown(rule: rule.name), !tasks.values.contains(rule.name) else { return }
    if let last = lastOffer[rule.name], now.monotonic.duration(since: last.monotonic) < settings.reofferInterval {
      effects.log(.debug, "meter", "\(app) is over its limit; the shield was offered less than a minute ago")
      return
    }
    effects.log(.info, "meter", "\(app) came back over its limit; offering the shield again")
    postShield(rule: rule.name, app: app, at: now, effects: &effects)
  }

  func isShown(rule: String) -> Bool {
    shown.values.contains { $0.rule == rule }
      || pending.values.contains { if case .shield(rule) = $0 { true } else { false } }
  }

  /// What the shield of `rule` offers at `now`: in its downtime, no task and the time it ends
  /// (a downtime outweighs used-up grants: it says until when); with its grants used up,
  /// nothing; else a task.
  func shieldKind(of name: String, at now: MeterInstant) -> ShieldEffect.ShieldKind {
    if let end = meter.downtimeEnd(of: name) {
      return .downtime(until: Downtime.endText(end, from: now.wall, in: settings.calendar))
    }
    if isUsedUp(name) { return .usedUp }
    return .task(grantMinutes: rule(named: name)?.grantMinutes ?? 0)
  }

  /// Whether today's grants of `rule` are used up.
  func isUsedUp(_ name: String) -> Bool {
    guard let rule = rule(named: name), let usage = meter.usage(of: name) else { return false }
    return usage.grantsToday >= rule.maxGrantsPerDay
  }

  /// Whether a grant for `rule` may be taken now: the rule is at or over its
  /// limit (a limit of 0 minutes from the start of the day, before the meter
  /// has seen the app), or no desktop meters it (a script or another blocker
  /// shielded it); never during the rule's downtime, which no grant lifts.
  func mayGrant(_ rule: String) -> Bool {
    guard meter.downtimeEnd(of: rule) == nil else { return false }
    return !isMetering || overLimit[rule] != nil || meter.usage(of: rule)?.limit == .zero
  }

  private mutating func post(
    _ notification: ShieldEffect.Post, key: PostKey, pending kind: Pending, effects: inout Effects
  ) {
    pending[key] = kind
    effects.append(.post(notification, key: key))
  }

  private mutating func posted(_ key: PostKey, id: UInt32?, links: [String: String], effects: inout Effects) {
    guard let kind = pending.removeValue(forKey: key) else { return }
    guard let id, id != 0 else {
      // Not posted (or posted where nothing can be closed or clicked): a task asked this way ends here.
      if case .task(let task) = kind { tasks[task.activation] = nil }
      return
    }
    // The server gave the id to a new notification: the old one's history entry is gone.
    closedShields.remove(id)
    switch kind {
    case .shield(let rule):
      postings += 1
      shown[id] = Shown(rule: rule, links: links, posting: postings)
    case .task(let task):
      inline[id] = task
    case .other:
      break
    }
  }

  private mutating func click(_ id: UInt32, key: String, token: String?, at now: MeterInstant, effects: inout Effects) {
    // Only the links this service offered on this notification are followed,
    // also on one closed lately and shown again from the server's history.
    guard let shield = shown[id] ?? closedShields[id] else {
      if inline[id] == nil {
        effects.log(
          .info, "shield",
          "ignored a click on notification \(id): not a shield this service shows, nor one of the last "
            + "\(settings.closedShieldsKept) closed (run shieldbridge shield --app APP for a new one)")
      }
      return
    }
    shown[id]?.acted = true
    if key == WayOut.actionKey {
      takeWayOut(id, shield: shield, at: now, effects: &effects)
      return
    }
    guard let link = shield.links[key], let resolution = try? router.resolve(link) else { return }
    // A repeat is the same key on the same posting, whatever id the server reused.
    let click = Click(notification: id, key: "\(shield.posting) \(key)")
    clicks = clicks.filter { now.monotonic.duration(since: $0.value.monotonic) < settings.doubleClickWindow }
    if clicks[click] != nil {
      effects.append(.dispatched(resolution.action, outcome: .duplicate, detail: "", key: nextPostKey()))
      return
    }
    clicks[click] = now
    open(
      TaskRequest(action: resolution.action, link: link, rule: shield.rule, token: token, key: nextPostKey()),
      effects: &effects)
  }

  /// The shield's way out: counted once per shield, the rule's apps hidden or
  /// closed (``WayOut/decide(onLimit:)``), the shield closed, and not offered
  /// again for ``Settings/reofferInterval``, as after a dismissal.
  private mutating func takeWayOut(_ id: UInt32, shield: Shown, at now: MeterInstant, effects: inout Effects) {
    guard !shield.tookWayOut, let rule = rule(named: shield.rule) else { return }
    shown[id]?.tookWayOut = true
    if closedShields[id] != nil, shown[id] == nil {
      // Clicked in the server's history after the shield was closed: counted once all the same.
      var closed = shield
      closed.tookWayOut = true
      closedShields.insert(closed, for: id)
    }
    lastOffer[rule.name] = now
    let wayOut = WayOut.decide(onLimit: rule.onLimit)
    effects.log(.notice, "shield", "the way out was taken for rule \(rule.name) (\(wayOut.rawValue) its apps)")
    effects.append(.wayOut(rule: rule.name, wayOut))
    if shown[id] != nil { effects.append(.close(id)) }
  }

  /// Opens a task or a view: one per identifier at a time, and one task per
  /// rule (``taskRule(of:)``), so that a request for more time is one event
  /// however many links ask for it.
  ///
  /// A puzzle link for a rule whose task is open (clicked on another shield,
  /// or sent by `Open` with another `id`) opens nothing: the open task is the
  /// one to answer, and the request it made is the one counted. It is
  /// answered as coalesced, with the rule named.
  private mutating func open(_ request: TaskRequest, effects: inout Effects) {
    var request = request
    let activation = request.activation
    if tasks[activation] != nil {
      let what = if case .puzzle = request.action { "a puzzle" } else { "a view" }
      effects.append(
        .dispatched(
          request.action, outcome: .coalesced, detail: "\(what) for \(request.action.identifier) is already open",
          key: request.key))
      return
    }
    if let rule = taskRule(of: request) {
      request.rule = rule
      if tasks.values.contains(rule) {
        effects.append(
          .dispatched(
            request.action, outcome: .coalesced, detail: "a task for rule \(rule) is already open", key: request.key))
        return
      }
    }
    tasks[activation] = request.rule
    effects.append(.openTask(request))
  }

  /// The rule a puzzle link asks more time for: the clicked shield's, else
  /// the rule that covers the link's app; `nil` for a view, or a link no rule
  /// covers (the dispatch refuses it).
  func taskRule(of request: TaskRequest) -> String? {
    guard case .puzzle(let app, _, _) = request.action else { return nil }
    if let rule = request.rule { return rule }
    return try? rules.rule(for: app).name
  }

  private mutating func taskOpened(
    _ activation: String, rule: String?, _ opening: TaskOpening, at now: MeterInstant, effects: inout Effects
  ) {
    switch opening {
    case .process:
      break
    case .none:
      tasks[activation] = nil
    case .inline(let app, let grantMinutes, let asked, let grantsToday):
      guard let rule else {
        tasks[activation] = nil
        return
      }
      let session = PuzzleSession(random: SeededRandom(seed: random.next()), grant: grantsToday)
      let pause = self.rule(named: rule).map { Pause(of: $0) } ?? Pause(seconds: 0)
      let task = InlineTask(
        rule: rule, app: app, grantMinutes: grantMinutes, asked: asked, pause: pause, askedAt: now,
        activation: activation, session: session)
      post(
        .task(
          app: app, grantMinutes: grantMinutes, puzzle: session.puzzle, afterWrongAnswer: false, asked: asked,
          waitSeconds: pause.seconds, replacing: 0),
        key: nextPostKey(), pending: .task(task), effects: &effects)
    }
  }

  private mutating func closed(_ id: UInt32, byUser: Bool, at now: MeterInstant, effects: inout Effects) {
    if let shield = shown.removeValue(forKey: id) {
      // A server with a history can show it again under this id; its click must still dispatch.
      closedShields.insert(shield, for: id)
      if byUser && !shield.acted {
        // A dismissal: the shield is not offered again for a while, however often the app comes back.
        lastOffer[shield.rule] = now
        effects.log(
          .info, "shield", "shield notification \(id) was dismissed; it is offered again when the app comes back")
      }
    }
    if let task = inline.removeValue(forKey: id) {
      tasks[task.activation] = nil
      lastOffer[task.rule] = nil
      effects.log(.info, "task", "puzzle notification \(id) was closed unanswered")
    }
  }

  private mutating func answer(_ id: UInt32, text: String, at now: MeterInstant, effects: inout Effects) {
    guard var task = inline.removeValue(forKey: id) else { return }
    // A reply before the rule's pause ran (issue 25 point 4): the same task again, with the time left.
    let elapsed = task.askedAt.map { now.monotonic.duration(since: $0.monotonic) } ?? .seconds(Int64.max)
    let left = task.pause.secondsLeft(after: elapsed)
    if left > 0 {
      post(
        .task(
          app: task.app, grantMinutes: task.grantMinutes, puzzle: task.session.puzzle, afterWrongAnswer: false,
          asked: task.asked, waitSeconds: left, replacing: id),
        key: nextPostKey(), pending: .task(task), effects: &effects)
      effects.log(.info, "task", "puzzle notification \(id): a reply \(left) s before the pause ended, the same task")
      return
    }
    let attempt = task.session.answer(text)
    guard attempt == .solved else {
      post(
        .task(
          app: task.app, grantMinutes: task.grantMinutes, puzzle: task.session.puzzle,
          afterWrongAnswer: attempt == .wrong, asked: task.asked, replacing: id),
        key: nextPostKey(), pending: .task(task), effects: &effects)
      effects.log(
        .info, "task", "puzzle notification \(id): \(attempt == .wrong ? "wrong answer, new task" : "blank answer")")
      return
    }
    tasks[task.activation] = nil
    guard mayGrant(task.rule) else {
      effects.log(
        .info, "task",
        "puzzle notification \(id) solved, but rule \(task.rule) is "
          + (meter.downtimeEnd(of: task.rule) != nil ? "in downtime" : "not at its limit") + ": nothing to unlock")
      effects.append(.close(id))
      return
    }
    solving[task.rule, default: [:]][id] = task
    effects.append(.recordGrant(rule: task.rule))
  }

  private mutating func granted(_ name: String, _ result: GrantResult, at now: MeterInstant, effects: inout Effects) {
    let waiting = solving.removeValue(forKey: name) ?? [:]
    switch result {
    case .recorded(let grantsToday):
      for (id, task) in waiting.sorted(by: { $0.key < $1.key }) {
        effects.log(
          .notice, "task",
          "puzzle solved: \(task.grantMinutes) more minutes for \(task.app ?? "the app") (grant \(grantsToday) today)")
        post(
          .solved(app: task.app, minutes: task.grantMinutes, replacing: id), key: nextPostKey(), pending: .other,
          effects: &effects)
      }
      effects.meter(meter.granted(name, grantsToday: grantsToday, at: now))
      if !isMetering { lift(rule: name, effects: &effects) }
    case .usedUp:
      for task in waiting.values.sorted(by: { $0.activation < $1.activation }) {
        post(.usedUp(app: task.app), key: nextPostKey(), pending: .other, effects: &effects)
      }
      effects.log(.notice, "task", "puzzle solved, but today's grants for \(name) are used up")
    case .failed(let reason):
      effects.log(.error, "task", "puzzle solved, but the grant could not be recorded: \(reason)")
    }
  }

  /// The rule was unlocked: its shields and inline tasks have done their work and are closed.
  mutating func lift(rule name: String, effects: inout Effects) {
    lastOffer[name] = nil
    for (id, shield) in shown.sorted(by: { $0.key < $1.key }) where shield.rule == name {
      effects.append(.close(id))
    }
    for (id, task) in inline.sorted(by: { $0.key < $1.key }) where task.rule == name {
      inline[id] = nil
      tasks[task.activation] = nil
      effects.append(.close(id))
    }
  }
}
