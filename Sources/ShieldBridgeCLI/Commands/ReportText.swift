import JSON
import Localization
import Model

/// How `shieldbridge report` writes its figures: pure functions of a
/// ``HistoryReport``, so that the wording and the bars are tested without files.
enum ReportText {
  /// Unicode blocks (eighths of a cell) and a box line for the limit, or plain ASCII.
  enum Style: Sendable {
    case blocks
    case ascii
  }

  /// How many cells the longest bar (or the farthest limit) takes.
  static let barWidth = 30

  /// Whether the locale's character set is UTF-8: the first of `LC_ALL`,
  /// `LC_CTYPE` and `LANG` that is set names it (`de_DE.UTF-8`, `C.utf8`);
  /// none set, or another codeset, is not.
  static func isUTF8(environment: [String: String]) -> Bool {
    for name in ["LC_ALL", "LC_CTYPE", "LANG"] {
      guard let value = environment[name], !value.isEmpty else { continue }
      guard let dot = value.firstIndex(of: ".") else { return false }
      let codeset = value[value.index(after: dot)...].prefix { $0 != "@" }.lowercased()
      return codeset == "utf-8" || codeset == "utf8"
    }
    return false
  }

  /// The whole report in `localizer`'s language: per rule a heading, a line per day, and the summary lines.
  ///
  /// A day before the first record is its date and "no record": no bar and
  /// no limit, as no limit was in force before ShieldBridge counted.
  static func lines(_ report: HistoryReport, style: Style, localizer: Localizer) -> [String] {
    var lines: [String] = []
    let count = report.days.count
    let noRecord = localizer.render(.reportNoRecord)
    for (index, summary) in report.summaries.enumerated() {
      if index > 0 { lines.append("") }
      lines.append(
        localizer.render(
          .reportHeading(rule: summary.name, days: count, from: report.from.description, to: report.to.description)))
      let figures = report.days.map { $0.rules[index] }
      // One scale for the rule's days: the most used, or the farthest limit.
      let scale = scale(report.days, rule: index)
      // Each day's own limit (it differs by weekday and with the grants), padded to one column. A long
      // report repeats its bars, limits and minutes: each is drawn and rendered once.
      var bars: [BarCells: String] = [:]
      var dayTexts: [Int: String] = [:]
      var limitTexts: [Int: String] = [:]
      let limits = zip(report.days, figures).map { day, rule -> String in
        guard day.isRecorded else { return "" }
        let limit = minutes(rule.limitSeconds)
        let text = limitTexts[limit] ?? localizer.render(.reportLimit(minutes: limit))
        limitTexts[limit] = text
        return text
      }
      let width = limits.map(\.count).max() ?? 0
      for ((day, rule), limit) in zip(zip(report.days, figures), limits) {
        guard day.isRecorded else {
          lines.append("  \(day.date)  \(noRecord)")
          continue
        }
        let cells = BarCells(usedSeconds: rule.usedSeconds, limitSeconds: rule.limitSeconds, scale: scale)
        let bar = bars[cells] ?? cells.drawn(style: style)
        bars[cells] = bar
        // Keyed by the seconds under a minute, by the minutes from one on.
        let key = rule.usedSeconds < 60 ? -rule.usedSeconds : minutes(rule.usedSeconds)
        let text = dayTexts[key] ?? dayTime(rule.usedSeconds, localizer: localizer)
        dayTexts[key] = text
        let padded = limit + String(repeating: " ", count: width - limit.count)
        lines.append("  \(day.date)  \(padded)  \(bar)  \(text)")
      }
      lines += summaryLines(summary, localizer: localizer).map { "  " + $0 }
    }
    if report.summaries.isEmpty { lines.append(localizer.render(.reportNoRules)) }
    return lines
  }

  /// The seconds the longest bar stands for: the most used day, or the farthest limit, of the days on record.
  static func scale(_ days: [HistoryReport.Day], rule index: Int) -> Int {
    max(1, days.map { $0.isRecorded ? max($0.rules[index].usedSeconds, $0.rules[index].limitSeconds) : 0 }.max() ?? 1)
  }

  /// Whole minutes, to the nearest.
  static func minutes(_ seconds: Int) -> Int {
    ProductMessage.minutes(seconds)
  }

  /// A day's time as the text and the page write it: `26 minutes`, `under a minute`, `0 minutes`.
  static func dayTime(_ seconds: Int, localizer: Localizer) -> String {
    localizer.render(ProductMessage.time(seconds, as: .day))
  }

  /// The total and the average, the change, the busiest app, grants and tasks declined.
  ///
  /// The average is over the days on record, and the change is said only
  /// where both periods have days on record: without one there is nothing
  /// to average or compare, and neither line is said.
  static func summaryLines(_ summary: HistoryReport.RuleSummary, localizer: Localizer) -> [String] {
    var lines = [localizer.render(ProductMessage.time(summary.totalSeconds, as: .total))]
    if summary.recordedDays > 0 {
      lines.append(localizer.render(ProductMessage.time(summary.averageSeconds, as: .average)))
    }
    if let change = summary.changeSeconds { lines.append(localizer.render(self.change(seconds: change))) }
    if let app = summary.busiestApp {
      lines.append(localizer.render(ProductMessage.time(summary.busiestAppSeconds, as: .busiest(app: app))))
    }
    lines.append(localizer.render(.reportGrants(count: summary.grants)))
    lines.append(localizer.render(.reportDeclined(count: summary.tasksDeclined)))
    return lines
  }

  /// The change from the period before in whole minutes a day: less, more,
  /// or, under a minute, about the same.
  static func change(seconds: Int) -> ProductMessage {
    ProductMessage.change(seconds: seconds)
  }

  /// A bar of `usedSeconds` on `scale` seconds in ``barWidth`` cells, with
  /// the limit marked (`│`, or `|` in ASCII) at its place.
  ///
  /// Blocks draw eighths of a cell; ASCII draws `#` for whole cells and
  /// rounds up a part, so any use at all shows. Beyond the limit the bar goes on.
  static func bar(usedSeconds: Int, limitSeconds: Int, scale: Int, style: Style, width: Int = barWidth) -> String {
    BarCells(usedSeconds: usedSeconds, limitSeconds: limitSeconds, scale: scale, width: width).drawn(style: style)
  }

  /// What a bar shows: its length in eighths of a cell and the cell of the limit's mark.
  struct BarCells: Hashable {
    var eighths: Int
    var limitCell: Int
    var width: Int

    init(usedSeconds: Int, limitSeconds: Int, scale: Int, width: Int = barWidth) {
      let scale = max(1, scale)
      eighths = min(width * 8, (max(0, usedSeconds) * width * 8 + scale - 1) / scale)
      // The mark takes the cell where the limit falls (over the bar, where it reaches that far).
      limitCell = min(width, max(0, limitSeconds) * width / scale)
      self.width = width
    }

    func drawn(style: Style) -> String {
      var cells: [String] = []
      switch style {
      case .blocks:
        let partial = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]
        cells = Array(repeating: "█", count: eighths / 8)
        if eighths % 8 > 0 { cells.append(partial[eighths % 8]) }
      case .ascii:
        cells = Array(repeating: "#", count: (eighths + 7) / 8)
      }
      cells += Array(repeating: " ", count: width - cells.count)
      let mark = style == .blocks ? "│" : "|"
      if limitCell >= width { cells.append(mark) } else { cells[limitCell] = mark }
      return cells.joined()
    }
  }

  /// What `--forget` says it did.
  static func forgotten(days: Int, before: LocalDay, localizer: Localizer) -> String {
    localizer.render(.reportForgotten(days: days, date: before.description))
  }
}

/// `report --json`: every figure, keys documented in docs/using/report.md.
enum ReportJSON {
  /// Writes the report as one line of JSON, newline included, handing it to
  /// `output` in pieces of about 64 KiB: a year of 100 rules is 9 MB of it,
  /// which is then never held (nor its pages touched) at once.
  static func write(_ table: HistoryReport.Table, to output: (UnsafeBufferPointer<UInt8>) -> Void) {
    let header = Header(
      from: table.from, to: table.to, summaries: table.summaries, totalSeconds: table.totalSeconds,
      recordedDays: table.recordedDays, averageSeconds: table.averageSeconds,
      previousAverageSeconds: table.previousAverageSeconds)
    let names = table.names
    let appNames = table.appNames
    let recorded = table.dates.map(table.isRecorded)
    write(header, days: table.dates, recorded: recorded, to: output) { day, writer in
      for rule in names.indices {
        write(
          name: names[rule], table.figures(day: day, rule: rule), recorded: recorded[day], apps: appNames[rule],
          seconds: table.appSeconds(day: day, rule: rule), to: &writer)
      }
    }
  }

  /// The same from the report's days.
  static func write(_ report: HistoryReport, to output: (UnsafeBufferPointer<UInt8>) -> Void) {
    let header = Header(
      from: report.from, to: report.to, summaries: report.summaries, totalSeconds: report.totalSeconds,
      recordedDays: report.recordedDays, averageSeconds: report.averageSeconds,
      previousAverageSeconds: report.previousAverageSeconds)
    let recorded = report.days.map(\.isRecorded)
    write(header, days: report.days.map(\.date), recorded: recorded, to: output) { day, writer in
      for rule in report.days[day].rules {
        let figures = HistoryReport.Table.Figures(
          usedSeconds: rule.usedSeconds, limitSeconds: rule.limitSeconds, grants: rule.grants,
          shieldsShown: rule.shieldsShown, tasksAsked: rule.tasksAsked, tasksSolved: rule.tasksSolved,
          backedOut: rule.backedOut)
        write(
          name: rule.name, figures, recorded: recorded[day], apps: rule.apps.map(\.name),
          seconds: rule.apps.map(\.usedSeconds)[...], to: &writer)
      }
    }
  }

  /// The report as a value: what `write(_:to:)` writes, read back (for tests).
  static func json(_ report: HistoryReport) -> JSONValue {
    var bytes: [UInt8] = []
    write(report) { bytes.append(contentsOf: $0) }
    // Written by JSONWriter just now: always valid JSON.
    return (try? JSONValue(parsing: bytes)) ?? .null
  }

  /// What the JSON holds besides its days.
  private struct Header {
    var from: LocalDay
    var to: LocalDay
    var summaries: [HistoryReport.RuleSummary]
    var totalSeconds: Int
    var recordedDays: Int
    var averageSeconds: Int
    var previousAverageSeconds: Int?
  }

  /// Writes the report, each day's rules by `rules` (given the day's place in `days`).
  private static func write(
    _ report: Header, days: [LocalDay], recorded: [Bool], to output: (UnsafeBufferPointer<UInt8>) -> Void,
    rules: (Int, inout JSONWriter) -> Void
  ) {
    var writer = JSONWriter(capacity: 80 << 10)
    writer.beginObject()
    writer.key("from")
    writer.string(report.from.description)
    writer.key("to")
    writer.string(report.to.description)
    writer.key("days")
    writer.beginArray()
    for (index, date) in days.enumerated() {
      writer.beginObject()
      writer.key("date")
      writer.string(date.description)
      writer.key("recorded")
      writer.bool(recorded[index])
      writer.key("rules")
      writer.beginArray()
      rules(index, &writer)
      writer.endArray()
      writer.endObject()
      if writer.count >= 64 << 10 {
        writer.withBytes(output)
        writer.removeWrittenBytes()
      }
    }
    writer.endArray()
    writer.key("summary")
    writer.beginArray()
    for summary in report.summaries {
      writer.beginObject()
      writer.key("name")
      writer.string(summary.name)
      writer.key("totalSeconds")
      writer.integer(summary.totalSeconds)
      writer.key("recordedDays")
      writer.integer(summary.recordedDays)
      writer.key("averageSeconds")
      writer.integer(summary.averageSeconds)
      writer.key("previousRecordedDays")
      writer.integer(summary.previousRecordedDays)
      writer.key("previousAverageSeconds")
      optional(summary.previousAverageSeconds, to: &writer)
      writer.key("changeSeconds")
      optional(summary.changeSeconds, to: &writer)
      writer.key("busiestApp")
      writer.string(summary.busiestApp)
      writer.key("busiestAppSeconds")
      writer.integer(summary.busiestAppSeconds)
      writer.key("grants")
      writer.integer(summary.grants)
      writer.key("shieldsShown")
      writer.integer(summary.shieldsShown)
      writer.key("tasksDeclined")
      writer.integer(summary.tasksDeclined)
      writer.key("backedOut")
      writer.integer(summary.backedOut)
      writer.endObject()
    }
    writer.endArray()
    writer.key("totalSeconds")
    writer.integer(report.totalSeconds)
    writer.key("recordedDays")
    writer.integer(report.recordedDays)
    writer.key("averageSeconds")
    writer.integer(report.averageSeconds)
    writer.key("previousAverageSeconds")
    optional(report.previousAverageSeconds, to: &writer)
    writer.endObject()
    writer.newline()
    writer.withBytes(output)
  }

  /// A number, or `null` for none.
  private static func optional(_ value: Int?, to writer: inout JSONWriter) {
    if let value { writer.integer(value) } else { writer.null() }
  }

  /// One rule on one day; a day before the first record has no `limitSeconds` (none was in force).
  private static func write(
    name: String, _ rule: HistoryReport.Table.Figures, recorded: Bool, apps: [String], seconds: ArraySlice<Int>,
    to writer: inout JSONWriter
  ) {
    writer.beginObject()
    writer.key("name")
    writer.string(name)
    writer.key("usedSeconds")
    writer.integer(rule.usedSeconds)
    if recorded {
      writer.key("limitSeconds")
      writer.integer(rule.limitSeconds)
    }
    writer.key("grants")
    writer.integer(rule.grants)
    writer.key("apps")
    writer.beginArray()
    for (name, seconds) in zip(apps, seconds) {
      writer.beginObject()
      writer.key("name")
      writer.string(name)
      writer.key("usedSeconds")
      writer.integer(seconds)
      writer.endObject()
    }
    writer.endArray()
    writer.key("shieldsShown")
    writer.integer(rule.shieldsShown)
    writer.key("tasksAsked")
    writer.integer(rule.tasksAsked)
    writer.key("tasksSolved")
    writer.integer(rule.tasksSolved)
    writer.key("backedOut")
    writer.integer(rule.backedOut)
    writer.endObject()
  }
}
