/// The signal handlers of a connection, each with its rule and an optional sender filter.
struct SignalHandlerTable {
  struct Entry {
    var rule: MatchRule
    /// Returns the unique name a signal must come from, or `nil` to accept none.
    var requiredSender: (@Sendable () -> BusName?)?
    var deliver: @Sendable (Message) -> Void
    var end: @Sendable () -> Void
  }

  var entries: [Int: Entry] = [:]
  var nextID = 1
}

extension ConnectionCore {
  /// Adds a handler; `deliver` runs on the loop thread for every matching signal.
  func addSignalHandler(_ entry: SignalHandlerTable.Entry) throws(DBusError) -> Int {
    try ensureOpen()
    return signalHandlers.withLock { table in
      let id = table.nextID
      table.nextID += 1
      table.entries[id] = entry
      return id
    }
  }

  /// Removes a handler; returns whether it was there.
  @discardableResult
  func removeSignalHandler(_ id: Int) -> SignalHandlerTable.Entry? {
    signalHandlers.withLock { $0.entries.removeValue(forKey: id) }
  }

  /// Hands a signal to every handler whose rule (and sender filter) it satisfies.
  func deliverSignal(_ message: Message) {
    let entries = signalHandlers.withLock { Array($0.entries.values) }
    for entry in entries where entry.rule.matches(message) {
      if let requiredSender = entry.requiredSender {
        guard let sender = message.sender, sender == requiredSender() else { continue }
      }
      entry.deliver(message)
    }
  }

  /// Ends every handler; used when the connection closes.
  func endAllSignalHandlers() {
    let entries = signalHandlers.withLock { table in
      defer { table.entries = [:] }
      return Array(table.entries.values)
    }
    for entry in entries { entry.end() }
  }
}
