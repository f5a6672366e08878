public import Model

/// The shield's way out (issue 25 point 1): "Close Instagram" beside "Solve a
/// task", offered first, for the user who backs out instead of asking for
/// more time. Taking it is counted per rule and day (``Model/Ledger/backedOut(for:on:)``).
///
/// What it does to the rule's apps follows the rule's `onLimit`, as the
/// limit did: the app hidden at the limit stays hidden, the app closed at the
/// limit is closed (again, if it came back). A rule that only notifies
/// (`"onLimit": "notify"`) left the app open at the limit; its way out closes
/// it, since closing is what the button says and what the user chose.
public enum WayOut: String, Hashable, Sendable {
  /// Minimise the rule's windows (``Model/LimitAction/hide``).
  case hide
  /// Ask the rule's apps to close, as ``Model/LimitAction/close`` does.
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

extension WayOut {
  /// A shield as every process can name it from the ledger: a rule at its
  /// limit on a day, at a count of grants. A grant raises the limit, so the
  /// next limit is the next shield; a shield offered again (after a
  /// dismissal, in another tab) is the same one.
  public struct Shield: Hashable, Sendable {
    public var rule: String
    public var day: LocalDay
    public var grants: Int

    public init(rule: String, day: LocalDay, grants: Int) {
      self.rule = rule
      self.day = day
      self.grants = grants
    }
  }

  /// Which ways out count, where no notification tells one shield from the
  /// next (the browser's shield page, through the native host): one per
  /// shield shown, and none while no shield is shown (the rule is not at its
  /// limit), however often the way out is sent.
  public struct Tally: Hashable, Sendable {
    /// Per rule, the shield whose way out was counted last.
    private var counted: [String: Shield] = [:]

    public init() {}

    /// Whether a way out taken now counts, with `shield` the rule's shield
    /// that stands now (`nil`: none); a counted one is remembered.
    public mutating func take(at shield: Shield?) -> Bool {
      guard let shield, counted[shield.rule] != shield else { return false }
      counted[shield.rule] = shield
      return true
    }
  }
}
