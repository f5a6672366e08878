/// The last few notifications that were closed, by server id, oldest dropped first.
///
/// A server with a history (dunst's `history-pop`) shows a closed notification
/// again under the same id, and a click on it then comes back as an
/// `ActionInvoked` for an id that is no longer on screen. Keeping what was
/// offered on the last few closed notifications lets such a click still
/// dispatch; the bound keeps a long session from growing the table.
public struct RecentlyClosed<Value: Sendable>: Sendable {
  /// How many closed notifications are kept.
  public let capacity: Int
  /// Oldest first; an id appears at most once.
  private var entries: [(id: UInt32, value: Value)] = []

  public init(capacity: Int) {
    self.capacity = max(0, capacity)
  }

  /// The value kept for `id`, if it is among the last ``capacity`` closed.
  public subscript(id: UInt32) -> Value? {
    entries.last { $0.id == id }?.value
  }

  /// Keeps `value` for `id` as the newest, dropping the oldest beyond ``capacity``.
  public mutating func insert(_ value: Value, for id: UInt32) {
    entries.removeAll { $0.id == id }
    entries.append((id, value))
    if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
  }

  /// Forgets `id`: the server gave it to a new notification.
  public mutating func remove(_ id: UInt32) {
    entries.removeAll { $0.id == id }
  }

  /// How many are kept.
  public var count: Int { entries.count }
}
