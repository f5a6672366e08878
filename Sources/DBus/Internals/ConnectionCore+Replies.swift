import CDBus

/// Calls waiting for their reply, and when each one times out.
///
/// ShieldBridge tracks replies itself instead of using `DBusPendingCall`: one
/// dictionary lookup per reply and no libdbus timeout object per call, which
/// keeps pipelined calls cheap. Deadlines live in a min-heap; entries of calls
/// that were answered stay in the heap until they surface (or the heap is
/// rebuilt when it grows to more than twice the calls in flight).
struct ReplyTable {
  typealias Completion = @Sendable (Result<Message, DBusError>) -> Void

  struct Pending {
    var deadline: UInt64
    var timeout: Duration
    var complete: Completion
  }

  var pending: [UInt32: Pending] = [:]
  var deadlines = DeadlineHeap()
  /// When the loop's current `poll` ends, or 0 while the loop is awake (it
  /// will look at the heap before it sleeps again). A new deadline earlier
  /// than this must wake the loop.
  var sleepUntil: UInt64 = 0
  /// Why the connection closed, once its waiting calls were failed: a call
  /// sent after that fails at once instead of waiting for a reply that
  /// cannot come.
  var closedBecause: DBusError?

  /// Pops the deadlines of calls already answered off the top of the heap,
  /// so that the loop does not wake for a deadline nobody waits for: an idle
  /// connection that made a call sleeps without a timeout, not until the
  /// answered call's 25 s are up.
  mutating func dropAnsweredDeadlines() {
    while let first = deadlines.first, pending[first.serial]?.deadline != first.deadline {
      _ = deadlines.pop()
    }
  }

  mutating func compactIfSparse() {
    guard deadlines.count > 2 * pending.count + 64 else { return }
    deadlines = DeadlineHeap(pending.map { ($0.value.deadline, $0.key) })
  }
}

/// A binary min-heap of (deadline, serial).
struct DeadlineHeap {
  private var items: [(deadline: UInt64, serial: UInt32)] = []

  init() {}

  init(_ entries: [(UInt64, UInt32)]) {
    for entry in entries { push(entry.0, entry.1) }
  }

  var count: Int { items.count }
  var first: (deadline: UInt64, serial: UInt32)? { items.first }

  mutating func push(_ deadline: UInt64, _ serial: UInt32) {
    items.append((deadline, serial))
    var child = items.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard items[child].deadline < items[parent].deadline else { break }
      items.swapAt(child, parent)
      child = parent
    }
  }

  mutating func pop() -> (deadline: UInt64, serial: UInt32)? {
    guard !items.isEmpty else { return nil }
    items.swapAt(0, items.count - 1)
    let top = items.removeLast()
    var parent = 0
    while true {
      let left = 2 * parent + 1
      let right = left + 1
      var smallest = parent
      if left < items.count, items[left].deadline < items[smallest].deadline { smallest = left }
      if right < items.count, items[right].deadline < items[smallest].deadline { smallest = right }
      guard smallest != parent else { break }
      items.swapAt(parent, smallest)
      parent = smallest
    }
    return top
  }
}

extension ConnectionCore {
  /// Sends a message that expects no reply.
  ///
  /// - Throws: `Disconnected` when the connection is closed.
  func send(_ message: Message) throws(DBusError) {
    try submit(Outgoing(message: message, reply: nil))
  }

  /// Sends a method call; `complete` runs with its reply, an error reply, or
  /// `NoReply` after `timeout`, on whichever thread drives the connection then.
  ///
  /// - Throws: `Disconnected` when the connection is closed.
  func sendWithReply(
    _ message: Message, timeout: Duration, sent: (@Sendable (UInt32) -> Void)? = nil,
    complete: @escaping ReplyTable.Completion
  ) throws(DBusError) {
    guard message.kind == .methodCall else { throw DBusError(.invalidArgs, "only a method call has a reply") }
    try submit(
      Outgoing(
        message: message,
        reply: .init(timeout: timeout, deadline: deadline(after: timeout), complete: complete, sent: sent)))
  }

  /// Runs the completion of the call `message` answers, if it is still waiting.
  func completeReply(_ message: Message) {
    let serial = message.replySerial
    guard let pending = replies.withLock({ $0.pending.removeValue(forKey: serial) }) else { return }
    if let error = message.error {
      pending.complete(.failure(error))
    } else {
      pending.complete(.success(message))
    }
  }

  /// Gives up waiting for the reply to `serial`; its completion runs with `Cancelled`.
  func cancelReply(serial: UInt32) {
    guard let pending = replies.withLock({ $0.pending.removeValue(forKey: serial) }) else { return }
    pending.complete(.failure(DBusError(.cancelled, "the call was cancelled")))
  }

  /// Fails every call whose deadline has passed with `NoReply`.
  func expireReplies(now: UInt64) {
    let expired: [ReplyTable.Pending] = replies.withLock { table in
      var expired: [ReplyTable.Pending] = []
      while let first = table.deadlines.first, first.deadline <= now {
        _ = table.deadlines.pop()
        if let pending = table.pending[first.serial], pending.deadline == first.deadline {
          table.pending[first.serial] = nil
          expired.append(pending)
        }
      }
      table.compactIfSparse()
      return expired
    }
    for pending in expired {
      pending.complete(
        .failure(DBusError(.noReply, "no reply within \(pending.timeout.formatted)")))
    }
  }

  /// Records that the loop is about to sleep; returns the earliest reply deadline.
  func sleepUntilNextReplyDeadline() -> UInt64 {
    replies.withLock { table in
      table.dropAnsweredDeadlines()
      let next = table.deadlines.first?.deadline ?? .max
      table.sleepUntil = next
      return next
    }
  }

  /// Records that the loop is awake and will look at the deadlines before sleeping again.
  func markAwake() {
    replies.withLock { $0.sleepUntil = 0 }
  }

  /// Fails every waiting call; used when the connection closes.
  func failAllReplies(_ reason: DBusError) {
    let all = replies.withLock { table in
      defer {
        table.pending = [:]
        table.deadlines = DeadlineHeap()
        table.closedBecause = reason
      }
      return Array(table.pending.values)
    }
    for pending in all { pending.complete(.failure(reason)) }
  }
}

extension Duration {
  /// "2 s", "250 ms": for messages.
  var formatted: String {
    let milliseconds = components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    return milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(milliseconds) ms"
  }
}
