import DBus
import JSON
import Model
import TestSupport
import Testing

@testable import ShieldBridge

@Suite("Usage() has one JSON shape")
struct UsageReportTests {
  @Test("The JSON of a report, with and without a desktop")
  func roundTrip() throws {
    let report = UsageReport(
      date: try #require(LocalDay("2026-12-01")),
      source: UsageReport.Source(backend: .i3, counting: .focus, limitations: ["no idle"]),
      rules: [RuleUsage(rule: "social", used: .seconds(190), limit: .seconds(300), grantsToday: 1, counting: true)])
    #expect(
      report.json.serialized
        == #"{"date":"2026-12-01","source":{"backend":"i3","counting":"focus","limitations":["no idle"]},"#
        + #""rules":[{"name":"social","usedSeconds":190,"limitSeconds":300,"remainingSeconds":110,"#
        + #""grantsToday":1,"counting":true,"overLimit":false}]}"#)
    let off = UsageReport(date: report.date, source: .off, rules: [])
    #expect(off.json["source"]?["backend"]?.stringValue == "off")
    #expect(off.json["source"]?["counting"]?.stringValue == "none")
    #expect(off.json["rules"]?.arrayValue?.isEmpty == true)
  }

  @Test("What the backend needs done is in the JSON only while there is something, and reads back")
  func attention() throws {
    let source = UsageReport.Source(
      backend: .gnome, counting: .focus, limitations: [], attention: "run 'gnome-extensions enable x'")
    let report = UsageReport(date: try #require(LocalDay("2026-12-01")), source: source, rules: [])
    #expect(report.json["source"]?["attention"]?.stringValue == "run 'gnome-extensions enable x'")
    #expect(try UsageReport(json: report.json).source == source)
    let none = UsageReport(date: report.date, source: UsageReport.Source(backend: .gnome, counting: .focus), rules: [])
    #expect(none.json["source"]?["attention"] == nil)
    #expect(try UsageReport(json: none.json).source.attention == nil)
  }
}

@Suite("Usage() on the bus")
struct UsageCallTests {
  @Test("Without a desktop it answers any caller with the ledger's figures, counting nothing")
  func withoutDesktop() async throws {
    let harness = try await ServiceHarness()
    let store = harness.sandbox.store
    _ = try store.recordUsage(["social": 42], on: store.today)
    let reply = try await harness.call(ServiceInterface.usage.name)
    let usage = try JSONValue(parsing: try reply.decode(String.self))
    #expect(usage["date"]?.stringValue == store.today.description)
    #expect(usage["source"]?["backend"]?.stringValue == "off")
    #expect(usage["source"]?["counting"]?.stringValue == "none")
    let rule = try #require(usage.usageRule("social"))
    #expect(rule["usedSeconds"]?.integerValue == 42)
    #expect(rule["limitSeconds"]?.integerValue == 300)
    #expect(rule["remainingSeconds"]?.integerValue == 258)
    #expect(rule["counting"]?.boolValue == false)
    #expect(rule["overLimit"]?.boolValue == false)
  }

  @Test("A call with arguments is refused by its signature")
  func extraArguments() async throws {
    let harness = try await ServiceHarness()
    await #expect(throws: DBusError.self) { _ = try await harness.call(ServiceInterface.usage.name, "x") }
  }
}
