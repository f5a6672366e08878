import Synchronization

/// The entries a ``LogSink/collecting(_:)`` sink kept, in the order they were logged.
public final class LogCollector: Sendable {
  private let kept = Mutex<[LogEntry]>([])

  public init() {}

  /// Keeps `entry` after the others.
  public func append(_ entry: LogEntry) {
    kept.withLock { $0.append(entry) }
  }

  /// Every entry so far.
  public var entries: [LogEntry] {
    kept.withLock { $0 }
  }
}
