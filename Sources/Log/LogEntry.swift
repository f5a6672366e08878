/// One thing to log: its level, the subsystem that says it, and the text.
///
/// The one place the format of a log line is written: ``line(program:)``
/// gives `shieldbridge serve: notice: meter: rule social reached today's limit`,
/// and ``description`` the same without the program and the level.
public struct LogEntry: Sendable, Hashable, CustomStringConvertible {
  public var level: LogLevel
  /// The part of the program that speaks, dotted from the general to the
  /// particular (`meter`, `desktop.i3`); empty for the program itself.
  public var subsystem: String
  /// The text, without a prefix: plain words, no line break.
  public var message: String

  public init(_ level: LogLevel, subsystem: String = "", _ message: String) {
    self.level = level
    self.subsystem = subsystem
    self.message = message
  }

  /// `subsystem: message`, or the message alone for the program itself.
  public var description: String {
    subsystem.isEmpty ? message : subsystem + ": " + message
  }

  /// The line the log writes: `program: level: subsystem: message`.
  ///
  /// No timestamp: the journal (or the browser's log, for the native host)
  /// stamps each line as it arrives, and a second stamp would only differ
  /// from it. The level is in the words, so that a line read anywhere says
  /// it, and the subsystem comes after it, so that a search for
  /// `meter: rule social` finds the line at every level.
  public func line(program: String) -> String {
    program + ": " + level.name + ": " + description
  }
}
