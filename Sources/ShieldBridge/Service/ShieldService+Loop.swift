import Config
import DBus
import DeepLink
import Desktop
import Model
import Notifications
import ShieldCore
import Store

extension ShieldService {
  /// One input with the moment it happened: read when it arrives, so that a
  /// busy loop never moves time from one rule to another, or the desktop
  /// source's own stamp of it, so that a stopped process does not either.
  struct Envelope: Sendable {
    var input: ShieldInput
    var at: MeterInstant
    /// A caller waiting until this input and everything it led to is done.
    var barrier: PostKey?

    init(_ input: ShieldInput, at: MeterInstant, barrier: PostKey? = nil) {
      self.input = input
      self.at = at
      self.barrier = barrier
    }
  }

  /// What a caller on the bus waits for.
  enum Answer: Sendable {
    /// The id of the notification posted for it, or why none was.
    case posted(Result<UInt32, ServiceError>)
    /// What became of a link.
    case record(DispatchRecord)
    /// The input was handled, and what it led to.
    case done
    /// The service stopped first.
    case stopping
  }

  // MARK: The loop

  /// Starts the one loop: it takes the inputs in order, hands each to the
  /// core, carries out the core's effects in order, and hands their results
  /// back before the next input.
  ///
  /// The loop is the only place that touches ``core``; the bus, the desktop,
  /// the file watchers and the timer only put inputs in ``inbox``. A caller
  /// that needs an answer (`Shield`, `Open`) puts its input in with a key and
  /// waits for the answer under that key (``ask(_:)``).
  func startLoop() {
    let inputs = self.inputs
    loop = Task { [weak self] in
      for await envelope in inputs {
        guard let self else { return }
        await self.process(envelope)
      }
    }
  }

  /// Puts the input `make` builds in the loop and waits for its answer.
  func ask(_ make: (PostKey) -> ShieldInput) async -> Answer {
    nextCallerKey += 1
    let key = PostKey(nextCallerKey)
    return await withCheckedContinuation { continuation in
      answers[key] = continuation
      inbox.yield(Envelope(make(key), at: instant()))
    }
  }

  /// Puts `input` in the loop and waits until it, and everything it led to, was handled.
  func settle(_ input: ShieldInput) async {
    nextCallerKey += 1
    let key = PostKey(nextCallerKey)
    _ = await withCheckedContinuation { continuation in
      answers[key] = continuation
      inbox.yield(Envelope(input, at: instant(), barrier: key))
    }
  }

  func answer(_ key: PostKey, _ answer: Answer) {
    answers.removeValue(forKey: key)?.resume(returning: answer)
  }

  /// The moment now, by the service's clocks (the ledger's wall clock, which tests set).
  nonisolated func instant() -> MeterInstant {
    MeterInstant.now(wall: startOptions.ledger.clock)
  }

  private func process(_ envelope: Envelope) async {
    // A stop noticed now is told first: the span it left is not booked by this input.
    var queue = [takeMissedTimer(), envelope].compactMap { $0 }
    while !queue.isEmpty {
      let next = queue.removeFirst()
      if case .closed(let id, _) = next.input { posted.remove(id) }
      for effect in core.handle(next.input, at: checkedForDay(next.at)) {
        // The results come back before any input that arrived meanwhile.
        queue += await carryOut(effect).map { Envelope($0, at: instant()) }
      }
    }
    if let barrier = envelope.barrier { answer(barrier, .done) }
    reschedule()
  }

  // MARK: Effects

  /// Carries out one effect; returns the inputs its result makes.
  private func carryOut(_ effect: ShieldEffect) async -> [ShieldInput] {
    switch effect {
    case .post(let post, let key):
      return await carryOut(post, key: key)
    case .close(let id):
      try? await client.close(id)
      return []
    case .enforce(let rule):
      await enforce(rule)
      return []
    case .stopClosing(let rule):
      escalation.cancel(rule: rule)
      return []
    case .stopClosingAll:
      escalation.cancelAll()
      return []
    case .dayBegan(let day):
      let inputs = beginDay(day)
      // The new day's rules are metered as a start today would meter them: the built-in rule stops the meter.
      await meter(options.configuration.rules)
      return inputs
    case .openTask(let request):
      return await openTask(request)
    case .wayOut(let name, let wayOut):
      do {
        let counted = try options.ledger.recordBackedOut(for: name)
        for warning in counted.warnings { log.warning("\(warning)") }
        log.info("rule \(name): the way out was taken (\(counted.value.count) today)")
      } catch {
        log.error("rule \(name): the way out could not be counted: \(error)")
      }
      await enforce(name, as: wayOut)
      return []
    case .recordGrant(let name):
      guard let rule = core.rules.rules.first(where: { $0.name == name }) else { return [] }
      return [.grant(rule: name, grant(for: rule))]
    case .save(let save):
      return self.save(save)
    case .postWeeklySummary(let week):
      return await postWeeklySummary(week: week)
    case .glance(let glance):
      self.glance = glance
      emit(ServiceInterface.glanceChanged, Glance.json(glance))
      return []
    case .limitReached(let rule, let app):
      emit(ServiceInterface.limitReached, rule, app)
      return []
    case .unlocked(let rule, let minutes):
      emit(ServiceInterface.unlocked, rule, UInt32(clamping: minutes))
      return []
    case .dispatched(let action, let outcome, let detail, let key):
      let kind: DispatchRecord.Outcome =
        switch outcome {
        case .duplicate: .duplicate
        case .coalesced: .coalesced
        }
      let record = DispatchRecord(action: action, scheme: links.scheme, outcome: kind, detail: detail)
      report(record)
      answer(key, .record(record))
      return []
    case .log(let entry):
      log.log(entry)
      return []
    }
  }

  private func carryOut(_ post: ShieldEffect.Post, key: PostKey) async -> [ShieldInput] {
    let notification: Notification
    var what = ""
    switch post {
    case .shield(_, let app, let kind):
      what = "shielded \(app ?? "an unnamed app")"
      switch kind {
      case .downtime(let until):
        notification = texts.downtimeShield(app: app, until: until, identifier: links.identifier)
      case .usedUp:
        notification = texts.usedUp(app: app, identifier: links.identifier)
      case .task(let grantMinutes):
        let views = app.map { options.configuration.views.views(for: $0).map(\.name) } ?? []
        do {
          notification = try texts.shield(
            app: app, minutes: grantMinutes, views: views, identifier: links.identifier, router: router)
        } catch {
          answer(key, .posted(.failure(ServiceError(.badLink, "cannot build the link: \(error.message)"))))
          return [.posted(key, id: nil, links: [:])]
        }
      }
    case .warning(let app, let minutes):
      notification = texts.warning(app: app, minutes: minutes, identifier: links.identifier)
    case .task(let app, let minutes, let puzzle, let afterWrongAnswer, let asked, let waitSeconds, let replacing):
      notification = texts.puzzle(
        app: app, minutes: minutes, task: puzzle, afterWrongAnswer: afterWrongAnswer, asked: asked,
        waitSeconds: waitSeconds, replacing: replacing)
    case .solved(let app, let minutes, let replacing):
      notification = texts.solved(app: app, minutes: minutes, replacing: replacing)
    case .usedUp(let app):
      notification = texts.usedUp(app: app, identifier: links.identifier)
    }
    do {
      let id = try await self.post(notification)
      if !what.isEmpty { log.info("\(what): notification \(id)") }
      answer(key, .posted(.success(id)))
      var offered: [String: String] = [:]
      for action in notification.actions { offered[action.key] = action.link }
      return [.posted(key, id: id, links: offered)]
    } catch {
      if !what.isEmpty { log.error("\(what): the notification could not be shown: \(error)") }
      answer(key, .posted(.failure(error)))
      return [.posted(key, id: nil, links: [:])]
    }
  }

  /// Records the grant of an inline task the core saw solved, through the one puzzle path.
  private func grant(for rule: Rule) -> GrantResult {
    do {
      let prepared = try PuzzleRun.prepare(for: rule, in: options.ledger, random: SeededRandom(seed: 0))
      for warning in prepared.warnings { log.warning("\(warning)") }
      switch prepared.value {
      case .usedUp: return .usedUp
      case .notAtLimit: return .failed("rule \(rule.name) is not at its limit")
      case .inDowntime(_, let until): return .failed("\(LedgerError.inDowntime(rule: rule.name, until: until))")
      case .ready(let run):
        let grant = try run.solved().grant()
        for warning in grant.warnings { log.warning("\(warning)") }
        switch grant.value {
        case .granted(let recorded): return .recorded(grantsToday: recorded.status.grantsToday)
        case .usedUp: return .usedUp
        case .notAtLimit: return .failed("rule \(rule.name) is not at its limit")
        }
      }
    } catch {
      return .failed("\(error)")
    }
  }

  /// Writes what the core asks to be saved; the ledger after the write goes back to the core.
  ///
  /// A save that fails leaves the count in memory, where the meter goes on
  /// with it, and the next save tries again. The log says so once for each
  /// refusal, not at every save: again only when the reason changes, and
  /// once more when a save succeeds again. A ledger from a newer
  /// ShieldBridge is never written over.
  func save(_ save: ShieldEffect.Save) -> [ShieldInput] {
    do {
      let result = try options.ledger.recordMeter(
        usage: save.usedSecondsByDay, replacing: save.replacing, grants: save.grantsByDay, metered: save.metered,
        limitReached: save.limitReached, on: core.meter.day, anchor: save.anchor,
        rulesInForce: save.rulesInForce.isBuiltIn ? nil : RulesInForce.json(of: save.rulesInForce))
      for warning in result.warnings { meterLog.warning("\(warning)") }
      if ledgerRefusal != nil {
        ledgerRefusal = nil
        meterLog.notice("the ledger is written again: \(options.ledger.path)")
      }
      saveHistory(save, ledger: result.value)
      return [.ledger(result.value)]
    } catch {
      if ledgerRefusal != error {
        ledgerRefusal = error
        let what = save.reason.map { " (\($0))" } ?? ""
        if case .newerVersion = error {
          meterLog.error(
            "cannot store today's use\(what): \(error); the meter counts in memory until the file is one "
              + "this ShieldBridge reads (or is removed), and this is said once")
        } else {
          meterLog.error("cannot store today's use\(what): \(error); the meter counts in memory and tries again")
        }
      }
      return []
    }
  }

  nonisolated func emit<each A: DBusArgument>(_ signal: SignalContract<repeat each A>, _ arguments: repeat each A) {
    do {
      try connection.emit(signal, path: ServiceNames.path, repeat each arguments)
    } catch {
      log.warning("cannot emit \(signal.name.rawValue): \(error.message)")
    }
  }

  nonisolated func report(_ record: DispatchRecord) {
    log.notice(record.logLine)
    try? connection.emit(ServiceInterface.dispatched, path: ServiceNames.path, record.json.serialized)
  }

  /// The ledger the core starts from (from nothing, said in the log, when it cannot be read).
  static func storedLedger(_ options: Options) -> Ledger {
    readLedger(options).ledger
  }

  /// ``storedLedger(_:)``, with the error that kept the ledger out, which the log has said.
  static func readLedger(_ options: Options) -> (ledger: Ledger, refusal: LedgerError?) {
    do {
      let loaded = try options.ledger.loadForMeter(rules: options.configuration.rules)
      for warning in loaded.warnings { options.logger.warning("\(warning)") }
      return (loaded.value, nil)
    } catch {
      options.logger.for("meter").error(
        "the ledger cannot be read (\(error)); today's use and grants start from zero and are counted in memory; "
          + "the file is not written while this lasts")
      return (Ledger(), error)
    }
  }
}
