/// Where a ``Logger``'s entries go: a function of the entry, called on the logging thread.
///
/// A sink must not block for long and must be safe to call from any thread
/// at once; the service's loop, its file watchers and the desktop's reader
/// all log through the same sink.
public struct LogSink: Sendable {
  /// Takes one entry the logger's threshold let through.
  public let write: @Sendable (LogEntry) -> Void

  public init(_ write: @escaping @Sendable (LogEntry) -> Void) {
    self.write = write
  }

  /// Writes each entry as ``LogEntry/line(program:)`` through `writeLine` (a
  /// line writer for stderr: `shieldbridge serve`, `shieldbridge native-host`).
  public static func lines(program: String, _ writeLine: @escaping @Sendable (String) -> Void) -> LogSink {
    LogSink { writeLine($0.line(program: program)) }
  }

  /// Keeps every entry in `collector`, for tests.
  public static func collecting(_ collector: LogCollector) -> LogSink {
    LogSink { collector.append($0) }
  }

  /// Drops every entry: the demo, whose narration is its own output.
  public static let discarding = LogSink { _ in }
}
