public import Brake

/// The shield's way out (issue 25 point 1): "Close Instagram" beside "Solve a
/// task", offered first, for the user who backs out instead of asking for
/// more time. Taking it is counted per rule and day (``Brake/Ledger/backedOut(for:on:)``).
///
/// What it does to the rule's apps follows the rule's `onLimit`, as the
/// limit did: the app hidden at the limit stays hidden, the app closed at the
/// limit is closed (again, if it came back). A rule that only notifies
/// (`"onLimit": "notify"`) left the app open at the limit; its way out closes
/// it, since closing is what the button says and what the user chose.
public enum WayOut: String, Hashable, Sendable {
  /// Minimise the rule's windows (``Brake/LimitAction/hide``).
  case hide
  /// Ask the rule's apps to close, as ``Brake/LimitAction/close`` does.
  case close

  /// The action key of the way out on the shield notification.
  public static let actionKey = "way-out"

  /// What the way out does to the apps of a rule whose `onLimit` is `onLimit`.
  public static func decide(onLimit: LimitAction) -> WayOut {
    switch onLimit {
    case .hide: .hide
    case .close, .notify: .close
    }
  }
}
