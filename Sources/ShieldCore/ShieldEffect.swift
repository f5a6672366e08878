public import DeepLink
public import Log
public import Model

/// What the core decided: something the service carries out, in order.
///
/// Effects whose result matters come back as an input: a post as
/// ``ShieldInput/posted(_:id:)``, a task as ``ShieldInput/taskOpened(identifier:rule:_:)``,
/// a grant as ``ShieldInput/grant(rule:_:)``, a save as ``ShieldInput/ledger(_:)``.
public enum ShieldEffect: Hashable, Sendable {
  /// Post a notification; the answer comes back under `key`.
  case post(Post, key: PostKey)
  /// Close notification `id`.
  case close(UInt32)
  /// The rule's `onLimit` on its apps (hide, close, or nothing); the
  /// service hides where it can and closes where it cannot.
  case enforce(rule: String)
  /// Stop closing the rule's apps (a grant or a new day lifted it).
  case stopClosing(rule: String)
  /// Stop closing every rule's apps (a new day).
  case stopClosingAll
  /// A new local day began: what config.json loosened during the last one comes into force.
  case dayBegan(LocalDay)
  /// Open the task behind a link (a click on a shield): the service resolves
  /// it, plans it (handler, terminal, inline reply) and answers with
  /// ``ShieldInput/taskOpened(identifier:rule:_:)``.
  case openTask(TaskRequest)
  /// Record one grant for the rule: a task asked by the core was solved while it was at its limit.
  case recordGrant(rule: String)
  /// The user took the shield's way out (``WayOut``): count it for the rule
  /// today (``Store/LedgerStore/recordBackedOut(for:)``) and hide or close
  /// the rule's apps as `action` says.
  case wayOut(rule: String, WayOut)
  /// Store the use counted (every day the meter holds), and, for each rule
  /// at its limit, the grants it had when it got there; the service answers
  /// with the ledger as it stands after the write.
  case save(Save)
  /// Post the weekly summary of the 7 days ending `week`, remember that it
  /// was shown, and answer with ``ShieldInput/weeklySummaryPosted(week:posted:)``.
  case postWeeklySummary(week: LocalDay)
  /// Tell the panels what they show now (``Glance``; `nil`: nothing covered is in front).
  case glance(Glance?)
  /// Emit `LimitReached(s rule, s app)`.
  case limitReached(rule: String, app: String)
  /// Emit `Unlocked(s rule, u minutes)`.
  case unlocked(rule: String, minutes: Int)
  /// Say what became of a click that opened nothing (`Dispatched`): a repeat, or one coalesced with an open task.
  case dispatched(ShieldAction, outcome: Dispatch, detail: String, key: PostKey)
  /// An entry for the log; its subsystem (`meter`, `shield`, `task`) goes under the service's.
  case log(LogEntry)

  /// What became of a click the core answered itself.
  public enum Dispatch: String, Hashable, Sendable {
    /// The same click again within the double-click window.
    case duplicate
    /// A task (or view) for the same identifier is already open.
    case coalesced
  }

  /// What a shield offers, decided at the time it is posted.
  public enum ShieldKind: Hashable, Sendable {
    /// A task whose right answer gives `grantMinutes` more, and the rule's views.
    case task(grantMinutes: Int)
    /// Today's grants are used up: nothing to click.
    case usedUp
    /// The rule's downtime, which no task lifts, until `until` as the text shows it (`07:00`, or
    /// with its day when a day or more away); the way out stays.
    case downtime(until: String)
  }

  /// A notification the core asks for; the service chooses the words.
  public enum Post: Hashable, Sendable {
    /// The shield for `app` of `rule`; `kind` says what it offers.
    case shield(rule: String, app: String?, kind: ShieldKind)
    /// The plain warning before the limit.
    case warning(app: String, minutes: Int)
    /// A task asked in the notification's reply field, replacing notification `replacing` (0: none).
    /// `asked`: the requests for more time for the rule today, this one included; `waitSeconds`:
    /// the rule's pause still to run before an answer is taken (0: none, ``Model/Pause``).
    case task(
      app: String?, grantMinutes: Int, puzzle: Puzzle, afterWrongAnswer: Bool, asked: Int = 0, waitSeconds: Int = 0,
      replacing: UInt32)
    /// The task was solved: `minutes` more, replacing the task's notification.
    case solved(app: String?, minutes: Int, replacing: UInt32)
    /// Today's grants are used up.
    case usedUp(app: String?)
  }

  /// What the meter has to store.
  public struct Save: Hashable, Sendable {
    public var usedSecondsByDay: [LocalDay: [String: Int]]
    /// What the meter saved before: a stored count still equal to it is
    /// replaced by a lower one (a change stamped in the past moved time away).
    public var replacing: [LocalDay: [String: Int]] = [:]
    /// The grants the meter knows per day and rule: the ledger keeps the larger of its and these.
    public var grantsByDay: [LocalDay: [String: Int]] = [:]
    /// Rule → its grants today when it reached its limit, for every rule at its limit now.
    public var limitReached: [String: Int]
    /// The rules the meter counts.
    public var metered: Set<String>
    /// Where the meter's day began (``UsageMeter/dayAnchor``), for the next start and for the processes that grant.
    public var anchor: DayAnchor?
    /// Why, when it is not the regular save.
    public var reason: String?
    /// For the history: the seconds of each day and rule split by the app or site in front.
    public var appSecondsByDay: [LocalDay: [String: [String: Int]]] = [:]
    /// For the history: each rule's limit in force today, in seconds.
    public var limitSecondsToday: [String: Int] = [:]
    /// For the history: the shields shown per day and rule.
    public var shieldsShownByDay: [LocalDay: [String: Int]] = [:]
    /// The rules in force, kept in the ledger beside the counts they were carried to.
    public var rulesInForce: RuleSet = .builtIn
  }
}

/// A click (or an `Open(s link)`) that leads to a task or a view.
public struct TaskRequest: Hashable, Sendable {
  /// What the link asks for.
  public var action: ShieldAction
  /// The link itself, for a handler's `{link}`.
  public var link: String
  /// The rule of the shield that was clicked; `nil` for a link opened by a caller.
  public var rule: String?
  /// The activation token the server sent with the click.
  public var token: String?
  /// Names the request, so that a caller waiting for it finds its answer.
  public var key: PostKey
  /// What coalesces it: one task per identifier, and one view per identifier, open at once.
  public var activation: String {
    switch action {
    case .puzzle(_, _, let id): id
    case .view(_, _, let id): "view:" + id
    }
  }
}
