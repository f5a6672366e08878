/// A rule limit outside its range, found by ``Rule/init(checking:apps:dailyLimitMinutes:grantMinutes:maxGrantsPerDay:)``.
public struct RuleError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The limit that is out of range.
  public let limit: Rule.Limit
  /// The value it was given.
  public let value: Int

  public init(limit: Rule.Limit, value: Int) {
    self.limit = limit
    self.value = value
  }

  /// The values the limit may take.
  public var range: ClosedRange<Int> { limit.range }

  /// A stable code for scripts and logs.
  public var code: String { "rule-out-of-range" }

  public var description: String {
    "\(limit) must be a whole number from \(range.lowerBound) to \(range.upperBound), not \(value)"
  }
}
