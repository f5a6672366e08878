import Brake
import JSON

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

  /// The whole report: per rule a heading, a line per day, and the summary lines.
  static func lines(_ report: HistoryReport, style: Style) -> [String] {
    var lines: [String] = []
    let count = report.days.count
    for (index, summary) in report.summaries.enumerated() {
      if index > 0 { lines.append("") }
      lines.append("\(summary.name): \(count == 1 ? "1 day" : "\(count) days"), \(report.from) to \(report.to)")
      let figures = report.days.map { $0.rules[index] }
      // One scale for the rule's days: the most used, or the farthest limit.
      let scale = max(1, figures.map { max($0.usedSeconds, $0.limitSeconds) }.max() ?? 1)
      for (day, rule) in zip(report.days, figures) {
        let bar = bar(usedSeconds: rule.usedSeconds, limitSeconds: rule.limitSeconds, scale: scale, style: style)
        lines.append("  \(day.date)  \(bar)  \(UsageText.duration(seconds: rule.usedSeconds))")
      }
      lines += summaryLines(summary, days: count)
    }
    if report.summaries.isEmpty { lines.append("no rules are configured: nothing is metered, and no history is kept") }
    return lines
  }

  /// The total and the average, the change, the busiest app, grants and tasks declined.
  static func summaryLines(_ summary: HistoryReport.RuleSummary, days: Int) -> [String] {
    var lines = [
      "  total \(UsageText.duration(seconds: summary.totalSeconds)), "
        + "on average \(UsageText.duration(seconds: summary.averageSeconds)) a day",
      "  " + change(seconds: summary.changeSeconds, days: days),
    ]
    if let app = summary.busiestApp {
      lines.append("  used most: \(app), \(UsageText.duration(seconds: summary.busiestAppSeconds))")
    }
    lines.append(
      "  \(counted(summary.grants, "grant", "grants")) taken, "
        + "\(counted(summary.tasksDeclined, "task", "tasks")) declined")
    return lines
  }

  /// "12 minutes a day less than the 7 days before", "about the same as the day before".
  ///
  /// The change is in whole minutes a day; under a minute is "about the same".
  static func change(seconds: Int, days: Int) -> String {
    let period = days == 1 ? "the day before" : "the \(days) days before"
    let minutes = abs(seconds) / 60
    guard minutes > 0 else { return "about the same as \(period)" }
    let amount = minutes >= 60 ? UsageText.duration(seconds: minutes * 60) : UsageText.minutes(minutes)
    return "\(amount) a day \(seconds < 0 ? "less" : "more") than \(period)"
  }

  /// "1 grant", "3 grants", "0 grants".
  static func counted(_ count: Int, _ one: String, _ many: String) -> String {
    "\(count) \(count == 1 ? one : many)"
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
  static func forgotten(days: Int, before: LocalDay) -> String {
    "forgot \(counted(days, "day", "days")) of history before \(before); today's use and grants are kept"
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
