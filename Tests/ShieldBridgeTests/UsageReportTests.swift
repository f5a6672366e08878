import Brake
import JSON
import ShieldBridge
import Testing

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
}
