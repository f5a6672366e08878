@_spi(Executors) import Executor
import Foundation
import Synchronization
import Testing

/// The pool the `shieldbridge` binary runs its tasks on, driven here as a
/// task executor preference (the test runner keeps its own default executor).
@Suite("The thread pool executor runs every job, delayed ones when they are due")
struct ThreadPoolExecutorTests {
  @Test("a thousand child tasks all run on the pool, at most its threads at once")
  func manyTasks() async {
    let pool = ThreadPoolExecutor(maximumThreads: 3)
    let threads = Shared<Set<UInt>>([])
    let total = await withTaskExecutorPreference(pool) {
      await withTaskGroup(of: Int.self) { group in
        for index in 0..<1_000 {
          group.addTask {
            threads.value.withLock { _ = $0.insert(UInt(bitPattern: Int(bitPattern: pthread_self()))) }
            return index
          }
        }
        return await group.reduce(0, +)
      }
    }
    #expect(total == 999 * 1_000 / 2)
    let count = threads.value.withLock { $0.count }
    #expect(count >= 1 && count <= 3)
  }

  @Test("sleeping tasks wake in the order of their deadlines, and none is lost")
  func delayedJobs() async throws {
    let pool = ThreadPoolExecutor(maximumThreads: 2)
    let order = Shared<[Int]>([])
    try await withTaskExecutorPreference(pool) {
      try await withThrowingTaskGroup(of: Void.self) { group in
        // Started in reverse, so that each new sleep is the earliest one so far.
        for index in (0..<20).reversed() {
          group.addTask {
            try await Task.sleep(for: .milliseconds(10 * index + 10))
            order.value.withLock { $0.append(index) }
          }
        }
        try await group.waitForAll()
      }
    }
    let woken = order.value.withLock { $0 }
    #expect(woken.sorted() == Array(0..<20))
  }
}

/// Issue 40, point 2: a timeout that was not needed leaves no timer behind.
@Suite("The pool's timers: they fire in the order of their deadlines, and a cancelled one never does")
struct PoolTimerTests {
  @Test("Timers fire in order; the cancelled ones, the earliest among them, never; a fired one cannot be cancelled")
  func cancelled() async throws {
    let pool = ThreadPoolExecutor(maximumThreads: 2)
    let fired = Shared<[Int]>([])
    let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
    var ids: [Int: UInt64] = [:]
    for index in (0..<10).reversed() {
      ids[index] = pool.startTimer(after: .milliseconds(20 * index + 20)) {
        fired.value.withLock { $0.append(index) }
        continuation.yield(index)
      }
    }
    // The earliest and two others, taken away before they are due.
    for index in [0, 4, 7] { #expect(pool.cancelTimer(ids[index]!)) }
    var seen: [Int] = []
    for await index in stream {
      seen.append(index)
      if index == 9 { break }
    }
    #expect(seen == [1, 2, 3, 5, 6, 8, 9])
    #expect(fired.value.withLock { $0 } == [1, 2, 3, 5, 6, 8, 9])
    #expect(!pool.cancelTimer(ids[9]!))
  }

  @Test("A sleep on the pool ends at its time, or at once when its task is cancelled, leaving no timer")
  func sleep() async throws {
    let pool = ThreadPoolExecutor(maximumThreads: 2)
    try await CancellableSleep.sleep(for: .milliseconds(20), on: pool)
    #expect(pool.waitingDeadlines == 0)
    let start = ContinuousClock.now
    let sleeper = Task { () async -> Bool in
      do {
        try await CancellableSleep.sleep(for: .seconds(600), on: pool)
        return false
      } catch {
        return true
      }
    }
    // Cancelled once its timer waits (or before: then it ends at once all the same).
    while pool.waitingDeadlines == 0 && ContinuousClock.now - start < .seconds(10) { await Task.yield() }
    sleeper.cancel()
    #expect(await sleeper.value)
    #expect(pool.waitingDeadlines == 0)
    #expect(ContinuousClock.now - start < .seconds(600))
  }
}

/// A value behind a lock that sendable closures can share.
private final class Shared<Value: Sendable>: Sendable {
  let value: Mutex<Value>

  init(_ value: Value) {
    self.value = Mutex(value)
  }
}
