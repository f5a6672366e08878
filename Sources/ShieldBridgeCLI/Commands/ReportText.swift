import Brake
import JSON
import Localization

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
  static func lines(_ report: HistoryReport, style: Style, localizer: Localizer) -> [String] {
    var lines: [String] = []
    let count = report.days.count
    for (index, summary) in report.summaries.enumerated() {
      if index > 0 { lines.append("") }
      lines.append(
        localizer.render(
          .reportHeading(rule: summary.name, days: count, from: report.from.description, to: report.to.description)))
      let figures = report.days.map { $0.rules[index] }
      // One scale for the rule's days: the most used, or the farthest limit.
      let scale = max(1, figures.map { max($0.usedSeconds, $0.limitSeconds) }.max() ?? 1)
      // Each day's own limit (it differs by weekday and with the grants), padded to one column.
      let limits = figures.map { localizer.render(.reportLimit(minutes: minutes($0.limitSeconds))) }
      let width = limits.map(\.count).max() ?? 0
      for ((day, rule), limit) in zip(zip(report.days, figures), limits) {
        let bar = bar(usedSeconds: rule.usedSeconds, limitSeconds: rule.limitSeconds, scale: scale, style: style)
        let padded = limit + String(repeating: " ", count: width - limit.count)
        lines.append(
          "  \(day.date)  \(padded)  \(bar)  \(localizer.render(.reportDay(minutes: minutes(rule.usedSeconds))))")
      }
      lines += summaryLines(summary, localizer: localizer).map { "  " + $0 }
    }
    if report.summaries.isEmpty { lines.append(localizer.render(.reportNoRules)) }
    return lines
  }

  /// Whole minutes, to the nearest.
  static func minutes(_ seconds: Int) -> Int {
    (max(0, seconds) + 30) / 60
  }

  /// The total and the average, the change, the busiest app, grants and tasks declined.
  static func summaryLines(_ summary: HistoryReport.RuleSummary, localizer: Localizer) -> [String] {
    var lines = [
      localizer.render(.reportTotal(minutes: minutes(summary.totalSeconds))),
      localizer.render(.reportAverage(minutes: minutes(summary.averageSeconds))),
      localizer.render(change(seconds: summary.changeSeconds)),
    ]
    if let app = summary.busiestApp {
      lines.append(localizer.render(.reportBusiest(app: app, minutes: minutes(summary.busiestAppSeconds))))
    }
    lines.append(localizer.render(.reportGrants(count: summary.grants)))
    lines.append(localizer.render(.reportDeclined(count: summary.tasksDeclined)))
    return lines
  }

  /// The change from the period before in whole minutes a day: less, more,
  /// or, under a minute, about the same.
  static func change(seconds: Int) -> ProductMessage {
    let minutes = abs(seconds) / 60
    guard minutes > 0 else { return .reportSame }
    return seconds < 0 ? .reportLess(minutes: minutes) : .reportMore(minutes: minutes)
  }

  /// A bar of `usedSeconds` on `scale` seconds in ``barWidth`` cells, with
  /// the limit marked (`│`, or `|` in ASCII) at its place.
  ///
  /// Blocks draw eighths of a cell; ASCII draws `#` for whole cells and
  /// rounds up a part, so any use at all shows. Beyond the limit the bar goes on.
  static func bar(usedSeconds: Int, limitSeconds: Int, scale: Int, style: Style, width: Int = barWidth) -> String {
    let scale = max(1, scale)
    let eighths = min(width * 8, (max(0, usedSeconds) * width * 8 + scale - 1) / scale)
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
    // The mark takes the cell where the limit falls (over the bar, where it reaches that far).
    let limitCell = min(width, max(0, limitSeconds) * width / scale)
    let mark = style == .blocks ? "│" : "|"
    if limitCell >= width { cells.append(mark) } else { cells[limitCell] = mark }
    return cells.joined()
  }

  /// What `--forget` says it did.
  static func forgotten(days: Int, before: LocalDay, localizer: Localizer) -> String {
    localizer.render(.reportForgotten(days: days, date: before.description))
  }
}

/// `report --json`: every figure, keys documented in docs/report.md.
enum ReportJSON {
  static func json(_ report: HistoryReport) -> JSONValue {
    let days = report.days.map { day -> JSONValue in
      .object([
        ("date", .string(day.date.description)),
        ("rules", .array(day.rules.map(rule))),
      ])
    }
    let rules = report.summaries.map { summary -> JSONValue in
      .object([
        ("name", .string(summary.name)), ("totalSeconds", .int(summary.totalSeconds)),
        ("averageSeconds", .int(summary.averageSeconds)),
        ("previousAverageSeconds", .int(summary.previousAverageSeconds)),
        ("changeSeconds", .int(summary.changeSeconds)),
        ("busiestApp", summary.busiestApp.map { .string($0) } ?? .null),
        ("busiestAppSeconds", .int(summary.busiestAppSeconds)), ("grants", .int(summary.grants)),
        ("shieldsShown", .int(summary.shieldsShown)), ("tasksDeclined", .int(summary.tasksDeclined)),
        ("backedOut", .int(summary.backedOut)),
      ])
    }
    return .object([
      ("from", .string(report.from.description)), ("to", .string(report.to.description)),
      ("days", .array(days)), ("summary", .array(rules)),
      ("totalSeconds", .int(report.totalSeconds)), ("averageSeconds", .int(report.averageSeconds)),
      ("previousAverageSeconds", .int(report.previousAverageSeconds)),
    ])
  }

  private static func rule(_ rule: HistoryReport.RuleDay) -> JSONValue {
    .object([
      ("name", .string(rule.name)), ("usedSeconds", .int(rule.usedSeconds)),
      ("limitSeconds", .int(rule.limitSeconds)), ("grants", .int(rule.grants)),
      ("apps", .array(rule.apps.map { .object([("name", .string($0.name)), ("usedSeconds", .int($0.usedSeconds))]) })),
      ("shieldsShown", .int(rule.shieldsShown)), ("tasksAsked", .int(rule.tasksAsked)),
      ("tasksSolved", .int(rule.tasksSolved)), ("backedOut", .int(rule.backedOut)),
    ])
  }
}
