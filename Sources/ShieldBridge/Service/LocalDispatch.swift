public import DeepLink
import Spawn

/// Dispatches a link's action in this process, without the service: what
/// `shieldbridge open` does when no service runs.
///
/// Without the service there is no notification to ask the puzzle in, so the
/// puzzle runs in the caller's terminal when there is one, else in a new
/// terminal window, or through the configured handler.
public enum LocalDispatch {
  /// Carries out `action`; with `interactive`, a puzzle runs in this terminal and is waited for.
  public static func dispatch(
    _ action: ShieldAction, link: String, scheme: String, options: ShieldService.Options, interactive: Bool
  ) -> DispatchRecord {
    let planner = DispatchPlanner(options: options)
    func record(_ outcome: DispatchRecord.Outcome, _ detail: String = "") -> DispatchRecord {
      DispatchRecord(action: action, scheme: scheme, outcome: outcome, detail: detail)
    }
    /// A puzzle's handler or terminal, or a view's opener, given a second: one
    /// that fails at once is `failed`, not a success nobody sees.
    func startWatched(_ argv: [String], _ outcome: DispatchRecord.Outcome) -> DispatchRecord {
      let start = options.launcher.launch(
        argv, activationToken: options.launcher.environment["XDG_ACTIVATION_TOKEN"], grace: .seconds(1))
      switch start {
      case .started: return record(outcome, argv[0])
      case .failed(let reason): return record(.failed, reason)
      }
    }
    switch action {
    case .puzzle(let app, _, let id):
      switch planner.puzzle(app: app, identifier: id, link: link, inlineReply: false, interactive: interactive) {
      case .handler(let argv, _): return startWatched(argv, .handler)
      case .terminal(let argv, _): return startWatched(argv, .terminal)
      case .here(let argv, _):
        do {
          let child = try Subprocess(argv, environment: options.launcher.environment)
          let ended = child.wait()
          return record(ended.isSuccess ? .terminal : .failed, "shieldbridge puzzle \(ended)")
        } catch {
          return record(.failed, "\(error)")
        }
      case .inline, .unavailable:
        return record(.unavailable, options.localizer.render(.shieldCloseOnly))
      case .refused(let reason): return record(.refused, reason)
      case .failed(let reason): return record(.failed, reason)
      case .usedUp: return record(.usedUp, options.localizer.render(.shieldUsedUp(app: app)))
      }
    case .view(let app, let view, let id):
      switch planner.view(app: app, view: view, identifier: id, link: link) {
      case .failure(let refusal): return record(.refused, refusal.reason)
      case .success(let argv): return startWatched(argv, .opened)
      }
    }
  }
}
