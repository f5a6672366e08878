/// A log that knows who speaks and what is worth saying: a subsystem, a threshold and a sink.
///
/// A value, passed in where something logs, instead of a closure with a
/// hand-typed prefix. The program makes one (`shieldbridge serve` writes to
/// stderr at the level `--log-level` asks for) and each part takes a child
/// for its subsystem: `logger.for("meter")`, and under it
/// `logger.for("desktop").for("i3")` says `desktop.i3`. A child keeps its
/// parent's threshold and sink, so that one setting holds for the whole program.
///
/// ```swift
/// let logger = Logger(threshold: .info, sink: .lines(program: "shieldbridge serve") { Output.err($0) })
/// logger.for("meter").notice("rule social reached today's limit")
/// // shieldbridge serve: notice: meter: rule social reached today's limit
/// ```
public struct Logger: Sendable {
  /// Who speaks (see ``LogEntry/subsystem``); empty for the program itself.
  public let subsystem: String
  /// The least level written; lower ones are dropped before their text is made.
  public var threshold: LogLevel
  public let sink: LogSink

  public init(subsystem: String = "", threshold: LogLevel = .info, sink: LogSink) {
    self.subsystem = subsystem
    self.threshold = threshold
    self.sink = sink
  }

  /// A logger that drops everything.
  public static let discarding = Logger(sink: .discarding)

  /// The logger of `name` under this one's subsystem (`desktop` → `desktop.i3`), with the same threshold and sink.
  public func `for`(_ name: String) -> Logger {
    Logger(subsystem: Self.join(subsystem, name), threshold: threshold, sink: sink)
  }

  /// Whether an entry at `level` would be written.
  public func logs(_ level: LogLevel) -> Bool { level >= threshold }

  /// Writes `message` at `level`, when the threshold lets it through; `message` is made only then.
  public func log(_ level: LogLevel, _ message: @autoclosure () -> String) {
    guard logs(level) else { return }
    sink.write(LogEntry(level, subsystem: subsystem, message()))
  }

  /// Writes an entry a part without a logger of its own prepared (the service's
  /// pure core), its subsystem taken under this logger's.
  public func log(_ entry: LogEntry) {
    guard logs(entry.level) else { return }
    var entry = entry
    entry.subsystem = Self.join(subsystem, entry.subsystem)
    sink.write(entry)
  }

  public func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
  public func info(_ message: @autoclosure () -> String) { log(.info, message()) }
  public func notice(_ message: @autoclosure () -> String) { log(.notice, message()) }
  public func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
  public func error(_ message: @autoclosure () -> String) { log(.error, message()) }

  private static func join(_ parent: String, _ child: String) -> String {
    parent.isEmpty ? child : child.isEmpty ? parent : parent + "." + child
  }
}
