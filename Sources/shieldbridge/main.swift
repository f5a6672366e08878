@_spi(Executors) import Executor
import ShieldBridgeCLI
@_spi(ExperimentalCustomExecutors) import _Concurrency

// Tasks run on the Executor module's pool, whose idle threads sleep without a timeout,
// rather than on libdispatch's global queues, whose monitor wakes the
// process every second for as long as it lives (see `ThreadPoolExecutor`).
// Installed before the first task leaves the main thread. (Swift 6.3 does
// not pick up a `DefaultExecutorFactory` typealias in top-level code.)
_createExecutors(factory: ThreadPoolExecutorFactory.self)

await ShieldBridgeCommand.main()
