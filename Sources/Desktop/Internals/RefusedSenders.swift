import DBus

/// The connections a compositor backend has said it ignored: each is said
/// once, in one wording, and at most ``limit`` of them are remembered.
///
/// KWin's callbacks and GNOME Shell's signals are accepted only from the
/// current owner of the compositor's name. Anything else on the session bus
/// can send them, from as many new connections as it likes, so the set is
/// bounded: past the limit, further senders are ignored without a word
/// instead of growing the set and the log with every connection.
struct RefusedSenders {
  /// How many senders are said at most.
  static let limit = 32

  private var said: Set<String> = []

  /// The notice to give for ignoring `member` from `sender`, or `nil` when it is not said
  /// (that sender was said before, or ``limit`` senders were).
  ///
  /// - Parameters:
  ///   - owner: The name whose owner alone may send `member`; `nil` when the message was
  ///     malformed rather than from a wrong sender.
  mutating func notice(ignoring member: String, from sender: BusName?, owner: String?) -> String? {
    let who = sender?.rawValue ?? "a connection without a name"
    guard said.count < Self.limit, said.insert(who).inserted else { return nil }
    let last = said.count == Self.limit ? "; further senders are ignored without a notice" : ""
    if let owner {
      return "ignored \(member) from \(who), which does not own \(owner) (later ones from it are ignored "
        + "silently\(last))"
    }
    return "ignored a malformed \(member) from \(who) (later ones from it are ignored silently\(last))"
  }
}
