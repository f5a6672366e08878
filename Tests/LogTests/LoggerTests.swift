import Log
import Testing

@Suite("A logger writes what its threshold lets through, each line saying its level and subsystem")
struct LoggerTests {
  /// A logger at `threshold` whose entries `collector` keeps.
  private static func collecting(_ threshold: LogLevel, subsystem: String = "") -> (Logger, LogCollector) {
    let collector = LogCollector()
    return (Logger(subsystem: subsystem, threshold: threshold, sink: .collecting(collector)), collector)
  }

  @Test("The levels are ordered from debug to error, and each one's name reads back", arguments: LogLevel.allCases)
  func levelsAreOrderedAndNamed(level: LogLevel) {
    #expect(LogLevel(name: level.name) == level)
    #expect(LogLevel.allCases.filter { $0 < level }.count == level.rawValue)
    #expect(LogLevel.debug < .info && .info < .notice && .notice < LogLevel.warning && LogLevel.warning < .error)
  }

  @Test("A name that is no level is refused, in any case but the written one", arguments: ["", "Info", "warn", "err"])
  func otherNamesAreNoLevel(name: String) {
    #expect(LogLevel(name: name) == nil)
  }

  @Test("The threshold and every level above it are written; those below are dropped", arguments: LogLevel.allCases)
  func levelsBelowTheThresholdAreDropped(threshold: LogLevel) {
    let (logger, collector) = Self.collecting(threshold)
    logger.debug("d")
    logger.info("i")
    logger.notice("n")
    logger.warning("w")
    logger.error("e")
    #expect(collector.entries.map(\.level) == LogLevel.allCases.filter { $0 >= threshold })
    #expect(collector.entries.map(\.message) == ["d", "i", "n", "w", "e"].suffix(5 - threshold.rawValue))
  }

  @Test func aDroppedMessageIsNotEvenMade() {
    let (logger, collector) = Self.collecting(.notice)
    var made = 0
    func text() -> String {
      made += 1
      return "made"
    }
    logger.info(text())
    #expect(made == 0)
    logger.notice(text())
    #expect(made == 1)
    #expect(collector.entries.count == 1)
  }

  @Test func theLineSaysTheProgramTheLevelTheSubsystemAndTheMessage() {
    let entry = LogEntry(.warning, subsystem: "meter", "rule social: x11 cannot hide")
    #expect(
      entry.line(program: "shieldbridge serve") == "shieldbridge serve: warning: meter: rule social: x11 cannot hide")
    #expect(entry.description == "meter: rule social: x11 cannot hide")
    // The program's own lines have no subsystem part.
    #expect(LogEntry(.info, "stopped").line(program: "shieldbridge serve") == "shieldbridge serve: info: stopped")
  }

  @Test func theLinesSinkWritesTheOneFormatOnceAnEntry() {
    let lines = LinesCollector()
    let logger = Logger(threshold: .debug, sink: .lines(program: "shieldbridge native-host") { lines.append($0) })
    logger.notice("started for chrome-extension://abc/")
    logger.for("sites").debug("a host left the bus")
    #expect(
      lines.lines == [
        "shieldbridge native-host: notice: started for chrome-extension://abc/",
        "shieldbridge native-host: debug: sites: a host left the bus",
      ])
  }

  @Test("A child logger speaks for its subsystem under its parent's, with the parent's threshold and sink")
  func childLoggers() {
    let (root, collector) = Self.collecting(.notice)
    let meter = root.for("meter")
    let i3 = root.for("desktop").for("i3")
    #expect(meter.subsystem == "meter")
    #expect(i3.subsystem == "desktop.i3")
    #expect(i3.threshold == .notice)
    meter.notice("rule social reached today's limit")
    i3.info("dropped, as the root would drop it")
    i3.warning("the i3 desktop was lost")
    root.error("cannot emit Unlocked")
    #expect(
      collector.entries == [
        LogEntry(.notice, subsystem: "meter", "rule social reached today's limit"),
        LogEntry(.warning, subsystem: "desktop.i3", "the i3 desktop was lost"),
        LogEntry(.error, "cannot emit Unlocked"),
      ])
    // An empty name adds nothing.
    #expect(root.for("").subsystem == "" && meter.for("").subsystem == "meter")
  }

  @Test("An entry prepared elsewhere goes under the logger's subsystem and through its threshold")
  func preparedEntries() {
    let (logger, collector) = Self.collecting(.info, subsystem: "service")
    logger.log(LogEntry(.notice, subsystem: "meter", "a new day"))
    logger.log(LogEntry(.debug, subsystem: "meter", "dropped"))
    logger.log(LogEntry(.warning, "said by the service itself"))
    #expect(
      collector.entries == [
        LogEntry(.notice, subsystem: "service.meter", "a new day"),
        LogEntry(.warning, subsystem: "service", "said by the service itself"),
      ])
  }
}

/// Lines a ``LogSink/lines(program:_:)`` sink wrote, in order.
private final class LinesCollector: Sendable {
  private let collector = LogCollector()
  func append(_ line: String) { collector.append(LogEntry(.info, line)) }
  var lines: [String] { collector.entries.map(\.message) }
}
