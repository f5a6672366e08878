public import DeepLink
public import Model

/// What happened, as the service tells the core: the desktop, the files, the
/// notification server, a caller on the bus, the clock, or the result of an
/// effect the core asked for.
///
/// Each input is handed to ``ShieldCore/handle(_:at:)`` with the moment it
/// happened, in the order it happened; nothing else changes the core.
public enum ShieldInput: Hashable, Sendable {
  // MARK: The desktop

  /// A desktop backend started: it reports the focused window, or only the
  /// apps that run (`countsRunning`, the process fallback).
  case desktopStarted(countsRunning: Bool)
  /// The backend stopped working: nothing is in front or runs until another starts.
  case desktopLost
  /// The window in front changed (`nil`: none, or one without an app).
  case focus(AppIdentity?)
  /// The apps that run now, in the backend's order (process fallback).
  case running([AppIdentity])
  /// Input has been idle longer than the idle limit, or came again.
  case idle(Bool)
  /// Something inhibits idle (a video plays), or stopped.
  case inhibited(Bool)
  /// The screen is on and unlocked, or blanked or locked.
  case screenVisible(Bool)
  /// The sites the browsers' hosts report now, one per host.
  case sites([SiteReport])

  // MARK: The files and the clock

  /// The ledger as another process left it (a grant from the terminal or the
  /// browser), or as the core's own save read it back.
  case ledger(Ledger)
  /// New rules in force (from `config.json`, or a new day's), whose day each
  /// takes over (``Model/RuleChange``), with the ledger as it stands, before the change.
  case rulesReplaced(RuleChange, Ledger)
  /// The time the core asked to be woken at (``ShieldCore/wait(after:)``) came.
  case tick
  /// The process did not run from `since` until the input's moment (a
  /// timer due at `since` fired far later), and the desktop's events carry
  /// no time of their own: what happened meanwhile is unknown and counts as
  /// no use (``UsageMeter/unobserved(since:at:)``).
  case unobserved(since: MeterInstant)
  /// The weekly summary's schedule in force (`nil`: none) and the last day
  /// of the last week it was shown for, at the start and after a reload.
  case weeklySummary(WeeklySchedule?, lastShown: LocalDay?)
  /// How the post of the summary the core asked for went (``ShieldEffect/postWeeklySummary(week:)``).
  case weeklySummaryPosted(week: LocalDay, posted: Bool)

  // MARK: Shields and tasks

  /// A shield asked for by name (`Shield(s app)`, `shieldbridge shield`):
  /// posted whatever the meter or an earlier dismissal says.
  case shieldAsked(app: String?, rule: String, key: PostKey)
  /// A link opened by a caller (`Open(s link)`, `shieldbridge open`), resolved; answered under `key`.
  case linkOpened(ShieldAction, link: String, key: PostKey)
  /// What the server answered for a post the core asked for (``ShieldEffect/post(_:key:)``):
  /// the notification's id (`nil` when the post failed) and the links its actions carry, by action key.
  case posted(PostKey, id: UInt32?, links: [String: String])
  /// The user clicked `key` on notification `id`, with the activation token the server sent before.
  case action(id: UInt32, key: String, token: String?)
  /// Notification `id` was closed; `byUser` when the user dismissed it.
  case closed(id: UInt32, byUser: Bool)
  /// The user typed `text` into notification `id`'s reply field.
  case replied(id: UInt32, text: String)
  /// What became of a task the core asked to open (``ShieldEffect/openTask(_:)``).
  case taskOpened(identifier: String, rule: String?, TaskOpening)
  /// A task's process (a terminal, a handler) ended.
  case taskEnded(identifier: String)
  /// What became of a grant the core asked to record (``ShieldEffect/recordGrant(rule:)``).
  case grant(rule: String, GrantResult)
}

/// Names one post the core asked for, so that its answer finds its way back.
public struct PostKey: Hashable, Sendable, CustomStringConvertible {
  public var number: UInt64

  public init(_ number: UInt64) {
    self.number = number
  }

  public var description: String { "post \(number)" }
}

/// How a task the core asked for was opened.
public enum TaskOpening: Hashable, Sendable {
  /// A process shows it (a terminal with `shieldbridge puzzle`, a handler):
  /// its end comes as ``ShieldInput/taskEnded(identifier:)``.
  case process
  /// Asked in a notification's reply field: the core asks it itself, as
  /// the `asked`-th request for more time for the rule today (counted in the
  /// ledger as it was asked), at the task step of `grantsToday` (``Puzzle/random(using:grant:)``).
  case inline(app: String?, grantMinutes: Int, asked: Int = 0, grantsToday: Int = 0)
  /// Nothing was opened (refused, used up, failed): the shield stays offerable.
  case none
}

/// What became of a grant the core asked for.
public enum GrantResult: Hashable, Sendable {
  /// Recorded: the rule's grants today are now this many.
  case recorded(grantsToday: Int)
  /// Today's grants were used up meanwhile.
  case usedUp
  /// The ledger could not be written.
  case failed(String)
}
