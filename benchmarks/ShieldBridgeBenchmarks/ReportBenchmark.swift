import Foundation
import Model
import Store

/// `ShieldBridgeBenchmarks report DIRECTORY`: a history of 366 days × 100
/// rules (three apps each) written into DIRECTORY, then read and reported
/// as `shieldbridge report` does: the last 7 days, and the whole year.
///
/// The suite script leaves DIRECTORY in place and times the `shieldbridge
/// report` command on it, and the Python peer on the same file.
enum ReportBenchmark {
  static let days = 366
  static let rules = 100

  static func run(_ arguments: [String]) throws {
    guard let directory = arguments.first else { throw BenchmarkFailure("usage: report DIRECTORY") }
    let store = LedgerStore(directory: directory)
    let history = HistoryStore(beside: store)
    let today = store.today
    let ruleSet = RuleSet(
      (0..<rules).map { index in
        Rule(
          name: "rule-\(index)", apps: (0..<3).map { AppPattern(name: "App\(index)-\($0)") },
          dailyLimitMinutes: 30)
      })
    _ = try history.update(keeping: days, today: today) { history in
      for offset in 0..<days {
        let day = today.adding(days: -offset)!
        for (index, rule) in ruleSet.rules.enumerated() {
          let seconds = (offset * 37 + index * 101) % 3_600
          let apps = Dictionary(
            uniqueKeysWithValues: rule.apps.enumerated().map { ($0.element.name, seconds * ($0.offset + 1) / 6) })
          history.record(
            HistoryEntry(
              usedSeconds: seconds, apps: apps, limitSeconds: 1_800, grants: seconds > 1_800 ? 1 : 0,
              shieldsShown: seconds > 1_800 ? 1 : 0, tasksAsked: 1, tasksSolved: seconds > 1_800 ? 1 : 0),
            for: rule.name, on: day)
        }
      }
    }
    let size = (try? FileManager.default.attributesOfItem(atPath: history.path)[.size] as? Int) ?? 0
    Measure.report("report", "history.json size", Double(size) / 1_048_576, "MiB", "\(days) days × \(rules) rules")
    // The config the command reads, for the suite script.
    let config =
      #"{"historyDays":366,"rules":["#
      + ruleSet.rules.map { rule in
        #"{"name":"\#(rule.name)","apps":[\#(rule.apps.map { "\"\($0.name)\"" }.joined(separator: ","))],"#
          + #""dailyLimitMinutes":30}"#
      }.joined(separator: ",") + "]}"
    try config.write(toFile: directory + "/config.json", atomically: true, encoding: .utf8)

    let ledger = try store.load().value
    let load = try Measure.samples(10) { _ = try history.load() }
    Measure.report("report", "read all of history.json p50", Measure.median(load) / 1e6, "ms")
    // What `report` reads for 7 days: those and the 7 before, for the change.
    let weeks = today.adding(days: -13)!...today
    let weekLoad = try Measure.samples(50) { _ = try history.load(only: weeks) }
    Measure.report("report", "read 14 days of history.json p50", Measure.median(weekLoad) / 1e6, "ms")
    let stored = try history.load(only: weeks).value
    let week = Measure.samples(200) {
      _ = HistoryReport(
        history: stored, ledger: ledger, rules: ruleSet, from: today.adding(days: -6)!, to: today)
    }
    Measure.report("report", "7-day report of 100 rules p50", Measure.median(week) / 1e6, "ms")
    let whole = try history.load().value
    let year = Measure.samples(20) {
      _ = HistoryReport(
        history: whole, ledger: ledger, rules: ruleSet, from: today.adding(days: -(days - 1))!, to: today)
    }
    Measure.report("report", "366-day report of 100 rules p50", Measure.median(year) / 1e6, "ms")
    // What `report --json --days 366` does: the file's lines read straight into the report's figures.
    let streamed = try Measure.samples(20) {
      _ = try history.reportTable(
        ledger: ledger, rules: ruleSet, from: today.adding(days: -(days - 1))!, to: today)
    }
    Measure.report(
      "report", "366-day report of 100 rules read from the file p50", Measure.median(streamed) / 1e6, "ms")

    try saves(history, rules: ruleSet, today: today, directory: directory)
  }
}

extension ReportBenchmark {
  /// A save of today's figures of every rule (what the service writes every 30 s
  /// while time counts), as CPU time of the process, median of the samples: the
  /// year's file with today in the open days' file (`update(days:…)`), the same file the
  /// whole way (read, change, write: the save before issue 40, the peer), and
  /// a save with no history at all. Each save changes today's seconds, so each writes.
  static func saves(_ history: HistoryStore, rules: RuleSet, today: LocalDay, directory: String) throws {
    var seconds = 0
    func recordToday(_ stored: inout History) {
      seconds += 1
      for rule in rules.rules {
        stored.record(HistoryEntry(usedSeconds: seconds % 3_600, limitSeconds: 1_800), for: rule.name, on: today)
      }
    }
    let empty = HistoryStore(directory: directory + "/empty")
    try FileManager.default.createDirectory(atPath: empty.directory, withIntermediateDirectories: true)
    let none = try Measure.cpuSamples(40) {
      _ = try empty.update(days: [today], keeping: days, today: today, recordToday)
    }
    for path in [empty.path, empty.openPath] where FileManager.default.fileExists(atPath: path) {
      try FileManager.default.removeItem(atPath: path)
    }
    let day = try Measure.cpuSamples(40) {
      _ = try history.update(days: [today], keeping: days, today: today, recordToday)
    }
    let whole = try Measure.cpuSamples(10) { _ = try history.update(keeping: days, today: today, recordToday) }
    let ratio = String(format: "%.1f", Measure.median(day) / Measure.median(none))
    Measure.report("report", "save of today, no history, CPU p50", Measure.median(none) / 1e6, "ms")
    Measure.report(
      "report", "save of today, the year's file, CPU p50", Measure.median(day) / 1e6, "ms", "\(ratio)× no history")
    Measure.report("report", "peer: the same save the whole way, CPU p50", Measure.median(whole) / 1e6, "ms")
  }
}
