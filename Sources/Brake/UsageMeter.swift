public import Posix

// SKELETON: the API the service codes against. The meter's helper replaces the
// bodies (and may add to the API, telling the lead); nothing here is final.

/// Counts the seconds each rule's apps are used per local day and says when a
/// rule reaches its warning, its limit, and when a grant lifts it.
///
/// Pure accounting: it is told what happens (which rule's app is in use, idle,
/// screen, the clocks) and answers with events; it does no I/O and reads no
/// clock itself. Durations come from the monotonic clock, days from the wall
/// clock: a wall clock set back or forward moves the bucket, never the count.
public struct UsageMeter: Sendable {
  /// Why a rule's time counts or not, for `status` and `Usage()`.
  public struct Settings: Hashable, Sendable {
    public var rules: RuleSet
    /// Input idle longer than this stops the count, unless idle is inhibited.
    public var idleLimit: Duration
    /// How long a minute of the rules' limits lasts: 60 s, except in the demo and the tests.
    public var minuteLength: Duration

    public init(rules: RuleSet, idleLimit: Duration = .seconds(300), minuteLength: Duration = .seconds(60)) {
      self.rules = rules
      self.idleLimit = idleLimit
      self.minuteLength = minuteLength
    }
  }

  public init(settings: Settings, ledger: Ledger, now: MeterInstant) { fatalError("skeleton") }

  /// The rules whose apps are in use now: the focused window's rule, or
  /// (process fallback) the rules of every covered app that runs. Empty: none.
  public mutating func inUse(_ rules: Set<String>, at now: MeterInstant) -> [MeterEvent] { fatalError("skeleton") }
  public mutating func idle(_ isIdle: Bool, at now: MeterInstant) -> [MeterEvent] { fatalError("skeleton") }
  public mutating func inhibited(_ isInhibited: Bool, at now: MeterInstant) -> [MeterEvent] { fatalError("skeleton") }
  /// The screen is on and unlocked (`true`), or blanked or locked.
  public mutating func screenVisible(_ isVisible: Bool, at now: MeterInstant) -> [MeterEvent] { fatalError("skeleton") }
  /// Time passed: counts it and returns what became due (a warning, a limit, a new day).
  public mutating func advance(to now: MeterInstant) -> [MeterEvent] { fatalError("skeleton") }
  /// Today's grants for `rule` are now `grantsToday` (a puzzle was solved).
  public mutating func granted(_ rule: String, grantsToday: Int, at now: MeterInstant) -> [MeterEvent] { fatalError("skeleton") }

  /// When ``advance(to:)`` must next be called for an event to come on time
  /// (the next warning, limit or local midnight while something counts);
  /// `nil` while nothing counts, so the service sleeps until the desktop says something.
  public func nextDeadline() -> MonotonicTime? { fatalError("skeleton") }
  /// Where `rule` stands today.
  public func usage(of rule: String) -> RuleUsage? { fatalError("skeleton") }
  public var usages: [RuleUsage] { fatalError("skeleton") }
  /// The seconds used today per rule, to store in the ledger.
  public var day: LocalDay { fatalError("skeleton") }
  public var usedSecondsToday: [String: Int] { fatalError("skeleton") }
}

/// A moment as the meter sees it: the monotonic reading for durations and the wall time for the day.
public struct MeterInstant: Hashable, Sendable {
  public var monotonic: MonotonicTime
  public var wall: WallTime

  public init(monotonic: MonotonicTime, wall: WallTime) {
    self.monotonic = monotonic
    self.wall = wall
  }
}

/// What the meter decided.
public enum MeterEvent: Hashable, Sendable {
  /// `remaining` of the rule's limit is left (`warnMinutes` before it).
  case warning(rule: String, remaining: Duration)
  /// The rule's apps reached today's limit.
  case limitReached(rule: String)
  /// A grant (or a new day) lifted the rule's limit.
  case lifted(rule: String)
  /// A new local day began; every rule starts from its base limit.
  case newDay(LocalDay)
}

/// Where one rule stands today, as `Usage()` and `status --json` report it.
public struct RuleUsage: Hashable, Sendable {
  public var rule: String
  public var usedSeconds: Int
  public var limitSeconds: Int
  public var remainingSeconds: Int { max(0, limitSeconds - usedSeconds) }
  public var grantsToday: Int
  /// Whether the rule's time counts right now.
  public var counting: Bool
  public var overLimit: Bool { usedSeconds >= limitSeconds }
}
