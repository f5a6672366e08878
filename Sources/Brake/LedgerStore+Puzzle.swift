/// Whether a puzzle may be asked for a rule now.
public enum PuzzleReadiness: Hashable, Sendable {
  /// Ask it: a grant is left today and the state folder can be written.
  case ready(RuleStatus)
  /// Today's grants are used up: offer nothing.
  case usedUp(RuleStatus)
}

/// What became of the grant of a solved puzzle.
public enum PuzzleGrantOutcome: Hashable, Sendable {
  /// Recorded for today.
  case granted(RecordedGrant)
  /// Another puzzle took the last grant while this one was being solved: nothing was recorded.
  case usedUp
}

extension LedgerStore {
  /// The step before a puzzle, shared by the terminal `shieldbridge puzzle`
  /// and the browser's shield page (through `native-host`): today's grants,
  /// then whether the grant could be written. (The service's notification
  /// puzzle decides from its dispatch plan and records with ``recordGrant(for:)``.)
  ///
  /// The write check comes before the task, not after the right answer: a
  /// state folder the grant cannot be written to fails now, with the error
  /// the write would give.
  ///
  /// - Throws: A state error (``LedgerError``) when the ledger cannot be read or written.
  public func preparePuzzle(for rule: Rule) throws(LedgerError) -> LedgerResult<PuzzleReadiness> {
    let status = try status(of: rule)
    guard !status.value.isUsedUp else { return LedgerResult(.usedUp(status.value), warnings: status.warnings) }
    try checkWritable()
    return LedgerResult(.ready(status.value), warnings: status.warnings)
  }

  /// The step after a right answer: records the grant, or says that the last one was taken meanwhile.
  ///
  /// - Throws: A state error other than ``LedgerError/grantsUsedUp(rule:maximum:day:)``.
  public func grantSolvedPuzzle(for rule: Rule) throws(LedgerError) -> LedgerResult<PuzzleGrantOutcome> {
    do {
      let recorded = try recordGrant(for: rule)
      return LedgerResult(.granted(recorded.value), warnings: recorded.warnings)
    } catch .grantsUsedUp {
      return LedgerResult(.usedUp)
    }
  }
}
