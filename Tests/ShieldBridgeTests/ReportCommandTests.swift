import Foundation
import JSON
import Model
import Spawn
import Store
import TestSupport
import Testing

@Suite("shieldbridge report reads the history and the ledger without a service, and forgets on request")
struct ReportCommandTests {
  let config = #"{"rules":[{"name":"social","apps":["Instagram","TikTok"],"dailyLimitMinutes":10}]}"#

  /// A history of `days` days before today (and today), 60 s of Instagram each.
  func prepare(_ sandbox: Sandbox, days: Int) throws -> LocalDay {
    try sandbox.writeConfig(config)
    let today = sandbox.store.today
    _ = try HistoryStore(beside: sandbox.store).update(keeping: 90, today: today) { history in
      for offset in 0...days {
        history.record(
          HistoryEntry(usedSeconds: 60, apps: ["Instagram": 60], limitSeconds: 600),
          for: "social", on: today.adding(days: -offset)!)
      }
    }
    return today
  }

  @Test("Text with ASCII bars under the C locale, blocks under UTF-8, and JSON with a day per day of the range")
  func text() async throws {
    let sandbox = try Sandbox()
    let today = try prepare(sandbox, days: 10)
    let ascii = try await ShieldBridgeTool.run(
      ["report"], environment: sandbox.environment.merging(["LANG": "C"]) { $1 })
    #expect(ascii.status == 0, "\(ascii.error)")
    #expect(ascii.output.contains("social: 7 days, \(today.adding(days: -6)!) to \(today)"), "\(ascii.output)")
    #expect(ascii.output.contains("#") && ascii.output.contains("|") && !ascii.output.contains("█"))
    #expect(ascii.output.contains("Used most: Instagram, 7 minutes"), "\(ascii.output)")
    let blocks = try await sandbox.run(["report", "--days", "3"])
    #expect(blocks.output.contains("█") && blocks.output.contains("│"), "\(blocks.output)")
    let json = try await JSONValue(parsing: try sandbox.run(["report", "--json", "--days", "14"]).output)
    #expect(json["days"]?.arrayValue?.count == 14)
    #expect(json["days"]?.arrayValue?.first?["rules"]?.arrayValue?.first?["usedSeconds"]?.integerValue == 0)
    #expect(json["totalSeconds"]?.integerValue == 660)
  }

  @Test("--forget removes the days before today (or before --before) and keeps today and the ledger")
  func forget() async throws {
    let sandbox = try Sandbox()
    let today = try prepare(sandbox, days: 5)
    let ledger = try sandbox.store.recordUsage(["social": 60], on: today).value
    let before = try await sandbox.run(["report", "--forget", "--before", today.adding(days: -2)!.description])
    #expect(before.status == 0, "\(before.error)")
    #expect(before.output.contains("Forgot 3 days of history before"), "\(before.output)")
    let all = try await sandbox.run(["report", "--forget"])
    #expect(all.output.contains("Forgot 2 days of history before \(today)"), "\(all.output)")
    let json = try await JSONValue(parsing: try sandbox.run(["report", "--json"]).output)
    #expect(json["totalSeconds"]?.integerValue == 60)
    #expect(try sandbox.store.load().value == ledger)
  }

  /// Issue 33's ninth point, through the binary: installed two days ago, 3 minutes in all.
  @Test("A new install's week: the days before it are no record, the average is over the days since")
  func newInstall() async throws {
    let sandbox = try Sandbox()
    try sandbox.writeConfig(config)
    let today = sandbox.store.today
    _ = try HistoryStore(beside: sandbox.store).update(keeping: 90, today: today) { history in
      history.record(
        HistoryEntry(usedSeconds: 180, apps: ["Instagram": 180], limitSeconds: 600), for: "social",
        on: today.adding(days: -1)!)
    }
    // Today's use so far is in the ledger alone (the service has not saved the history since).
    _ = try sandbox.store.recordUsage(["social": 20], on: today)
    let text = try await sandbox.run(["report"])
    #expect(text.status == 0, "\(text.error)")
    let lines = text.output.split(separator: "\n").map(String.init)
    #expect(lines.filter { $0.hasSuffix("  no record") }.count == 5, "\(text.output)")
    #expect(!lines.contains { $0.hasSuffix("no record") && $0.contains("limit") })
    #expect(lines.contains("  Total: 3 minutes"), "\(text.output)")
    // 200 s over the two days on record: 100 s a day, rounded to the nearest minute.
    #expect(lines.contains("  On average 2 minutes a day"), "\(text.output)")
    #expect(!text.output.contains("period before"))
    let json = try await JSONValue(parsing: try sandbox.run(["report", "--json"]).output)
    #expect(
      json["days"]?.arrayValue?.map { $0["recorded"]?.boolValue ?? false } == [
        false, false, false, false, false, true, true,
      ])
    #expect(json["recordedDays"]?.integerValue == 2 && json["averageSeconds"]?.integerValue == 100)
    #expect(json["previousAverageSeconds"] == .null)
    #expect(json["summary"]?.arrayValue?.first?["changeSeconds"] == .null)
  }

  @Test("Wrong options and a rule that does not exist are usage errors")
  func mistakes() async throws {
    let sandbox = try Sandbox()
    _ = try prepare(sandbox, days: 1)
    for arguments in [
      ["report", "--days", "0"], ["report", "--days", "367"], ["report", "--from", "2026-13-01"],
      ["report", "--from", "2026-11-29", "--to", "2026-11-01"], ["report", "--rule", "nope"],
      ["report", "--forget", "--json"], ["report", "--before", "2026-11-01"],
      ["report", "--from", "2025-01-01", "--to", "2026-11-01"],
    ] {
      let result = try await sandbox.run(arguments)
      #expect(result.status == 64, "\(arguments): \(result.error)")
      #expect(result.output.isEmpty, "\(arguments)")
    }
  }

  @Test("Without rules the report says that nothing is metered; the JSON has the days and no rules")
  func noRules() async throws {
    let sandbox = try Sandbox()
    let text = try await sandbox.run(["report"])
    #expect(text.status == 0, "\(text.error)")
    #expect(text.output == "No rules are configured: nothing is metered and no history is kept.\n")
    let json = try await JSONValue(parsing: try sandbox.run(["report", "--json", "--days", "2"]).output)
    #expect(json["days"]?.arrayValue?.map { $0["rules"]?.arrayValue?.count } == [0, 0])
  }

  @Test("A damaged history is reported as empty with a warning; the ledger's days still count")
  func damaged() async throws {
    let sandbox = try Sandbox()
    try sandbox.writeConfig(config)
    let today = sandbox.store.today
    _ = try sandbox.store.recordUsage(["social": 90], on: today)
    try "not json".write(toFile: sandbox.stateDirectory + "/history.json", atomically: true, encoding: .utf8)
    let result = try await sandbox.run(["report", "--json"])
    #expect(result.status == 0)
    #expect(result.error.contains("history.json could not be read"), "\(result.error)")
    #expect(try JSONValue(parsing: result.output)["totalSeconds"]?.integerValue == 90)
  }
}
