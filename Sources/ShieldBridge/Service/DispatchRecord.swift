public import DeepLink
public import JSON

/// What the service did with one action: logged as a line on stderr and
/// emitted as the `Dispatched` signal.
public struct DispatchRecord: Sendable, Hashable {
  /// How an action was carried out, or why it was not.
  public enum Outcome: String, Sendable, Hashable {
    /// The configured handler was started.
    case handler
    /// A terminal was started with `shieldbridge puzzle`.
    case terminal
    /// The task was asked in a notification with an inline reply field.
    case inlineReply = "inline-reply"
    /// Today's grants were used up: the notification says so, no puzzle opened.
    case usedUp = "used-up"
    /// The service's meter has not seen the rule at its limit: the notification says so, no puzzle opened.
    case notAtLimit = "not-at-limit"
    /// The rule is in downtime: the notification says until when, no puzzle opened.
    case inDowntime = "in-downtime"
    /// The configured view was opened.
    case opened
    /// The same identifier's action was still in flight; nothing new was started.
    case coalesced
    /// A repeat of the same click within the double-click window; dropped.
    case duplicate
    /// Not allowed: a view that is not configured, an app no rule covers.
    case refused
    /// Nothing could show the puzzle here (no handler, inline reply or display).
    case unavailable
    /// Starting it failed.
    case failed
  }

  public var action: ShieldAction
  public var scheme: String
  public var outcome: Outcome
  /// Details for people: the program started, the reason for a refusal.
  public var detail: String

  public init(action: ShieldAction, scheme: String, outcome: Outcome, detail: String = "") {
    self.action = action
    self.scheme = scheme
    self.outcome = outcome
    self.detail = detail
  }

  /// `{"action":"puzzle","scheme":"shieldbridge","app":"Instagram","grant":5,"id":"shield-open","outcome":"handler","detail":"…"}`.
  public var json: JSONValue {
    var members = action.jsonMembers(scheme: scheme)
    members.append(("outcome", .string(outcome.rawValue)))
    members.append(("detail", .string(detail)))
    return .object(members)
  }

  /// One line for the log: `dispatched puzzle app=Instagram grant=5 id=shield-open: handler (…)`.
  public var logLine: String {
    var line = "dispatched \(action.summary): \(outcome.rawValue)"
    if !detail.isEmpty { line += " (\(detail))" }
    return line
  }
}

extension ShieldAction {
  /// The action's fields as JSON members, as `link parse --json` prints them.
  public func jsonMembers(scheme: String) -> [(String, JSONValue)] {
    switch self {
    case .puzzle(let app, let grant, let id):
      [
        ("action", "puzzle"), ("scheme", .string(scheme)), ("app", .string(app)), ("grant", .int(grant)),
        ("id", .string(id)),
      ]
    case .view(let app, let view, let id):
      [
        ("action", "view"), ("scheme", .string(scheme)), ("app", .string(app)), ("view", .string(view)),
        ("id", .string(id)),
      ]
    }
  }

  /// `puzzle app=Instagram grant=5 id=shield-open`, for log lines.
  var summary: String {
    switch self {
    case .puzzle(let app, let grant, let id):
      "puzzle app=\(app.map(quotedIfNeeded) ?? "-") grant=\(grant) id=\(id)"
    case .view(let app, let view, let id):
      "view app=\(quotedIfNeeded(app)) view=\(view) id=\(id)"
    }
  }
}

/// An app name as it goes into a log line: in quotes when it has spaces or quotes.
private func quotedIfNeeded(_ text: String) -> String {
  text.contains(where: { $0 == " " || $0 == "\"" || $0.isNewline }) ? JSONValue.string(text).serialized : text
}
