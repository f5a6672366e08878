/// Where a message is shown; the checks give each place its own length budget.
public enum MessageRole: String, CaseIterable, Hashable, Sendable {
  /// The summary (title) line of the shield notification.
  case summary
  /// The body of the shield notification.
  case body
  /// The label of a notification action (a button).
  case action
  /// Text on the puzzle screen or in the terminal puzzle.
  case puzzle

  /// The most characters a translation should take, with placeholders
  /// counted as ``nominalValueLength``; `nil` when the place wraps long text.
  ///
  /// Notification servers cut summaries to one line (dunst's default width
  /// holds about 50 characters) and show action labels as buttons.
  public var lengthBudget: Int? {
    switch self {
    case .summary: 48
    case .action: 24
    case .body, .puzzle: nil
    }
  }

  /// The length counted for each placeholder in the budget: a typical app name.
  public static let nominalValueLength = 10
}
