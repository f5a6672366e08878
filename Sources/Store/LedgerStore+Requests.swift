public import Model

extension LedgerStore {
  /// Counts one request for more time for `rule` today, once per shield
  /// (``Ledger/recordTaskAsked(for:on:)``), under the lock and with the
  /// atomic write of a grant, by the process that asks it: `shieldbridge
  /// puzzle`, the native host for the shield page, the service for its
  /// notification's reply field (through ``PuzzleRun/ask()``).
  ///
  /// - Returns: Today and the rule's requests today, this one included.
  /// - Throws: A state error; the stored ledger is left as it was.
  public func recordTaskAsked(for rule: String) throws(LedgerError) -> LedgerResult<DayCount> {
    var counted = DayCount(day: LocalDay.containing(clock.now(), dayStart: dayStart, in: .system), count: 0)
    let result = try update { ledger in
      counted.day = today(in: ledger)
      counted.count = ledger.recordTaskAsked(for: rule, on: counted.day)
    }
    return LedgerResult(counted, warnings: result.warnings)
  }

  /// Counts one way out taken for `rule` today (``Ledger/recordBackedOut(for:on:)``),
  /// as ``recordTaskAsked(for:)`` counts a task.
  ///
  /// - Returns: Today and the rule's way outs taken today, this one included.
  /// - Throws: A state error; the stored ledger is left as it was.
  public func recordBackedOut(for rule: String) throws(LedgerError) -> LedgerResult<DayCount> {
    var counted = DayCount(day: LocalDay.containing(clock.now(), dayStart: dayStart, in: .system), count: 0)
    let result = try update { ledger in
      counted.day = today(in: ledger)
      counted.count = ledger.recordBackedOut(for: rule, on: counted.day)
    }
    return LedgerResult(counted, warnings: result.warnings)
  }
}

/// A count of one rule on one day, as just recorded.
public struct DayCount: Hashable, Sendable {
  public var day: LocalDay
  public var count: Int

  public init(day: LocalDay, count: Int) {
    self.day = day
    self.count = count
  }
}
