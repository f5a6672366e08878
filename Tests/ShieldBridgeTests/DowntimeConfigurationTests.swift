import Brake
import Foundation
import TestSupport
import Testing

@testable import ShieldBridge

/// Issue 25, point 5: `"downtime": [{"from": "22:00", "to": "07:00", "days": "sun-thu"}]` in config.json.
@Suite("config.json's downtime")
struct DowntimeConfigurationTests {
  static func rule(_ downtime: String) -> String {
    #"{"rules":[{"name":"social","apps":["Instagram"],"downtime":"# + downtime + "}]}"
  }

  @Test("Periods with and without days; the rules in force keep them")
  func read() throws {
    let text = Self.rule(#"[{"from": "22:00", "to": "07:00", "days": "sun-thu"}, {"from": "12:00", "to": "13:30"}]"#)
    let rule = try #require(try parse(text).0.rules.rules.first)
    #expect(
      rule.downtime == [
        DowntimePeriod(from: ClockTime("22:00")!, to: ClockTime("07:00")!, days: try Weekdays(parsing: "sun-thu")),
        DowntimePeriod(from: ClockTime("12:00")!, to: ClockTime("13:30")!),
      ])
    #expect(try parse(Self.rule("[]")).0.rules.rules[0].downtime == [])

    let sandbox = try Sandbox()
    try sandbox.writeConfig(text)
    let rules = try Configuration.load(from: sandbox.configPath).configuration.rules
    let path = RulesInForce.path(in: sandbox.store)
    try RulesInForce(day: sandbox.store.today, rules: rules).save(to: path)
    let written = try String(contentsOfFile: path, encoding: .utf8)
    #expect(
      written.contains(
        #""downtime":[{"from":"22:00","to":"07:00","days":"mon-thu,sun"},{"from":"12:00","to":"13:30"}]"#),
      "\(written)")
    #expect(RulesInForce.load(from: path)?.rules == rules)
  }

  @Test(
    "A time that is not HH:MM, equal times, days that are no days, a missing time: a clear error",
    arguments: [
      (#"[{"from": "22:00"}]"#, ConfigurationError.Code.missing, "rules[0].downtime[0].to", "missing"),
      (#"[{"from": "24:00", "to": "07:00"}]"#, .format, "rules[0].downtime[0].from", #"found "24:00""#),
      (#"[{"from": "7:00", "to": "08:00"}]"#, .format, "rules[0].downtime[0].from", "(HH:MM)"),
      (#"[{"from": 22, "to": "07:00"}]"#, .type, "rules[0].downtime[0].from", "expected a time"),
      (#"[{"from": "22:00", "to": "22:00"}]"#, .format, "rules[0].downtime[0].to", "a period ends at another time"),
      (#"[{"from": "22:00", "to": "07:00", "days": "weekend"}]"#, .format, "rules[0].downtime[0].days", "is not a day"),
      (#"{"from": "22:00", "to": "07:00"}"#, .type, "rules[0].downtime", "expected an array of periods"),
      (#"["22:00-07:00"]"#, .type, "rules[0].downtime[0]", "expected an object"),
    ] as [(String, ConfigurationError.Code, String, String)])
  func errors(downtime: String, code: ConfigurationError.Code, keyPath: String, problem: String) {
    guard let error = configurationError(Self.rule(downtime)) else { return }
    #expect(error.code == code)
    #expect(error.keyPath == keyPath)
    #expect(error.problem.contains(problem), "\(error.problem)")
  }
}
