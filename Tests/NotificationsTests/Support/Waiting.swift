import Notifications
import TestSupport

/// Why a bounded wait in a test ended without its value.
struct WaitTimedOut: Error, CustomStringConvertible {
  var what: String
  var description: String { "timed out waiting for \(what)" }
}

/// The first element of `sequence` that satisfies `predicate`, waiting at most `timeout`.
func first<S: AsyncSequence & Sendable>(
  _ what: String, in sequence: S, timeout: Duration = HangBound.wait,
  where predicate: @escaping @Sendable (S.Element) -> Bool = { _ in true }
) async throws -> S.Element where S.Element: Sendable {
  try await withThrowingTaskGroup(of: S.Element?.self) { group in
    group.addTask {
      for try await element in sequence where predicate(element) { return element }
      return nil
    }
    group.addTask {
      try await Task.sleep(for: timeout)
      return nil
    }
    defer { group.cancelAll() }
    guard let element = try await group.next() ?? nil else { throw WaitTimedOut(what: what) }
    return element
  }
}

/// Collects elements of `sequence` until `count` of them satisfied `predicate`, waiting at most `timeout`.
func collect<S: AsyncSequence & Sendable>(
  _ count: Int, _ what: String, from sequence: S, timeout: Duration = HangBound.wait,
  where predicate: @escaping @Sendable (S.Element) -> Bool = { _ in true }
) async throws -> [S.Element] where S.Element: Sendable {
  try await withThrowingTaskGroup(of: [S.Element]?.self) { group in
    group.addTask {
      var found: [S.Element] = []
      for try await element in sequence where predicate(element) {
        found.append(element)
        if found.count == count { return found }
      }
      return nil
    }
    group.addTask {
      try await Task.sleep(for: timeout)
      return nil
    }
    defer { group.cancelAll() }
    guard let elements = try await group.next() ?? nil else { throw WaitTimedOut(what: what) }
    return elements
  }
}

/// The first notification the server receives on `activity`, waiting at most 5 seconds.
func nextNotification(_ activity: AsyncStream<NotificationServer.Activity>) async throws -> ReceivedNotification {
  let event = try await first("a notification", in: activity) {
    if case .notified = $0 { true } else { false }
  }
  guard case .notified(let notification) = event else { throw WaitTimedOut(what: "a notification") }
  return notification
}

/// The events about `id` in `events`, in order, until `fence` arrives (within 20 s).
func eventsAbout(
  _ id: UInt32, in events: AsyncStream<NotificationEvent>, until fence: NotificationEvent
) async throws -> [NotificationEvent] {
  try await withThrowingTaskGroup(of: [NotificationEvent]?.self) { group in
    group.addTask {
      var found: [NotificationEvent] = []
      for await event in events {
        if event == fence { return found }
        if event.id == id { found.append(event) }
      }
      return nil
    }
    group.addTask {
      try await Task.sleep(for: .seconds(20))
      return nil
    }
    defer { group.cancelAll() }
    guard let found = try await group.next() ?? nil else { throw WaitTimedOut(what: "the fence \(fence)") }
    return found
  }
}
