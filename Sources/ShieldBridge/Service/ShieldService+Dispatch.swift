import DeepLink
import Model
import ShieldCore
import Store

extension ShieldService {
  /// Opens what a clicked link (or an `Open`) asks for, as the dispatch plan
  /// says, and tells the core how it was opened; the record is emitted as
  /// `Dispatched` and answers a caller waiting for it.
  func openTask(_ request: TaskRequest) async -> [ShieldInput] {
    let (record, opened): (DispatchRecord, ShieldInput) =
      switch request.action {
      case .puzzle(let app, _, let identifier):
        await openPuzzle(request, app: app, identifier: identifier)
      case .view(let app, let view, let identifier):
        await openView(request, app: app, view: view, identifier: identifier)
      }
    report(record)
    answer(request.key, .record(record))
    return [opened]
  }

  private func openPuzzle(
    _ request: TaskRequest, app: String?, identifier: String
  ) async -> (DispatchRecord, ShieldInput) {
    let action = request.action
    let activation = request.activation
    func nothing(_ outcome: DispatchRecord.Outcome, _ detail: String) -> (DispatchRecord, ShieldInput) {
      (
        DispatchRecord(action: action, scheme: links.scheme, outcome: outcome, detail: detail),
        .taskOpened(identifier: activation, rule: request.rule, .none)
      )
    }
    let inlineReply = (try? await client.presentation())?.inlineReply ?? false
    let plan = DispatchPlanner(options: options).puzzle(
      app: app, identifier: identifier, link: request.link, inlineReply: inlineReply, interactive: false)
    switch plan {
    case .handler(let argv, let rule), .terminal(let argv, let rule), .here(let argv, let rule):
      let kind: DispatchRecord.Outcome = if case .handler = plan { .handler } else { .terminal }
      switch await launch(argv, token: request.token, activation: activation) {
      case .started:
        return (
          DispatchRecord(action: action, scheme: links.scheme, outcome: kind, detail: argv[0]),
          .taskOpened(identifier: activation, rule: rule.name, .process)
        )
      case .failed(let reason):
        // The click must lead somewhere: say what to run instead.
        _ = try? await post(texts.closeOnly(app: app, identifier: identifier))
        return nothing(.failed, reason)
      }
    case .inline(let rule):
      // The one puzzle path's first step: used up, not at the limit, or a state folder that cannot be written.
      let prepared: LedgerResult<PuzzleRun<SeededRandom>.Preparation>
      do {
        prepared = try PuzzleRun.prepare(for: rule, in: options.ledger, random: SeededRandom(seed: 0))
      } catch {
        return nothing(.failed, "\(error)")
      }
      for warning in prepared.warnings { log.warning("\(warning)") }
      let run: PuzzleRun<SeededRandom>
      switch prepared.value {
      case .ready(let ready): run = ready
      case .usedUp(let status):
        _ = try? await post(texts.usedUp(app: app, identifier: identifier))
        return nothing(.usedUp, "\(status.grantsToday) of \(status.rule.maxGrantsPerDay) grants used today")
      case .inDowntime(_, let until):
        _ = try? await post(texts.inDowntime(app: app, until: until, identifier: identifier))
        return nothing(.inDowntime, "\(LedgerError.inDowntime(rule: rule.name, until: until))")
      case .notAtLimit(let status):
        _ = try? await post(texts.notAtLimit(app: app, identifier: identifier))
        return nothing(
          .notAtLimit,
          "\(LedgerError.notAtLimit(rule: rule.name, grantsToday: status.grantsToday, day: options.ledger.today))")
      }
      // The request is counted as the core asks the task in the notification (issue 25 point 2).
      let asked: Int
      do {
        let counted = try run.ask()
        for warning in counted.warnings { log.warning("\(warning)") }
        asked = counted.value
      } catch {
        return nothing(.failed, "\(error)")
      }
      return (
        DispatchRecord(action: action, scheme: links.scheme, outcome: .inlineReply),
        .taskOpened(
          identifier: activation, rule: rule.name,
          .inline(
            app: app, grantMinutes: rule.grantMinutes, asked: asked, grantsToday: run.status.grantsToday))
      )
    case .refused(let reason):
      return nothing(.refused, reason)
    case .failed(let reason):
      return nothing(.failed, reason)
    case .usedUp(let status):
      _ = try? await post(texts.usedUp(app: app, identifier: identifier))
      return nothing(.usedUp, "\(status.grantsToday) of \(status.rule.maxGrantsPerDay) grants used today")
    case .unavailable:
      _ = try? await post(texts.closeOnly(app: app, identifier: identifier))
      return nothing(.unavailable, "no puzzle handler, no inline reply, and no display or no terminal on PATH to open")
    }
  }

  private func openView(
    _ request: TaskRequest, app: String, view: String, identifier: String
  ) async -> (DispatchRecord, ShieldInput) {
    let action = request.action
    let activation = request.activation
    switch DispatchPlanner(options: options).view(app: app, view: view, identifier: identifier, link: request.link) {
    case .failure(let refusal):
      return (
        DispatchRecord(action: action, scheme: links.scheme, outcome: .refused, detail: refusal.reason),
        .taskOpened(identifier: activation, rule: nil, .none)
      )
    case .success(let argv):
      switch await launch(argv, token: request.token, activation: activation) {
      case .started:
        return (
          DispatchRecord(action: action, scheme: links.scheme, outcome: .opened, detail: argv[0]),
          .taskOpened(identifier: activation, rule: nil, .process)
        )
      case .failed(let reason):
        return (
          DispatchRecord(action: action, scheme: links.scheme, outcome: .failed, detail: reason),
          .taskOpened(identifier: activation, rule: nil, .none)
        )
      }
    }
  }

  /// Starts a task's handler or terminal, or a view's opener, and waits a
  /// moment to see that it did not fail at once; its end goes to the loop.
  private func launch(_ argv: [String], token: String?, activation: String) async -> Launcher.Start {
    let inbox = self.inbox
    let clock = startOptions.ledger.clock
    return await options.launcher.launch(argv, activationToken: token, grace: .seconds(1)) { _ in
      inbox.yield(Envelope(.taskEnded(identifier: activation), at: .now(wall: clock)))
    }
  }
}
