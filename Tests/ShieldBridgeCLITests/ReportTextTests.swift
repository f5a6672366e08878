import Brake
import JSON
import Localization
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
    #expect(summary.previousAverageSeconds == 1_400 / 7)
    #expect(summary.busiestApp == "Instagram")
    #expect(summary.grants == 1)
    #expect(summary.tasksDeclined == 2)

    let lines = ReportText.lines(report, style: .ascii, localizer: .source)
    #expect(lines.first == "social: 7 days, 2026-11-23 to 2026-11-29")
    #expect(lines[7].hasPrefix("  2026-11-29  ") && lines[7].hasSuffix("  3 minutes"))
    #expect(lines[6].hasSuffix("  15 minutes"))
    #expect(lines.contains("  Total: 18 minutes"))
    #expect(lines.contains("  On average 3 minutes a day"))
    #expect(lines.contains("  About the same as the period before"))
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
