import JSON
import Localization
import Model
import Testing

@testable import ShieldBridgeCLI

@Suite("report writes bars to scale, the limit marked, and the change in plain words")
struct ReportTextTests {
  let social = Rule(name: "social", apps: ["Instagram", "TikTok"], dailyLimitMinutes: 10)
  let today = LocalDay("2026-11-29")!

  func history(_ entries: [(Int, HistoryEntry)]) -> History {
    var history = History()
    for (offset, entry) in entries { history.record(entry, for: "social", on: today.adding(days: offset)!) }
    return history
  }

  @Test("A bar is drawn to scale in eighths, with the limit marked where it falls")
  func bars() {
    #expect(ReportText.bar(usedSeconds: 300, limitSeconds: 600, scale: 1_200, style: .ascii, width: 8) == "##  |   ")
    #expect(ReportText.bar(usedSeconds: 1_200, limitSeconds: 600, scale: 1_200, style: .ascii, width: 8) == "####|###")
    #expect(ReportText.bar(usedSeconds: 0, limitSeconds: 1_200, scale: 1_200, style: .ascii, width: 4) == "    |")
    #expect(ReportText.bar(usedSeconds: 1, limitSeconds: 1_200, scale: 1_200, style: .ascii, width: 4) == "#   |")
    #expect(ReportText.bar(usedSeconds: 150, limitSeconds: 1_200, scale: 1_200, style: .blocks, width: 4) == "▌   │")
    #expect(ReportText.bar(usedSeconds: 450, limitSeconds: 1_200, scale: 1_200, style: .blocks, width: 4) == "█▌  │")
  }

  @Test("UTF-8 comes from the first of LC_ALL, LC_CTYPE and LANG that is set")
  func locale() {
    #expect(ReportText.isUTF8(environment: ["LANG": "de_DE.UTF-8"]))
    #expect(ReportText.isUTF8(environment: ["LC_CTYPE": "C.utf8", "LANG": "C"]))
    #expect(!ReportText.isUTF8(environment: ["LC_ALL": "C", "LANG": "de_DE.UTF-8"]))
    #expect(!ReportText.isUTF8(environment: ["LANG": "de_DE.ISO-8859-1"]))
    #expect(!ReportText.isUTF8(environment: [:]))
    #expect(ReportText.isUTF8(environment: ["LC_ALL": "", "LANG": "sr_RS.UTF-8@latin"]))
  }

  @Test("The change is said in whole minutes a day, less or more, or about the same")
  func change() {
    let english = Localizer.source
    #expect(english.render(ReportText.change(seconds: -720)) == "12 minutes a day less than the period before")
    #expect(english.render(ReportText.change(seconds: 60)) == "1 minute a day more than the period before")
    #expect(english.render(ReportText.change(seconds: 59)) == "About the same as the period before")
    #expect(english.render(ReportText.change(seconds: -7_260)) == "121 minutes a day less than the period before")
  }

  @Test("The report's days, totals, change, busiest app and grants agree with its JSON")
  func textAndJSON() throws {
    let stored = history([
      (-8, HistoryEntry(usedSeconds: 1_400)),
      (-1, HistoryEntry(usedSeconds: 900, apps: ["Instagram": 600, "TikTok": 300], limitSeconds: 900, grants: 1)),
      (0, HistoryEntry(usedSeconds: 120, apps: ["TikTok": 120], limitSeconds: 600, tasksAsked: 2, tasksSolved: 0)),
    ])
    var ledger = Ledger()
    // Today's use since the service's last save: the ledger's larger count wins.
    ledger.recordUsedSeconds(180, for: "social", on: today)
    let report = HistoryReport(
      history: stored, ledger: ledger, rules: RuleSet([social]), from: today.adding(days: -6)!, to: today)
    #expect(report.days.count == 7)
    #expect(report.days.first?.date == today.adding(days: -6))
    #expect(report.days.last?.rules.first?.usedSeconds == 180)
    #expect(
      report.days.last?.rules.first?.apps == [
        .init(name: "Instagram", usedSeconds: 0), .init(name: "TikTok", usedSeconds: 120),
      ])
    // A day the meter did not record: the limit the configuration gives.
    #expect(report.days.first?.rules.first?.limitSeconds == 600)
    let summary = try #require(report.summaries.first)
    #expect(summary.totalSeconds == 1_080)
    #expect(summary.averageSeconds == 1_080 / 7)
    // The period before is on record from its sixth day (the history's first, -8) on: two days.
    #expect(summary.previousRecordedDays == 2)
    #expect(summary.previousAverageSeconds == 1_400 / 2)
    #expect(summary.busiestApp == "Instagram")
    #expect(summary.grants == 1)
    #expect(summary.tasksDeclined == 2)

    let lines = ReportText.lines(report, style: .ascii, localizer: .source)
    #expect(lines.first == "social: 7 days, 2026-11-23 to 2026-11-29")
    #expect(lines[7].hasPrefix("  2026-11-29  ") && lines[7].hasSuffix("  3 minutes"))
    #expect(lines[6].hasSuffix("  15 minutes"))
    #expect(lines.contains("  Total: 18 minutes"))
    #expect(lines.contains("  On average 3 minutes a day"))
    #expect(lines.contains("  9 minutes a day less than the period before"))
    #expect(lines.contains("  Used most: Instagram, 10 minutes"))
    #expect(lines.contains("  1 grant taken"))
    #expect(lines.contains("  2 tasks declined"))

    let json = ReportJSON.json(report)
    #expect(json["days"]?.arrayValue?.count == 7)
    let last = json["days"]?.arrayValue?.last
    #expect(last?["date"]?.stringValue == "2026-11-29")
    let rule = last?["rules"]?.arrayValue?.first
    #expect(rule?["name"]?.stringValue == "social")
    #expect(rule?["usedSeconds"]?.integerValue == 180)
    #expect(rule?["limitSeconds"]?.integerValue == 600)
    #expect(rule?["apps"]?.arrayValue?.count == 2)
    #expect(json["summary"]?.arrayValue?.first?["busiestApp"]?.stringValue == "Instagram")
    #expect(json["totalSeconds"]?.integerValue == 1_080)
  }

  /// Issue 33's ninth point: the week of a new install.
  @Test("Days before the first record are no days: no limit, no bar, not in the average, nothing to compare")
  func daysBeforeTheFirstRecord() throws {
    // Installed today: 3 minutes of use, the limit the meter had in force.
    let stored = history([(0, HistoryEntry(usedSeconds: 180, apps: ["Instagram": 180], limitSeconds: 600))])
    let report = HistoryReport(
      history: stored, ledger: Ledger(), rules: RuleSet([social]), from: today.adding(days: -6)!, to: today)
    #expect(report.days.map(\.isRecorded) == [false, false, false, false, false, false, true])
    #expect(report.days.map { $0.rules[0].limitSeconds } == [0, 0, 0, 0, 0, 0, 600])
    let summary = try #require(report.summaries.first)
    #expect(summary.recordedDays == 1 && summary.averageSeconds == 180)
    #expect(summary.previousRecordedDays == 0 && summary.previousAverageSeconds == nil && summary.changeSeconds == nil)

    let lines = ReportText.lines(report, style: .ascii, localizer: .source)
    #expect(lines[1] == "  2026-11-23  no record")
    #expect(lines[6] == "  2026-11-28  no record")
    #expect(lines[7].hasPrefix("  2026-11-29  limit 10 minutes  ") && lines[7].hasSuffix("  3 minutes"))
    #expect(lines.contains("  On average 3 minutes a day"), "\(lines)")
    #expect(!lines.contains { $0.contains("period before") }, "\(lines)")
    // The bar of the one day is drawn to its own scale: the limit's mark at the end.
    #expect(lines[7].contains("|"))

    let json = ReportJSON.json(report)
    let days = try #require(json["days"]?.arrayValue)
    #expect(days.map { $0["recorded"]?.boolValue } == [false, false, false, false, false, false, true])
    #expect(days[0]["rules"]?.arrayValue?.first?["limitSeconds"] == nil)
    #expect(days[6]["rules"]?.arrayValue?.first?["limitSeconds"]?.integerValue == 600)
    let rule = json["summary"]?.arrayValue?.first
    #expect(rule?["recordedDays"]?.integerValue == 1 && rule?["averageSeconds"]?.integerValue == 180)
    #expect(rule?["previousAverageSeconds"] == .null && rule?["changeSeconds"] == .null)
    #expect(json["recordedDays"]?.integerValue == 1 && json["averageSeconds"]?.integerValue == 180)

    // Nothing recorded at all: every day is no day, and no average is said.
    let empty = HistoryReport(
      history: History(), ledger: Ledger(), rules: RuleSet([social]), from: today.adding(days: -6)!, to: today)
    let emptyLines = ReportText.lines(empty, style: .ascii, localizer: .source)
    #expect(emptyLines.filter { $0.hasSuffix("no record") }.count == 7)
    #expect(emptyLines.contains("  Total: 0 minutes") && !emptyLines.contains { $0.contains("On average") })
  }

  @Test("A few seconds are under a minute, in the text and the weekly summary's words alike")
  func underAMinute() throws {
    let stored = history([
      (-1, HistoryEntry(usedSeconds: 0, limitSeconds: 600)),
      (0, HistoryEntry(usedSeconds: 40, apps: ["Instagram": 40], limitSeconds: 600)),
    ])
    let report = HistoryReport(
      history: stored, ledger: Ledger(), rules: RuleSet([social]), from: today.adding(days: -1)!, to: today)
    let lines = ReportText.lines(report, style: .ascii, localizer: .source)
    #expect(lines[1].hasSuffix("  0 minutes"), "\(lines)")
    #expect(lines[2].hasSuffix("  under a minute"), "\(lines)")
    #expect(lines.contains("  Total: under a minute"))
    #expect(lines.contains("  On average under a minute a day"))
    #expect(lines.contains("  Used most: Instagram, under a minute"))
    let english = Localizer.source
    #expect(english.render(ProductMessage.time(0, as: .total)) == "Total: 0 minutes")
    #expect(english.render(ProductMessage.time(59, as: .day)) == "under a minute")
    #expect(english.render(ProductMessage.time(60, as: .day)) == "1 minute")
    #expect(english.render(ProductMessage.time(90, as: .average)) == "On average 2 minutes a day")
  }

  /// A "Not now" on the shield page is counted in the ledger at once; the history takes it at the
  /// service's next save. The page written just after it must show it.
  @Test("The ledger's tasks asked and ways out count before the service saves the history")
  func ledgerCountsAsTheyHappen() throws {
    let stored = history([(0, HistoryEntry(usedSeconds: 300, limitSeconds: 600, shieldsShown: 1))])
    var ledger = Ledger()
    ledger.recordTaskAsked(for: "social", on: today)
    ledger.recordBackedOut(for: "social", on: today)
    let report = HistoryReport(
      history: stored, ledger: ledger, rules: RuleSet([social]), from: today.adding(days: -6)!, to: today)
    let day = try #require(report.days.last?.rules.first)
    #expect(day.tasksAsked == 1 && day.backedOut == 1)
    #expect(report.summaries.first?.tasksDeclined == 1 && report.summaries.first?.backedOut == 1)
    #expect(ReportText.lines(report, style: .ascii, localizer: .source).contains("  1 task declined"))
  }

  @Test("The page draws a day before the first record without a bar or a limit, and has a legend for the line")
  func pageOfANewInstall() throws {
    let stored = history([(0, HistoryEntry(usedSeconds: 40, apps: ["Instagram": 30], limitSeconds: 600))])
    let report = HistoryReport(
      history: stored, ledger: Ledger(), rules: RuleSet([social]), from: today.adding(days: -6)!, to: today)
    let page = ReportHTML.page(report, localizer: .source)
    #expect(!page.contains("′"))
    #expect(page.contains("<span class=\"limit\">") && page.contains("The day’s limit</span>"))
    #expect(page.contains("Not split by app</span>"))
    #expect(page.components(separatedBy: "class=\"limit\" x1=").count == 2, "one limit line: today's")
    #expect(page.components(separatedBy: "data-recorded=\"false\"").count == 7)
    // The time under the bar is the text's words, in lines that fit the day's slot.
    #expect(page.contains(#"dy="0">under a</tspan><tspan x="332" dy="13">minute</tspan></text>"#), "\(page)")
    #expect(page.contains(#"dy="0">no</tspan><tspan x="32" dy="13">record</tspan></text>"#))
    #expect(page.contains("<td>no record</td>") && page.contains("<td>under a minute</td>"))
  }

  @Test("The report's texts come from the catalogs, with the language's plural forms")
  func localized() throws {
    // Tests/ShieldBridgeCLITests/ReportTextTests.swift → the repository's locales/.
    let root = #filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast(3).joined(separator: "/")
    let catalogs = CatalogSet.load(
      from: CatalogDirectory(path: root + "/locales"), only: [LocaleTag("ru")!, LocaleTag("de")!])
    let russian = catalogs.localizer(chain: [LocaleTag("ru")!])
    #expect(russian.render(.reportDay(minutes: 1)) == "1 минута")
    #expect(russian.render(.reportDay(minutes: 3)) == "3 минуты")
    #expect(russian.render(.reportDay(minutes: 11)) == "11 минут")
    let german = catalogs.localizer(chain: [LocaleTag("de")!])
    #expect(german.render(.reportGrants(count: 2)) == "2 Freigaben genutzt")
  }

  @Test("Days before the forgotten date count nothing, the ledger's included")
  func forgotten() {
    var stored = history([(-3, HistoryEntry(usedSeconds: 50)), (0, HistoryEntry(usedSeconds: 10))])
    stored.forget(before: today, today: today)
    var ledger = Ledger()
    ledger.recordUsedSeconds(70, for: "social", on: today.adding(days: -2)!)
    let report = HistoryReport(
      history: stored, ledger: ledger, rules: RuleSet([social]), from: today.adding(days: -6)!, to: today)
    #expect(report.summaries.first?.totalSeconds == 10)
  }

  @Test("--json written straight from the figures is the JSON of the report's days, byte for byte")
  func jsonFromTable() {
    let video = Rule(name: "video", apps: ["mpv", "Ärger", "mpv"], dailyLimitMinutes: 45)
    var stored = history([
      (-8, HistoryEntry(usedSeconds: 1_400)),
      (-1, HistoryEntry(usedSeconds: 900, apps: ["Instagram": 600, "TikTok": 300], limitSeconds: 900, grants: 1)),
      (0, HistoryEntry(usedSeconds: 120, apps: ["TikTok": 120], limitSeconds: 600, tasksAsked: 2, tasksSolved: 0)),
    ])
    stored.record(HistoryEntry(usedSeconds: 70, apps: ["mpv": 20, "Ärger": 50]), for: "video", on: today)
    var ledger = Ledger()
    ledger.recordUsedSeconds(180, for: "social", on: today)
    for days in [1, 7, 30] {
      for rule in [nil, "video"] {
        let table = HistoryReport.Table(
          history: stored, ledger: ledger, rules: RuleSet([social, video]), from: today.adding(days: 1 - days)!,
          to: today, rule: rule)
        var fromTable: [UInt8] = []
        ReportJSON.write(table) { fromTable.append(contentsOf: $0) }
        var fromDays: [UInt8] = []
        ReportJSON.write(HistoryReport(table)) { fromDays.append(contentsOf: $0) }
        #expect(fromTable == fromDays)
        #expect(fromTable.last == UInt8(ascii: "\n"))
      }
    }
  }
}
