import DBus
import Synchronization

/// The client's view of what comes back from the server: which notifications
/// are ours, which presentation applies, and who listens.
///
/// Signals arrive on the connection's dispatch thread; posts register their
/// ids from other threads. An event can arrive before the `Notify` reply has
/// been handed to the poster (a fast click), so events for ids not known yet
/// wait in a short buffer and are delivered, in order, when the id is registered.
final class EventHub: Sendable {
  private struct State {
    /// The unique name of the server our posted ids belong to.
    var server: BusName?
    /// The ids posted to `server` and not yet closed.
    var posted = RecentTable<Void>(limit: EventHub.postedLimit)
    /// The capabilities of a server, by the unique name that answered `GetCapabilities`.
    var capabilities: (server: BusName, list: [Capability])?
    /// Recent events about ids that are not (yet) ours.
    var early: [(server: BusName, event: NotificationEvent)] = []
    var consumers: [Int: AsyncStream<NotificationEvent>.Continuation] = [:]
    var nextConsumer = 1
    /// The capabilities asked for when the client started, until someone takes the answer.
    var prefetch: Task<Result<(server: BusName, list: [Capability]), DBusError>, Never>?
    /// Set once the connection is gone (or events were never wanted): new streams end at once.
    var finished = false
  }

  private let state = Mutex(State())
  /// How many posted ids are followed at most; the oldest are forgotten first.
  static let postedLimit = 4096
  /// How many early events are kept while their `Notify` reply is on its way.
  static let earlyLimit = 64

  /// A new stream of the events about notifications posted from now on or before.
  func events() -> AsyncStream<NotificationEvent> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: NotificationEvent.self, bufferingPolicy: .bufferingNewest(1024))
    let id: Int? = state.withLock { state in
      guard !state.finished else { return nil }
      let id = state.nextConsumer
      state.nextConsumer += 1
      state.consumers[id] = continuation
      return id
    }
    guard let id else {
      continuation.finish()
      return stream
    }
    continuation.onTermination = { [weak self] _ in
      _ = self?.state.withLock { $0.consumers.removeValue(forKey: id) }
    }
    return stream
  }

  /// Keeps the capabilities already asked for, for the first post.
  func follow(prefetch: Task<Result<(server: BusName, list: [Capability]), DBusError>, Never>?) {
    state.withLock { $0.prefetch = prefetch }
  }

  /// The answer to the first `GetCapabilities`, once; `nil` when it was taken before.
  func takePrefetch() async -> Result<(server: BusName, list: [Capability]), DBusError>? {
    guard
      let task = state.withLock({ state in
        defer { state.prefetch = nil }
        return state.prefetch
      })
    else {
      return nil
    }
    return await task.value
  }

  /// The capabilities cached last, whichever server gave them.
  var lastCapabilities: (name: BusName, capabilities: [Capability])? {
    state.withLock { state in state.capabilities.map { ($0.server, $0.list) } }
  }

  /// The capabilities cached for `server`, if they are known.
  func capabilities(of server: BusName) -> [Capability]? {
    state.withLock { state in
      guard let cached = state.capabilities, cached.server == server else { return nil }
      return cached.list
    }
  }

  func setCapabilities(_ list: [Capability], of server: BusName) {
    state.withLock { $0.capabilities = (server, list) }
  }

  /// Whether `id` is a notification this client posted to `server` and that is still open.
  func owns(_ id: UInt32, on server: BusName) -> Bool {
    state.withLock { $0.server == server && $0.posted.contains(id) }
  }

  /// Records that `server` gave `id` to one of our posts, and delivers what already came for it.
  func register(_ id: UInt32, server: BusName) {
    state.withLock { state in
      if state.server != server {
        state.server = server
        state.posted.removeAll()
      }
      if !state.posted.contains(id) { state.posted.store((), for: id) }
      var waiting: [NotificationEvent] = []
      state.early.removeAll { entry in
        guard entry.server == server, entry.event.id == id else { return false }
        waiting.append(entry.event)
        return true
      }
      for event in waiting { EventHub.deliver(event, in: &state) }
    }
  }

  /// Handles an event sent by `server` (the subscription checked that it is the current owner).
  func receive(_ event: NotificationEvent, from server: BusName) {
    state.withLock { state in
      if let cached = state.capabilities, cached.server == server,
        !Presentation(capabilities: cached.list).accepts(event)
      {
        return
      }
      guard state.server == server, state.posted.contains(event.id) else {
        state.early.append((server, event))
        if state.early.count > EventHub.earlyLimit { state.early.removeFirst() }
        return
      }
      EventHub.deliver(event, in: &state)
    }
  }

  /// The server went away or was replaced: its notifications are gone with it,
  /// and each ends with `closed(undefined)`.
  func serverChanged(to newOwner: BusName?) {
    state.withLock { state in
      guard state.server != newOwner else { return }
      let ended = state.posted.ids
      state.posted.removeAll()
      state.server = nil
      state.early = []
      for id in ended {
        for consumer in state.consumers.values {
          consumer.yield(.closed(id: id, reason: .undefined))
        }
      }
    }
  }

  /// Ends every stream (the connection is gone).
  func finish() {
    let consumers = state.withLock { state in
      defer {
        state.consumers = [:]
        state.finished = true
      }
      return Array(state.consumers.values)
    }
    for consumer in consumers { consumer.finish() }
  }

  private static func deliver(_ event: NotificationEvent, in state: inout State) {
    for consumer in state.consumers.values { consumer.yield(event) }
    if case .closed(let id, _) = event {
      state.posted.remove(id)
    }
  }
}
