public import Model

/// One puzzle from the shield to the grant: the one path by which every way of
/// asking (the terminal's `shieldbridge puzzle`, the browser's shield page
/// through `native-host`, the service's inline-reply notification) earns time.
///
/// Four steps, each once here so that the three callers cannot differ:
///
/// 1. **Prepare** (``prepare(for:in:random:)``): where the rule stands today
///    in the ledger. Used up → say so; a rule the meter counts and has not
///    seen at its limit → say so (``Ledger/grantStanding(of:on:)``); then the
///    up-front write check (``LedgerStore/checkWritable()``), so that a state
///    folder the grant cannot be written to fails before the task, not after
///    the right answer.
/// 2. **Ask** (``puzzle``): the current task, drawn from the generator given
///    to `prepare` (seeded for a test or `--seed`, the system's otherwise);
///    ``ask()`` counts it in the ledger, for the text that says how often
///    more time was asked for today.
/// 3. **Check** (``check(_:)``): an answer is solved, wrong (a new task, no
///    hint) or blank (the same task again).
/// 4. **Grant** (``SolvedPuzzle/grant()``): only a solved puzzle has one. It
///    records under the ledger's lock, where the standing is decided again:
///    another process may have taken the last grant while the task was open,
///    or a grant elsewhere may have raised the limit so that the rule is no
///    longer at it. Both are outcomes, not errors.
///
/// The callers show the texts; the run holds no texts and does no I/O beyond
/// the ledger.
public struct PuzzleRun<Random: RandomNumberGenerator & Sendable>: Sendable {
  /// The rule the time is for.
  public let rule: Rule
  /// The ledger the grant goes to.
  public let store: LedgerStore
  /// Where the rule stood when the run was prepared.
  public let status: RuleStatus
  private var session: PuzzleSession<Random>

  /// What ``prepare(for:in:random:)`` found.
  public enum Preparation: Sendable {
    /// Ask: a grant is open today and the state folder can be written.
    case ready(PuzzleRun)
    /// Today's grants are used up: offer nothing.
    case usedUp(RuleStatus)
    /// A meter counts the rule and has not seen it at its limit: offer nothing yet.
    case notAtLimit(RuleStatus)
    /// The rule is in downtime until `until` (``Downtime/endText(_:from:)``): no task unlocks it before then.
    case inDowntime(RuleStatus, until: String)
  }

  /// What became of one answer (``check(_:)``).
  public enum Check: Sendable {
    /// The answer was right: the grant can be taken.
    case solved(SolvedPuzzle)
    /// The answer was wrong (or not a number): ``PuzzleRun/puzzle`` is a new task. No hint is given.
    case wrong
    /// The answer was blank (only whitespace): ask the same task again.
    case blank
  }

  /// Step 1: decides from today's ledger whether a task may be asked for `rule`.
  ///
  /// - Parameters:
  ///   - rule: The rule the time is for.
  ///   - store: The ledger to read and, later, to record the grant in.
  ///   - random: Where the tasks are drawn from.
  /// - Returns: A run ready to ask, or why no task is asked, with the ledger's warnings.
  /// - Throws: A state error (``LedgerError``) when the ledger cannot be read,
  ///   or when the grant could not be written (the error the write would give).
  public static func prepare(
    for rule: Rule, in store: LedgerStore, random: Random
  ) throws(LedgerError) -> LedgerResult<Preparation> {
    let loaded = try store.load(for: RuleSet([rule]))
    let day = store.today
    let status = RuleStatus(rule: rule, day: day, grantsToday: loaded.value.grants(for: rule.name, on: day))
    let now = store.clock.now()
    if let end = Downtime.until(rule.downtime, at: now, dayStart: store.dayStart, in: .system) {
      return LedgerResult(
        .inDowntime(status, until: Downtime.endText(end, from: now, in: .system)), warnings: loaded.warnings)
    }
    switch loaded.value.grantStanding(of: rule, on: day) {
    case .usedUp: return LedgerResult(.usedUp(status), warnings: loaded.warnings)
    case .notAtLimit: return LedgerResult(.notAtLimit(status), warnings: loaded.warnings)
    case .open: break
    }
    try store.checkWritable()
    // Each grant of the day asks a harder task (issue 25 point 3).
    let session = PuzzleSession(random: random, grant: status.grantsToday)
    let run = PuzzleRun(rule: rule, store: store, status: status, session: session)
    return LedgerResult(.ready(run), warnings: loaded.warnings)
  }

  private init(rule: Rule, store: LedgerStore, status: RuleStatus, session: PuzzleSession<Random>) {
    self.rule = rule
    self.store = store
    self.status = status
    self.session = session
  }

  /// Step 2: the task to show now.
  public var puzzle: Puzzle { session.puzzle }

  /// Step 2's count: records in the ledger that a task for more time was
  /// asked for the rule today (``LedgerStore/recordTaskAsked(for:)``). The
  /// caller calls it once, as it shows the first task (a wrong answer's new
  /// task is the same request), and says the count with the task (issue 25
  /// point 2). Another task at the same limit, asked anywhere, is the same
  /// request too (once per shield, ``Ledger/recordTaskAsked(for:on:)``).
  /// Preparing alone writes nothing.
  ///
  /// - Returns: The rule's tasks asked today, this one included.
  /// - Throws: A state error; no task should be asked then.
  public func ask() throws(LedgerError) -> LedgerResult<Int> {
    let counted = try store.recordTaskAsked(for: rule.name)
    return LedgerResult(counted.value.count, warnings: counted.warnings)
  }

  /// Step 3: judges `answer` against the current task, drawing a new task when it is wrong.
  ///
  /// See ``Puzzle/parseAnswer(_:)`` for what counts as a number.
  public mutating func check(_ answer: some StringProtocol) -> Check {
    switch session.answer(answer) {
    case .solved: .solved(SolvedPuzzle(rule: rule, store: store))
    case .wrong: .wrong
    case .blank: .blank
    }
  }
}

/// A puzzle answered right: the one thing that can take a grant (step 4 of ``PuzzleRun``).
public struct SolvedPuzzle: Sendable {
  /// The rule the time is for.
  public let rule: Rule
  let store: LedgerStore

  /// What became of the grant.
  public enum Outcome: Hashable, Sendable {
    /// Recorded for today.
    case granted(RecordedGrant)
    /// Another puzzle took the last grant while this one was open: nothing was recorded.
    case usedUp
    /// A meter counts the rule and it is not at its limit (a grant elsewhere
    /// raised the limit while this task was open): nothing was recorded.
    case notAtLimit
  }

  /// Step 4: records the grant for today under the ledger's lock, where the
  /// standing is decided again against the ledger as it is now.
  ///
  /// Call it once: each call is a grant of its own.
  ///
  /// - Returns: The grant, or why none was recorded, with the ledger's warnings.
  /// - Throws: A state error (``LedgerError``) other than the two refusals.
  public func grant() throws(LedgerError) -> LedgerResult<Outcome> {
    do {
      let recorded = try store.recordGrant(for: rule)
      return LedgerResult(.granted(recorded.value), warnings: recorded.warnings)
    } catch .grantsUsedUp {
      return LedgerResult(.usedUp)
    } catch .notAtLimit {
      return LedgerResult(.notAtLimit)
    }
  }
}

extension PuzzleRun {
  /// Step 4 for a task whose answer was checked elsewhere: the service's
  /// core asks the inline task in a notification and judges its reply.
  public func solved() -> SolvedPuzzle {
    SolvedPuzzle(rule: rule, store: store)
  }
}
