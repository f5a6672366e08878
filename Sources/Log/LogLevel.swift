/// How much a log line matters, from the detail only a developer wants to the failure someone must act on.
///
/// The five levels are syslog's that a user service needs (RFC 5424,
/// `sd-daemon(3)`); a ``Logger`` writes the levels at or above its threshold.
/// Ordered from ``debug`` to ``error``.
public enum LogLevel: Int, Sendable, Hashable, Comparable, CaseIterable, CustomStringConvertible {
  /// What only explains the service's workings: a repeat of something already said.
  case debug
  /// What the service did as usual: a notification posted, windows hidden, the configuration reloaded.
  case info
  /// What a user looks for: a limit reached, a grant, an unlock, a dispatched click.
  case notice
  /// Something went wrong and the service went on without it: a file not watched, a desktop lost.
  case warning
  /// Something the user asked for, or relies on, did not happen: today's use not stored, a grant not recorded.
  case error

  /// The name the log writes and `--log-level` takes: `debug`, `info`, `notice`, `warning`, `error`.
  public var name: String {
    switch self {
    case .debug: "debug"
    case .info: "info"
    case .notice: "notice"
    case .warning: "warning"
    case .error: "error"
    }
  }

  /// The level called `name` (see ``name``); `nil` for any other text.
  public init?(name: String) {
    guard let level = Self.allCases.first(where: { $0.name == name }) else { return nil }
    self = level
  }

  /// The syslog priority of the level (`<7>` debug … `<3>` error), which the journal reads from a line's start.
  public var syslogPriority: Int {
    switch self {
    case .debug: 7
    case .info: 6
    case .notice: 5
    case .warning: 4
    case .error: 3
    }
  }

  public var description: String { name }

  public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}
