import Log
import Posix

extension OptionDeclarations {
  /// Declares `--log-level LEVEL`, for the commands that run until stopped and log on stderr.
  mutating func logLevel() -> Option<LogLevel> {
    choice(
      "--log-level", "LEVEL", LogLevel.allCases.map { ($0.name, $0) },
      "The least level logged on stderr: debug, info, notice, warning or error "
        + "(\(LogLevel.standard.name), or \(LogLevel.environmentVariable)).")
  }
}

extension LogLevel {
  /// The level a command logs at when neither `--log-level` nor the environment names one.
  ///
  /// `info`: the service logs only when something happens (a limit, a
  /// notification, a click, a desktop lost), never per focus change, so
  /// everything but `debug` is few lines a day and each helps to see why.
  static let standard = LogLevel.info

  /// Where the level is read when `--log-level` is not given: the only way to
  /// set it for the native host, which browsers start, and a drop-in's
  /// `Environment=` for the service's unit.
  static let environmentVariable = "SHIELDBRIDGE_LOG_LEVEL"
}

extension Logger {
  /// The logger of a command that runs until stopped (`shieldbridge serve`,
  /// `shieldbridge native-host`): lines on stderr, from `level` up.
  ///
  /// - Parameter level: `--log-level`; `nil` reads ``LogLevel/environmentVariable``, and
  ///   takes ``LogLevel/standard`` without it. A value there that names no level is
  ///   said as a warning (the program must not stop over its log), and the standard taken.
  static func standardError(program: String, level: LogLevel?) -> Logger {
    var logger = Logger(threshold: level ?? .standard, sink: .standardError(program: program))
    if level == nil, let text = Environment.nonEmptyValue(LogLevel.environmentVariable) {
      if let named = LogLevel(name: text) {
        logger.threshold = named
      } else {
        logger.warning(
          "\(LogLevel.environmentVariable)='\(text)' names no level (debug, info, notice, warning, error); "
            + "logging from \(LogLevel.standard.name)")
      }
    }
    return logger
  }
}

extension LogSink {
  /// Each entry as one line on stderr (``LogEntry/line(program:)``).
  ///
  /// When stderr is the journal's stream (systemd sets `JOURNAL_STREAM` to its
  /// device and inode), each line starts with the level's syslog priority,
  /// `<5>`, which the journal takes off and keeps as the entry's priority, so
  /// that `journalctl -p warning` filters and colours by level. No timestamp:
  /// the journal stamps each line, and so do the browsers' logs.
  static func standardError(program: String) -> LogSink {
    if isJournal(FileDescriptor.standardError) {
      LogSink { Output.err("<\($0.level.syslogPriority)>" + $0.line(program: program)) }
    } else {
      .lines(program: program) { Output.err($0) }
    }
  }

  /// Whether `descriptor` is the stream `JOURNAL_STREAM` names (`DEVICE:INODE`, in decimal).
  private static func isJournal(_ descriptor: FileDescriptor) -> Bool {
    guard let stream = Environment.nonEmptyValue("JOURNAL_STREAM"),
      let status = try? descriptor.status()
    else { return false }
    return stream == "\(status.device):\(status.inode)"
  }
}
