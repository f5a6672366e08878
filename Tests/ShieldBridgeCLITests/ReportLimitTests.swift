import Localization
import Model
import Testing

@testable import ShieldBridgeCLI

/// Issue 25, point 5: the report names each day's limit, which differs by weekday.
@Suite("report names the limit of each day")
struct ReportLimitTests {
  @Test("A limit by weekday: each day's line names its own, in one column; the plural forms of every catalog")
  func weekdays() throws {
    var rule = Rule(name: "social", apps: ["Instagram"])
    rule.dailyLimit = try DailyLimit(groups: [
      (try Weekdays(parsing: "mon-fri"), 5), (try Weekdays(parsing: "sat,sun"), 30),
    ])
    // 2026-11-23 is a Monday.
    let from = LocalDay("2026-11-23")!
    let to = LocalDay("2026-11-29")!
    // Recorded from the Monday on, without the meter's limit: each day has the one the configuration gives.
    var history = History()
    history.record(HistoryEntry(), for: "social", on: from)
    let report = HistoryReport(history: history, ledger: Ledger(), rules: RuleSet([rule]), from: from, to: to)
    #expect(report.days.map { $0.rules[0].limitSeconds } == [300, 300, 300, 300, 300, 1_800, 1_800])
    let lines = ReportText.lines(report, style: .ascii, localizer: .source)
    #expect(lines[1].hasPrefix("  2026-11-23  limit 5 minutes   "), "\(lines[1])")
    #expect(lines[6].hasPrefix("  2026-11-28  limit 30 minutes  "), "\(lines[6])")
    #expect(lines[7].hasSuffix("  0 minutes"))
    #expect(Localizer.source.render(.reportLimit(minutes: 1)) == "limit 1 minute")
  }
}
