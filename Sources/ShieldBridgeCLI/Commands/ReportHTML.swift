import Localization
import Model
import NotificationMarkup

/// `report --html FILE`: one self-contained page (inline SVG and CSS, no
/// script, no network, no external font) with the days as bars stacked by
/// app or site, each day's limit as a line, a legend of the colours and the
/// line, and the same figures and texts as the terminal report: each day's
/// time under its bar is written as the text writes it (`26 minutes`,
/// `under a minute`), and a day before the first record has no bar and no
/// limit line, only "no record".
///
/// Every figure the picture shows is also in its attributes (`data-date`,
/// `data-used`, `data-limit` and `data-recorded` on a day, `data-app`,
/// `data-seconds` on a part of its bar), so a test reads the page a browser
/// renders and compares it with `--json`.
enum ReportHTML {
  /// The height of the bars' area, in CSS pixels: the scale's seconds fill it.
  static let chartHeight = 200
  /// The width of one day's bar, and the least gap after it (a day's slot widens for its words).
  static let barWidth = 36
  static let gap = 14
  /// Above the bars (room for a limit line at the top), and below them the date's line.
  static let top = 10
  static let dateLine = 16
  /// The height of a line of the words under a bar, and the room left below the last.
  static let lineHeight = 13
  static let below = 8
  /// The widths the words of a label are reckoned at, in CSS pixels at the page's 11 px: a
  /// character of a Latin, Greek or Cyrillic script, and a wide one (CJK, kana, Hangul);
  /// more than a sans-serif font gives them, so that words never reach the next day.
  static let narrowWidth = 7
  static let wideWidth = 12

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
      let times = zip(report.days, figures).map { day, rule in
        day.isRecorded ? ReportText.dayTime(rule.usedSeconds, localizer: localizer) : localizer.render(.reportNoRecord)
      }
      html += "<section data-rule=\"\(escape(summary.name))\">\n<h2>\(escape(heading))</h2>\n"
      html += chart(report: report, rule: index, times: times, title: heading)
      let unsplit = zip(report.days, figures).contains { day, rule in
        day.isRecorded && rule.usedSeconds > rule.apps.reduce(0) { $0 + $1.usedSeconds }
      }
      html += legend(
        figures.first?.apps.map(\.name) ?? [], unsplit: unsplit ? localizer.render(.reportLegendUnsplit) : nil,
        limit: report.days.contains(where: \.isRecorded) ? localizer.render(.reportLegendLimit) : nil)
      html += "<table>\n"
      for (day, time) in zip(report.days, times) {
        html += "<tr data-date=\"\(day.date)\"><td>\(day.date)</td><td>\(escape(time))</td></tr>\n"
      }
      html += "</table>\n<ul>\n"
      for line in ReportText.summaryLines(summary, localizer: localizer) { html += "<li>\(escape(line))</li>\n" }
      html += "</ul>\n</section>\n"
    }
    if report.summaries.isEmpty { html += "<p>\(escape(localizer.render(.reportNoRules)))</p>\n" }
    html += "</body>\n</html>\n"
    return html
  }

  /// The reckoned width of `text` at the page's size (``narrowWidth``, ``wideWidth``).
  static func width(of text: some StringProtocol) -> Int {
    text.unicodeScalars.reduce(0) { sum, scalar in
      let wide =
        (0x1100...0x115F).contains(scalar.value) || (0x2E80...0xA4CF).contains(scalar.value)
        || (0xAC00...0xD7A3).contains(scalar.value) || (0xF900...0xFAFF).contains(scalar.value)
        || (0xFE30...0xFE4F).contains(scalar.value) || (0xFF00...0xFF60).contains(scalar.value)
      return sum + (wide ? wideWidth : narrowWidth)
    }
  }

  /// `text` in lines no wider than `width`, broken at spaces; a word wider than that is a line of its own.
  static func lines(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
      let joined = line.isEmpty ? String(word) : line + " " + word
      if line.isEmpty || self.width(of: joined) <= width {
        line = joined
      } else {
        lines.append(line)
        line = String(word)
      }
    }
    if !line.isEmpty { lines.append(line) }
    return lines
  }

  private static func chart(report: HistoryReport, rule index: Int, times: [String], title: String) -> String {
    let scale = ReportText.scale(report.days, rule: index)
    // A day's slot: the bar and its gap, or wider where a word of its label would not fit.
    let widest = times.flatMap { $0.split(separator: " ") }.map { Self.width(of: $0) }.max() ?? 0
    let slot = max(barWidth + gap, widest + 8)
    let labels: [[String]] = times.map { Self.lines($0, width: slot - 1) }
    let width = report.days.count * slot + gap
    let base = top + chartHeight
    let height = base + dateLine + (labels.map { $0.count }.max() ?? 1) * lineHeight + below
    func pixels(_ seconds: Int) -> Double { Double(seconds) * Double(chartHeight) / Double(scale) }
    var svg =
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" "
      + "viewBox=\"0 0 \(width) \(height)\" role=\"img\" aria-label=\"\(escape(title))\" data-scale=\"\(scale)\" "
      + "data-chart-top=\"\(top)\" data-chart-height=\"\(chartHeight)\">\n"
    svg += "<line x1=\"0\" y1=\"\(base)\" x2=\"\(width)\" y2=\"\(base)\" stroke=\"#888a85\" stroke-width=\"1\"/>\n"
    for (offset, day) in report.days.enumerated() {
      let rule = day.rules[index]
      let x = gap + offset * slot + (slot - gap - barWidth) / 2
      let middle = x + barWidth / 2
      svg +=
        "<g class=\"day\" data-date=\"\(day.date)\" data-recorded=\"\(day.isRecorded)\" "
        + "data-used=\"\(rule.usedSeconds)\" data-limit=\"\(rule.limitSeconds)\">\n"
      let label = String(day.date.description.dropFirst(5))
      svg += "<text class=\"date\" x=\"\(middle)\" y=\"\(base + 16)\" text-anchor=\"middle\">\(label)</text>\n"
      svg += "<text class=\"time\" x=\"\(middle)\" y=\"\(base + dateLine + lineHeight + 3)\" text-anchor=\"middle\">"
      for (number, line) in labels[offset].enumerated() {
        svg += "<tspan x=\"\(middle)\" dy=\"\(number == 0 ? 0 : lineHeight)\">\(escape(line))</tspan>"
      }
      svg += "</text>\n"
      // Before the first record: no bar and no limit line, as none was in force.
      guard day.isRecorded else {
        svg += "</g>\n"
        continue
      }
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
        + "y2=\"\(format(limitY))\" stroke=\"\(limitColour)\" stroke-width=\"2\"/>\n</g>\n"
    }
    return svg + "</svg>\n"
  }

  /// The colour of the limit lines.
  static let limitColour = "#cc0000"

  /// The apps' colours, then the grey of time without a split (where there is such time) and the limit's line.
  private static func legend(_ apps: [String], unsplit: String?, limit: String?) -> String {
    var html = "<div class=\"legend\">"
    for (index, app) in apps.enumerated() {
      html += "<span><i style=\"background:\(palette[index % palette.count])\"></i>\(escape(app))</span>"
    }
    if let unsplit {
      html += "<span class=\"unsplit\"><i style=\"background:\(unsplitColour)\"></i>\(escape(unsplit))</span>"
    }
    if let limit {
      html +=
        "<span class=\"limit\"><i style=\"background:\(limitColour);height:2px;vertical-align:3px\"></i>"
        + "\(escape(limit))</span>"
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
