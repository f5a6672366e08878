import Synchronization
@_spi(ExperimentalCustomExecutors) @_spi(ExperimentalScheduling) public import _Concurrency

/// The executors of the `shieldbridge` binary: the platform's main executor,
/// and a ``ThreadPoolExecutor`` as the default one for every task.
///
/// An executable installs it with `_createExecutors(factory:)` before its
/// first task leaves the main thread (the `shieldbridge` binary does, first
/// thing in `main.swift`). Swift 6.3 offers this as an experimental
/// interface (the `_spi` import); it is what keeps an idle `serve` from
/// waking every second (see ``ThreadPoolExecutor``). Behind the same SPI as
/// the executor.
@_spi(Executors)
public enum ThreadPoolExecutorFactory: ExecutorFactory {
  /// The platform's: on Linux, libdispatch's main queue, which the main
  /// thread drains. It is not one of the queues libdispatch's monitor
  /// watches, so it wakes nothing while idle.
  public static var mainExecutor: any MainExecutor { PlatformExecutorFactory.mainExecutor }

  /// Four threads at most: the service runs a handful of tasks at a time,
  /// and one may block for a moment (a file lock, a short child).
  public static var defaultExecutor: any TaskExecutor {
    installed.withLock { $0 = pool }
    return pool
  }

  private static let pool = ThreadPoolExecutor(maximumThreads: 4)

  /// The pool once the runtime took it as the default executor; `nil` in a
  /// process that did not install the factory (the tests), whose tasks run on the platform's.
  static let installed = Mutex<ThreadPoolExecutor?>(nil)
}
