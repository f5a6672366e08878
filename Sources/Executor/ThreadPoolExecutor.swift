import Spawn
@_spi(ExperimentalCustomExecutors) @_spi(ExperimentalScheduling) public import _Concurrency

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Runs Swift tasks on a few threads of its own that sleep, without any
/// timeout, for as long as there is nothing to run.
///
/// The executor that the `shieldbridge` binary installs as the default one
/// (see ``ThreadPoolExecutorFactory``), in place of the platform's, which on
/// Linux hands tasks to libdispatch's global queues. libdispatch watches the
/// threads of those queues with a timer that fires every second, for as long
/// as the process lives, once any task has run (its "workqueue monitor",
/// which reads `/proc` to see whether a queue is starved): an idle `serve`
/// woke once a second for that alone. This pool has no such monitor: a job
/// is handed to an idle thread, or a new one is started, up to
/// ``maximumThreads``; a thread with nothing to run waits on a condition
/// variable; delayed jobs (`Task.sleep`) wait in a heap, and one thread waits
/// until the earliest of them is due, so that an idle process wakes only
/// when something is due.
///
/// A job that one of the pool's threads queues while no other job waits
/// (the next step of a chain: a desktop event handed to the service's loop,
/// the loop's answer to a caller) runs on that same thread once its current
/// job returns, rather than waking another: a focus change then costs the
/// service one wake-up of the pool, not one per hop. The price is that such
/// a job waits while the current one blocks, which jobs must not do for
/// long (Swift concurrency asks the same of every executor).
///
/// The threads never end: a thread that ended after some idle time would be
/// a wake-up of its own, and a few sleeping threads cost only their stacks.
/// Priorities are not followed: the service runs few tasks at once.
///
/// Behind an SPI of its own (`@_spi(Executors) import Executor`), since it
/// conforms to Swift 6.3's experimental `SchedulingExecutor`.
@_spi(Executors)
public final class ThreadPoolExecutor: TaskExecutor, SchedulingExecutor, @unchecked Sendable {
  // Every field below `lock` is read and written with `lock` held.

  /// The most threads the pool starts, enough that a task that blocks a
  /// thread for a while (a file lock, a child to wait for) does not hold up the others.
  public let maximumThreads: Int
  private let lock: UnsafeMutablePointer<pthread_mutex_t>
  /// Signalled when a job is queued for an idle thread.
  private let ready: UnsafeMutablePointer<pthread_cond_t>
  /// Signalled when the thread that keeps the time must look again: a job
  /// is due earlier, or a job is queued and no other thread is idle.
  private let timerReady: UnsafeMutablePointer<pthread_cond_t>
  /// Set on the pool's own threads, so that ``enqueue(_:)`` knows its caller.
  private let worker: pthread_key_t
  private var jobs = JobQueue()
  private var delayed = DelayedJobs()
  private var threads = 0
  /// The threads waiting on `ready`, the one keeping the time not among them.
  private var idleThreads = 0
  /// The id of the last timer started (``startTimer(after:_:)``).
  private var nextTimer: UInt64 = 0
  /// Whether an idle thread waits for the earliest delayed job, on `timerReady`.
  private var timerWaiter = false

  /// A pool that starts at most `maximumThreads` threads, the first when the first job arrives.
  public init(maximumThreads: Int) {
    self.maximumThreads = max(1, maximumThreads)
    lock = .allocate(capacity: 1)
    pthread_mutex_init(lock, nil)
    var attributes = pthread_condattr_t()
    pthread_condattr_init(&attributes)
    // Deadlines are on the monotonic clock, which the wall clock's jumps do not move.
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
    ready = .allocate(capacity: 1)
    pthread_cond_init(ready, &attributes)
    timerReady = .allocate(capacity: 1)
    pthread_cond_init(timerReady, &attributes)
    pthread_condattr_destroy(&attributes)
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    worker = key
  }

  deinit {
    // The default executor lives as long as the process; a pool made
    // otherwise must not be dropped while its threads run.
    pthread_key_delete(worker)
    pthread_cond_destroy(timerReady)
    pthread_cond_destroy(ready)
    pthread_mutex_destroy(lock)
    timerReady.deallocate()
    ready.deallocate()
    lock.deallocate()
  }

  public func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let fromWorker = isWorker
    pthread_mutex_lock(lock)
    let first = jobs.count == 0
    jobs.append(job)
    // A job one of the pool's threads queues while nothing else waits (a
    // task resumed, a continuation, a task started) runs on that thread once
    // its job returns, which it does when its task suspends or ends: handing
    // it to another thread would cost a wake-up and gain nothing.
    if !(fromWorker && first) { wakeOrStartThread() }
    pthread_mutex_unlock(lock)
  }

  public func enqueue<C: Clock>(
    _ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C
  ) {
    enqueue(job, atMonotonic: ThreadPoolExecutor.monotonicDeadline(after: delay))
  }

  public func enqueue<C: Clock>(
    _ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C
  ) {
    enqueue(job, atMonotonic: ThreadPoolExecutor.monotonicDeadline(after: clock.now.duration(to: instant)))
  }

  /// Queues `job` to run once the monotonic clock reads `deadline` (in nanoseconds).
  private func enqueue(_ job: consuming ExecutorJob, atMonotonic deadline: UInt64) {
    let job = UnownedJob(job)
    let fromWorker = isWorker
    pthread_mutex_lock(lock)
    if delayed.push(deadline, .job(job)) {
      // The thread keeping the time must wait less now; when none does, the
      // calling pool thread takes that on once its job returns, or an idle
      // thread does.
      if timerWaiter {
        pthread_cond_signal(timerReady)
      } else if !fromWorker {
        if idleThreads > 0 { pthread_cond_signal(ready) } else { startThreadIfAllowed() }
      }
    }
    pthread_mutex_unlock(lock)
  }

  /// Runs `callback` on one of the pool's threads once the monotonic clock
  /// has gone on by `delay`, unless ``cancelTimer(_:)`` takes it away first.
  ///
  /// A `Task.sleep` cancelled early stays in the heap until its deadline and
  /// wakes the pool then for nothing; a timer cancelled here leaves nothing
  /// behind (see ``CancellableSleep``).
  ///
  /// - Returns: The timer's id, for ``cancelTimer(_:)``.
  public func startTimer(after delay: Duration, _ callback: @escaping @Sendable () -> Void) -> UInt64 {
    let deadline = ThreadPoolExecutor.monotonicDeadline(after: delay)
    let fromWorker = isWorker
    pthread_mutex_lock(lock)
    defer { pthread_mutex_unlock(lock) }
    nextTimer &+= 1
    let id = nextTimer
    // As for a delayed job: the thread keeping the time looks again, or the calling pool thread
    // takes that on once its job returns, or an idle thread does.
    if delayed.push(deadline, .timer(id, callback)) {
      if timerWaiter {
        pthread_cond_signal(timerReady)
      } else if !fromWorker {
        if idleThreads > 0 { pthread_cond_signal(ready) } else { startThreadIfAllowed() }
      }
    }
    return id
  }

  /// Takes the timer `id` away; `false` when it fired already (or never was).
  @discardableResult
  public func cancelTimer(_ id: UInt64) -> Bool {
    pthread_mutex_lock(lock)
    defer { pthread_mutex_unlock(lock) }
    // The thread keeping the time waits on for the next deadline, or for none: it is told when
    // the earliest went, at the moment of the cancel, not at the timer's time.
    guard let wasEarliest = delayed.remove(timer: id) else { return false }
    if wasEarliest && timerWaiter { pthread_cond_signal(timerReady) }
    return true
  }

  /// How many delayed jobs and timers wait for their time.
  public var waitingDeadlines: Int {
    pthread_mutex_lock(lock)
    defer { pthread_mutex_unlock(lock) }
    return delayed.count
  }

  /// Whether the calling thread is one of this pool's.
  private var isWorker: Bool {
    pthread_getspecific(worker) != nil
  }

  /// Hands the queue to an idle thread, or starts one, or has the thread
  /// keeping the time take it; called with `lock` held.
  private func wakeOrStartThread() {
    if idleThreads >= jobs.count {
      pthread_cond_signal(ready)
    } else if threads < maximumThreads {
      startThreadIfAllowed()
    } else if timerWaiter {
      pthread_cond_signal(timerReady)
    }
  }

  /// Starts another thread unless the pool has its most; called with `lock` held.
  private func startThreadIfAllowed() {
    guard threads < maximumThreads else { return }
    threads += 1
    detachThread { [self] in work() }
  }

  /// One thread's loop: runs what is queued and what is due, and sleeps in between.
  private func work() {
    ThreadPoolExecutor.blockAsynchronousSignals()
    pthread_setspecific(worker, UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque()))
    let executor = asUnownedTaskExecutor()
    pthread_mutex_lock(lock)
    while true {
      let fired = delayed.moveDue(before: ThreadPoolExecutor.monotonicNow(), into: &jobs)
      if !fired.isEmpty {
        // A timer's callback resumes a task, which queues a job: never with the lock held.
        pthread_mutex_unlock(lock)
        for callback in fired { callback() }
        pthread_mutex_lock(lock)
        continue
      }
      if let job = jobs.popFirst() {
        // Whoever kept the time is busy now: an idle thread takes that on.
        if !timerWaiter && delayed.earliest != nil && idleThreads > 0 { pthread_cond_signal(ready) }
        pthread_mutex_unlock(lock)
        job.runSynchronously(on: executor)
        pthread_mutex_lock(lock)
        continue
      }
      if let deadline = delayed.earliest, !timerWaiter {
        // This thread keeps the time for the delayed jobs; the others wait without a timeout.
        timerWaiter = true
        var time = timespec(
          tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        _ = pthread_cond_timedwait(timerReady, lock, &time)
        timerWaiter = false
      } else {
        idleThreads += 1
        pthread_cond_wait(ready, lock)
        idleThreads -= 1
      }
    }
  }

  /// Blocks on this thread every signal but those a fault raises, as
  /// libdispatch does on its workers, so that the process's signals go to
  /// the threads that expect them and a signal that a system call raises on
  /// this thread stays pending: a write past `ulimit -f` then fails with
  /// `EFBIG` instead of ending the process with `SIGXFSZ`.
  private static func blockAsynchronousSignals() {
    var mask = sigset_t()
    sigfillset(&mask)
    for signal in [SIGILL, SIGTRAP, SIGFPE, SIGBUS, SIGSEGV, SIGSYS, SIGPIPE, SIGPROF] {
      sigdelset(&mask, signal)
    }
    pthread_sigmask(SIG_BLOCK, &mask, nil)
  }

  /// Nanoseconds on the monotonic clock (`CLOCK_MONOTONIC`, that of the condition variable).
  private static func monotonicNow() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
  }

  /// The monotonic deadline `delay` from now; a delay that is not a
  /// `Duration` (a clock of unknown kind) is taken as none.
  private static func monotonicDeadline<D: DurationProtocol>(after delay: D) -> UInt64 {
    guard let delay = delay as? Duration, delay > .zero else { return monotonicNow() }
    let (seconds, attoseconds) = delay.components
    let nanoseconds = UInt64(clamping: seconds).multipliedReportingOverflow(by: 1_000_000_000)
    guard !nanoseconds.overflow else { return UInt64.max / 2 }
    return min(monotonicNow() &+ nanoseconds.partialValue &+ UInt64(attoseconds / 1_000_000_000), UInt64.max / 2)
  }
}

/// The jobs ready to run, first in first out.
private struct JobQueue {
  private var items: [UnownedJob] = []
  private var head = 0

  var count: Int { items.count - head }

  mutating func append(_ job: UnownedJob) {
    items.append(job)
  }

  mutating func popFirst() -> UnownedJob? {
    guard head < items.count else { return nil }
    let job = items[head]
    head += 1
    if head == items.count {
      items.removeAll(keepingCapacity: true)
      head = 0
    }
    return job
  }
}

/// The delayed jobs and the timers, in a binary min-heap on their deadlines (ties in the order they came).
private struct DelayedJobs {
  /// What is due at a deadline: a job to queue, or a timer's callback to run.
  enum Work {
    case job(UnownedJob)
    case timer(UInt64, @Sendable () -> Void)
  }

  private struct Entry {
    var deadline: UInt64
    var order: UInt64
    var work: Work

    func isBefore(_ other: Entry) -> Bool {
      deadline != other.deadline ? deadline < other.deadline : order < other.order
    }
  }

  private var heap: [Entry] = []
  private var nextOrder: UInt64 = 0

  /// The earliest deadline, if any job or timer waits.
  var earliest: UInt64? { heap.first?.deadline }
  var count: Int { heap.count }

  /// Adds `work`; returns whether it is now the earliest.
  mutating func push(_ deadline: UInt64, _ work: Work) -> Bool {
    heap.append(Entry(deadline: deadline, order: nextOrder, work: work))
    nextOrder &+= 1
    return siftUp(heap.count - 1) == 0
  }

  /// Moves every job due at `now` to `queue`, earliest first; returns the callbacks of the timers due.
  mutating func moveDue(before now: UInt64, into queue: inout JobQueue) -> [@Sendable () -> Void] {
    var fired: [@Sendable () -> Void] = []
    while let first = heap.first, first.deadline <= now {
      switch first.work {
      case .job(let job): queue.append(job)
      case .timer(_, let callback): fired.append(callback)
      }
      remove(at: 0)
    }
    return fired
  }

  /// Removes the timer `id`; whether it was the earliest, `nil` when it is not here.
  mutating func remove(timer id: UInt64) -> Bool? {
    guard
      let index = heap.firstIndex(where: { entry in
        if case .timer(let entryID, _) = entry.work { entryID == id } else { false }
      })
    else { return nil }
    remove(at: index)
    return index == 0
  }

  private mutating func remove(at index: Int) {
    let last = heap.removeLast()
    guard index < heap.count else { return }
    heap[index] = last
    if siftUp(index) == index { siftDown(index) }
  }

  /// Moves the entry at `index` up while it is before its parent; returns where it ended.
  private mutating func siftUp(_ index: Int) -> Int {
    var child = index
    while child > 0 {
      let parent = (child - 1) / 2
      guard heap[child].isBefore(heap[parent]) else { break }
      heap.swapAt(child, parent)
      child = parent
    }
    return child
  }

  private mutating func siftDown(_ index: Int) {
    var parent = index
    while true {
      let left = 2 * parent + 1
      let right = left + 1
      var smallest = parent
      if left < heap.count && heap[left].isBefore(heap[smallest]) { smallest = left }
      if right < heap.count && heap[right].isBefore(heap[smallest]) { smallest = right }
      guard smallest != parent else { break }
      heap.swapAt(parent, smallest)
      parent = smallest
    }
  }
}
