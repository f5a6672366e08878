import Brake
import Localization
import NotificationMarkup

/// `report --html FILE`: one self-contained page (inline SVG and CSS, no
/// script, no network, no external font) with the days as bars stacked by
/// app or site, each day's limit as a line, and the same figures and texts as
/// the terminal report.
///
/// Every figure the picture shows is also in its attributes (`data-date`,
/// `data-used`, `data-limit` on a day, `data-app`, `data-seconds` on a part
/// of its bar), so a test reads the page a browser renders and compares it with `--json`.
enum ReportHTML {
  /// The height of the bars' area, in CSS pixels: the scale's seconds fill it.
  static let chartHeight = 200
  /// The width of one day's bar, and the gap after it.
  static let barWidth = 36
  static let gap = 14
  /// Above the bars (room for a limit line at the top) and below them (the dates).
  static let top = 10
  static let bottom = 44

  /// The colours of the apps, in the order of the rule's apps; time without a split is grey.
  static let palette = ["#3465a4", "#f57900", "#4e9a06", "#75507b", "#c4a000", "#06989a", "#a40000", "#5c3566"]
  static let unsplitColour = "#babdb6"

  static func page(_ report: HistoryReport, localizer: Localizer) -> String {
    let direction = localizer.isRightToLeft ? "rtl" : "ltr"
    var html = """
      <!DOCTYPE html>
      <html lang="\(escape(localizer.locale.identifier))" dir="\(direction)">
      <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <title>ShieldBridge \(escape(report.from.description)) – \(escape(report.to.description))</title>
      <style>
      body { font-family: sans-serif; margin: 24px; color: #2e3436; background: #ffffff; }
      section { margin-bottom: 32px; }
      h2 { font-size: 18px; font-weight: normal; margin: 0 0 8px; }
      svg text { font-family: sans-serif; font-size: 11px; fill: #2e3436; }
      .legend span { display: inline-block; margin-inline-end: 16px; font-size: 13px; }
      .legend i { display: inline-block; width: 12px; height: 12px; margin-inline-end: 4px; vertical-align: -1px; }
      table { border-collapse: collapse; font-size: 13px; margin-top: 8px; }
      td { padding: 2px 12px 2px 0; }
      ul { padding-inline-start: 18px; font-size: 14px; }
      </style>
      </head>
      <body>

      """
    let count = report.days.count
    for (index, summary) in report.summaries.enumerated() {
      let heading = localizer.render(
        .reportHeading(rule: summary.name, days: count, from: report.from.description, to: report.to.description))
      let figures = report.days.map { $0.rules[index] }
      html += "<section data-rule=\"\(escape(summary.name))\">\n<h2>\(escape(heading))</h2>\n"
      html += chart(report: report, figures: figures, title: heading)
      html += legend(figures.first?.apps.map(\.name) ?? [])
      html += "<table>\n"
      for (day, rule) in zip(report.days, figures) {
        html +=
          "<tr data-date=\"\(day.date)\"><td>\(day.date)</td>"
          + "<td>\(escape(localizer.render(.reportDay(minutes: ReportText.minutes(rule.usedSeconds)))))</td></tr>\n"
      }
      html += "</table>\n<ul>\n"
      for line in ReportText.summaryLines(summary, localizer: localizer) { html += "<li>\(escape(line))</li>\n" }
      html += "</ul>\n</section>\n"
    }
    if report.summaries.isEmpty { html += "<p>\(escape(localizer.render(.reportNoRules)))</p>\n" }
    html += "</body>\n</html>\n"
    return html
  }

  /// The seconds the full height of the chart stands for: the most used day, or the farthest limit.
  static func scale(_ figures: [HistoryReport.RuleDay]) -> Int {
    max(1, figures.map { max($0.usedSeconds, $0.limitSeconds) }.max() ?? 1)
  }

  private static func chart(report: HistoryReport, figures: [HistoryReport.RuleDay], title: String) -> String {
    let scale = scale(figures)
    let width = figures.count * (barWidth + gap) + gap
    let height = top + chartHeight + bottom
    let base = top + chartHeight
    func pixels(_ seconds: Int) -> Double { Double(seconds) * Double(chartHeight) / Double(scale) }
    var svg =
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" "
      + "viewBox=\"0 0 \(width) \(height)\" role=\"img\" aria-label=\"\(escape(title))\" data-scale=\"\(scale)\" "
      + "data-chart-top=\"\(top)\" data-chart-height=\"\(chartHeight)\">\n"
    svg += "<line x1=\"0\" y1=\"\(base)\" x2=\"\(width)\" y2=\"\(base)\" stroke=\"#888a85\" stroke-width=\"1\"/>\n"
    for (offset, (day, rule)) in zip(report.days, figures).enumerated() {
      let x = gap + offset * (barWidth + gap)
      svg +=
        "<g class=\"day\" data-date=\"\(day.date)\" data-used=\"\(rule.usedSeconds)\" "
        + "data-limit=\"\(rule.limitSeconds)\">\n"
      var stacked = 0
      var parts = rule.apps.enumerated().map { (colour: palette[$0.offset % palette.count], app: $0.element) }
      let unsplit = rule.usedSeconds - rule.apps.reduce(0) { $0 + $1.usedSeconds }
      if unsplit > 0 { parts.append((unsplitColour, HistoryReport.AppSeconds(name: "", usedSeconds: unsplit))) }
      for part in parts where part.app.usedSeconds > 0 {
        let y = Double(base) - pixels(stacked + part.app.usedSeconds)
        svg +=
          "<rect class=\"part\" data-app=\"\(escape(part.app.name))\" data-seconds=\"\(part.app.usedSeconds)\" "
          + "x=\"\(x)\" y=\"\(format(y))\" width=\"\(barWidth)\" height=\"\(format(pixels(part.app.usedSeconds)))\" "
          + "fill=\"\(part.colour)\"/>\n"
        stacked += part.app.usedSeconds
      }
      let limitY = Double(base) - pixels(rule.limitSeconds)
      svg +=
        "<line class=\"limit\" x1=\"\(x - 4)\" y1=\"\(format(limitY))\" x2=\"\(x + barWidth + 4)\" "
        + "y2=\"\(format(limitY))\" stroke=\"#cc0000\" stroke-width=\"2\"/>\n"
      let label = String(day.date.description.dropFirst(5))
      svg +=
        "<text x=\"\(x + barWidth / 2)\" y=\"\(base + 16)\" text-anchor=\"middle\">\(label)</text>\n"
        + "<text x=\"\(x + barWidth / 2)\" y=\"\(base + 32)\" text-anchor=\"middle\">"
        + "\(ReportText.minutes(rule.usedSeconds))′</text>\n</g>\n"
    }
    return svg + "</svg>\n"
  }

  private static func legend(_ apps: [String]) -> String {
    var html = "<div class=\"legend\">"
    for (index, app) in apps.enumerated() {
      html += "<span><i style=\"background:\(palette[index % palette.count])\"></i>\(escape(app))</span>"
    }
    return html + "</div>\n"
  }

  /// A coordinate with at most two decimals, so the page stays short and reads the same everywhere.
  static func format(_ value: Double) -> String {
    let hundredths = Int((value * 100).rounded())
    let whole = hundredths / 100
    let rest = abs(hundredths % 100)
    let sign = hundredths < 0 && whole == 0 ? "-" : ""
    return rest == 0 ? "\(sign)\(whole)" : "\(sign)\(whole).\(rest < 10 ? "0" : "")\(rest)"
  }

  /// `& < > " '` as character references (``NotificationMarkup/Markup/escape(_:)``).
  static func escape(_ text: String) -> String {
    Markup.escape(text)
  }
}
