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

/// A value behind a lock that sendable closures can share.
private final class Shared<Value: Sendable>: Sendable {
  let value: Mutex<Value>

  init(_ value: Value) {
    self.value = Mutex(value)
  }
}
