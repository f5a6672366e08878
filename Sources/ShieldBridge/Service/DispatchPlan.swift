import DeepLink
import Model

/// What to do for an action, decided from the configuration, today's ledger and what this session offers.
///
/// The service and `shieldbridge open` without a service decide the same way
/// and differ only in what they can offer (an inline reply field, a terminal
/// of their own).
struct DispatchPlanner: Sendable {
  let options: ShieldService.Options

  enum PuzzlePlan {
    /// Not allowed (no rule covers the app), with the reason.
    case refused(String)
    /// The ledger could not be read.
    case failed(String)
    /// Today's grants are used up.
    case usedUp(RuleStatus)
    /// Start the configured handler.
    case handler([String], Rule)
    /// Ask in a notification with an inline reply field.
    case inline(Rule)
    /// Start a terminal with `shieldbridge puzzle`.
    case terminal([String], Rule)
    /// Run `shieldbridge puzzle` in the caller's own terminal and wait for it.
    case here([String], Rule)
    /// Nothing can show the puzzle: no handler, no inline reply, and no
    /// display or no terminal on the launcher's `PATH`.
    case unavailable
  }

  /// How to show the puzzle for `app`.
  ///
  /// - Parameters:
  ///   - inlineReply: Whether the notification server offers inline replies.
  ///   - interactive: Whether the caller sits in a terminal of its own.
  func puzzle(app: String?, identifier: String, link: String, inlineReply: Bool, interactive: Bool) -> PuzzlePlan {
    let rule: Rule
    let status: RuleStatus
    do {
      rule = try options.configuration.rules.rule(for: app)
    } catch {
      return .refused(error.description)
    }
    do {
      let result = try options.ledger.status(of: rule)
      for warning in result.warnings { options.logger.warning("\(warning)") }
      status = result.value
    } catch {
      return .failed("\(error)")
    }
    if status.isUsedUp { return .usedUp(status) }
    let minutes = String(rule.grantMinutes)
    if let handler = options.configuration.handlers.puzzle {
      let argv = handler.argv([
        .app: app ?? "", .grant: minutes, .minutes: minutes, .link: link, .id: identifier,
        .shieldbridge: options.executable,
      ])
      return .handler(argv, rule)
    }
    var command = [options.executable, "puzzle", "--grant", minutes]
    if let app { command += ["--app", app] }
    if interactive { return .here(command, rule) }
    if inlineReply { return .inline(rule) }
    if options.launcher.hasDisplay, let terminal = TerminalEmulator.find(in: options.launcher.environment) {
      return .terminal(terminal.argv(running: command), rule)
    }
    return .unavailable
  }

  /// The argv that opens `view` of `app`, or why it may not be opened.
  func view(app: String, view: String, identifier: String, link: String) -> Result<[String], ViewRefusal> {
    guard let target = options.configuration.views.target(app: app, view: view) else {
      return .failure(ViewRefusal(reason: "the view '\(view)' is not configured for \(app)"))
    }
    let argv =
      options.configuration.handlers.view?.argv([
        .app: app, .view: view, .target: target, .link: link, .id: identifier, .shieldbridge: options.executable,
      ]) ?? ["xdg-open", target]
    return .success(argv)
  }

  struct ViewRefusal: Error {
    var reason: String
  }
}
