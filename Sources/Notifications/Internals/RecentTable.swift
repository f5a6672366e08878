/// A table by id that keeps at most `limit` entries: past that, the entry
/// stored least recently goes first. Every operation is amortised O(1).
struct RecentTable<Value> {
  let limit: Int
  /// Each entry with the sequence number of its latest store.
  private var entries: [UInt32: (value: Value, sequence: UInt64)] = [:]
  /// Stores in order; an item whose sequence is no longer its id's is stale and skipped.
  private var order: [(id: UInt32, sequence: UInt64)] = []
  private var head = 0
  private var nextSequence: UInt64 = 0

  init(limit: Int) {
    self.limit = max(1, limit)
  }

  var count: Int { entries.count }

  func contains(_ id: UInt32) -> Bool { entries[id] != nil }

  subscript(id: UInt32) -> Value? { entries[id]?.value }

  /// The ids, least recently stored first.
  var ids: [UInt32] {
    order[head...].filter { entries[$0.id]?.sequence == $0.sequence }.map(\.id)
  }

  /// Stores `value` for `id` as the most recent entry; returns the entries evicted to make room.
  @discardableResult
  mutating func store(_ value: Value, for id: UInt32) -> [(id: UInt32, value: Value)] {
    nextSequence += 1
    entries[id] = (value, nextSequence)
    order.append((id, nextSequence))
    var evicted: [(id: UInt32, value: Value)] = []
    while entries.count > limit, head < order.count {
      let oldest = order[head]
      head += 1
      if let entry = entries[oldest.id], entry.sequence == oldest.sequence {
        entries[oldest.id] = nil
        evicted.append((oldest.id, entry.value))
      }
    }
    compact()
    return evicted
  }

  /// Changes the value of `id` without making it more recent; returns whether it was there.
  @discardableResult
  mutating func update(_ id: UInt32, _ change: (inout Value) -> Void) -> Bool {
    guard var entry = entries[id] else { return false }
    change(&entry.value)
    entries[id] = entry
    return true
  }

  /// The entries stored after the store numbered `sequence`, least recent first, with their numbers.
  func entries(after sequence: UInt64) -> [(id: UInt32, sequence: UInt64, value: Value)] {
    order[head...].compactMap { item in
      guard item.sequence > sequence, let entry = entries[item.id], entry.sequence == item.sequence
      else { return nil }
      return (item.id, item.sequence, entry.value)
    }
  }

  /// Removes the entry stored least recently, if there is one.
  mutating func removeOldest() -> (id: UInt32, value: Value)? {
    while head < order.count {
      let oldest = order[head]
      head += 1
      if let entry = entries[oldest.id], entry.sequence == oldest.sequence {
        entries[oldest.id] = nil
        compact()
        return (oldest.id, entry.value)
      }
    }
    return nil
  }

  @discardableResult
  mutating func remove(_ id: UInt32) -> Value? {
    let removed = entries.removeValue(forKey: id)?.value
    compact()
    return removed
  }

  mutating func removeAll() {
    entries = [:]
    order = []
    head = 0
  }

  /// Drops consumed and stale items of `order` once they outweigh the live entries.
  private mutating func compact() {
    guard order.count > 2 * entries.count + 32 else { return }
    order = order[head...].filter { entries[$0.id]?.sequence == $0.sequence }
    head = 0
  }
}
