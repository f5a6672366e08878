import Dispatch
import ShieldBridge
import Synchronization
import Testing

/// A clock that moves only when told to.
final class ManualClock: Clock, Sendable {
  struct Instant: InstantProtocol {
    var offset: Duration

    func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
    func duration(to other: Instant) -> Duration { other.offset - offset }
    static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
  }

  private let current = Mutex(Instant(offset: .zero))

  var now: Instant { current.withLock { $0 } }
  var minimumResolution: Duration { .zero }

  func advance(by duration: Duration) {
    current.withLock { $0 = $0.advanced(by: duration) }
  }

  func sleep(until deadline: Instant, tolerance: Duration?) async throws {
    current.withLock { $0 = max($0, deadline) }
  }
}

@Suite("Deduplicating activations and repeated clicks")
struct ActionDeduplicatorTests {
  @Test("a repeat of the same notification and key inside the window is dropped")
  func repeatsInsideWindow() {
    let clock = ManualClock()
    let deduplicator = ActionDeduplicator(window: .seconds(1), clock: clock)
    #expect(deduplicator.admitInvocation(notification: 7, actionKey: "default"))
    clock.advance(by: .milliseconds(300))
    #expect(!deduplicator.admitInvocation(notification: 7, actionKey: "default"))
    #expect(deduplicator.admitInvocation(notification: 7, actionKey: "view"))
    #expect(deduplicator.admitInvocation(notification: 8, actionKey: "default"))
    clock.advance(by: .milliseconds(699))
    #expect(!deduplicator.admitInvocation(notification: 7, actionKey: "default"))
    clock.advance(by: .milliseconds(1))
    #expect(deduplicator.admitInvocation(notification: 7, actionKey: "default"))
  }

  @Test("the window is configurable")
  func configurableWindow() {
    let clock = ManualClock()
    let deduplicator = ActionDeduplicator(window: .milliseconds(50), clock: clock)
    #expect(deduplicator.window == .milliseconds(50))
    #expect(deduplicator.admitInvocation(notification: 1, actionKey: "default"))
    clock.advance(by: .milliseconds(50))
    #expect(deduplicator.admitInvocation(notification: 1, actionKey: "default"))
    #expect(ActionDeduplicator().window == .seconds(1))
  }

  @Test("old entries are forgotten, so memory stays bounded")
  func forgetsOldEntries() {
    let clock = ManualClock()
    let deduplicator = ActionDeduplicator(window: .seconds(1), clock: clock)
    for id in UInt32(0)..<10_000 {
      #expect(deduplicator.admitInvocation(notification: id, actionKey: "default"))
      clock.advance(by: .milliseconds(100))
    }
    #expect(!deduplicator.admitInvocation(notification: 9_999, actionKey: "default"))
  }

  @Test("a flood of clicks inside one window is admitted once each, and its repeats dropped")
  func floodInsideOneWindow() {
    let clock = ManualClock()
    let deduplicator = ActionDeduplicator(window: .seconds(1), clock: clock)
    for id in UInt32(0)..<5_000 {
      #expect(deduplicator.admitInvocation(notification: id, actionKey: "default"))
    }
    clock.advance(by: .milliseconds(999))
    #expect((UInt32(0)..<5_000).allSatisfy { !deduplicator.admitInvocation(notification: $0, actionKey: "default") })
    clock.advance(by: .milliseconds(1))
    #expect(deduplicator.admitInvocation(notification: 0, actionKey: "default"))
    #expect(deduplicator.admitInvocation(notification: 4_999, actionKey: "default"))
  }

  @Test("activations of the same identifier are coalesced while one is in flight")
  func coalescesInFlight() {
    let deduplicator = ActionDeduplicator()
    #expect(deduplicator.beginActivation(of: "shield-open"))
    #expect(deduplicator.isActive("shield-open"))
    #expect(!deduplicator.beginActivation(of: "shield-open"))
    #expect(deduplicator.beginActivation(of: "other"))
    deduplicator.endActivation(of: "shield-open")
    #expect(!deduplicator.isActive("shield-open"))
    #expect(deduplicator.beginActivation(of: "shield-open"))
  }

  @Test("of many threads starting the same identifier at once, exactly one wins")
  func oneWinnerAcrossThreads() {
    let deduplicator = ActionDeduplicator()
    let winners = Atomic(0)
    DispatchQueue.concurrentPerform(iterations: 64) { _ in
      if deduplicator.beginActivation(of: "shield-open") {
        winners.add(1, ordering: .relaxed)
      }
    }
    #expect(winners.load(ordering: .relaxed) == 1)
  }

  @Test("coalescing runs the body once while it is in flight and frees the identifier after")
  func coalescingTasks() async throws {
    let deduplicator = ActionDeduplicator()
    let (started, startedContinuation) = AsyncStream.makeStream(of: Void.self)
    let (release, releaseContinuation) = AsyncStream.makeStream(of: Void.self)
    let first = Task {
      await deduplicator.coalescing("shield-open") { () async -> Int in
        startedContinuation.yield()
        for await _ in release { break }
        return 1
      }
    }
    for await _ in started { break }
    let second = await deduplicator.coalescing("shield-open") { () async -> Int in 2 }
    #expect(second == nil)
    releaseContinuation.yield()
    #expect(await first.value == 1)
    #expect(!deduplicator.isActive("shield-open"))
    #expect(await deduplicator.coalescing("shield-open") { () async -> Int in 3 } == 3)
  }

  @Test("an activation that throws frees its identifier")
  func throwingActivation() async {
    struct Failed: Error {}
    let deduplicator = ActionDeduplicator()
    await #expect(throws: Failed.self) {
      try await deduplicator.coalescing("x") { () async throws(Failed) -> Int in throw Failed() }
    }
    #expect(!deduplicator.isActive("x"))
  }
}
