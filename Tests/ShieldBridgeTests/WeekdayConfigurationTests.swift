import Foundation
import Model
import TestSupport
import Testing

@testable import Config
@testable import ShieldBridge

/// Issue 25, point 5: `"dailyLimitMinutes": {"mon-fri": 5, "sat,sun": 30}` in config.json.
@Suite("config.json's limits by weekday")
struct WeekdayConfigurationTests {
  static func rule(_ limit: String) -> String {
    #"{"rules":[{"name":"social","apps":["Instagram"],"dailyLimitMinutes":"# + limit + "}]}"
  }

  @Test("An object of days gives each day its minutes; a plain number keeps working")
  func read() throws {
    let rule = try #require(try parse(Self.rule(#"{"mon-fri": 5, "sat,sun": 30}"#)).0.rules.rules.first)
    #expect(rule.dailyLimit.minutesByWeekday == [5, 5, 5, 5, 5, 30, 30])
    let wrapping = try #require(try parse(Self.rule(#"{"fri-mon": 20, "tue-thu": 0}"#)).0.rules.rules.first)
    #expect(wrapping.dailyLimit.minutesByWeekday == [20, 0, 0, 0, 20, 20, 20])
    let plain = try #require(try parse(Self.rule("12")).0.rules.rules.first)
    #expect(plain.dailyLimit == DailyLimit(minutes: 12))
  }

  @Test(
    "A day named twice or not at all, a name that is no day, minutes out of range: a clear error",
    arguments: [
      (
        #"{"mon-fri": 5, "fri-sun": 30}"#, ConfigurationError.Code.duplicate, #"rules[0].dailyLimitMinutes["fri-sun"]"#,
        #"fri is already given a limit by "mon-fri""#
      ),
      (#"{"mon-fri": 5, "sat": 30}"#, .missing, "rules[0].dailyLimitMinutes", "sun has no limit"),
      (#"{}"#, .missing, "rules[0].dailyLimitMinutes", "expected minutes for every day"),
      (
        #"{"monday-fri": 5, "sat,sun": 30}"#, .format, #"rules[0].dailyLimitMinutes["monday-fri"]"#,
        #""monday" is not a day"#
      ),
      (
        #"{"mon-sun": 1441}"#, .range, #"rules[0].dailyLimitMinutes["mon-sun"]"#,
        "expected a whole number from 0 to 1440, found 1441"
      ),
      (#"{"mon-sun": "five"}"#, .type, #"rules[0].dailyLimitMinutes["mon-sun"]"#, "expected a whole number"),
      (#"{"mon-sun": 2.5}"#, .type, #"rules[0].dailyLimitMinutes["mon-sun"]"#, "expected a whole number"),
      (#"[5]"#, .type, "rules[0].dailyLimitMinutes", "expected a whole number"),
    ] as [(String, ConfigurationError.Code, String, String)])
  func errors(limit: String, code: ConfigurationError.Code, keyPath: String, problem: String) {
    guard let error = configurationError(Self.rule(limit)) else { return }
    #expect(error.code == code)
    #expect(error.keyPath == keyPath)
    #expect(error.problem.contains(problem), "\(error.problem)")
  }

  @Test("The rules in force keep the object, tightened day by day")
  func rulesInForce() throws {
    let sandbox = try Sandbox()
    try sandbox.writeConfig(Self.rule(#"{"mon-fri": 5, "sat,sun": 30}"#))
    let rules = try Configuration.load(from: sandbox.configPath).configuration.rules
    let path = RulesInForce.path(in: sandbox.store)
    let today = sandbox.store.today
    try RulesInForce(day: today, rules: rules).save(to: path)
    let written = try String(contentsOfFile: path, encoding: .utf8)
    #expect(written.contains(#""dailyLimitMinutes":{"mon-fri":5,"sat,sun":30}"#), "\(written)")
    #expect(RulesInForce.load(from: path) == RulesInForce(day: today, rules: rules))
    // 10 every day: the weekdays' 5 stay today, the weekend goes down to 10 at once.
    let configured = try parse(Self.rule("10")).0.rules
    let inForce = RulesInForce.resolve(configured: configured, store: sandbox.store)
    #expect(inForce.rules[0].dailyLimit.minutesByWeekday == [5, 5, 5, 5, 5, 10, 10])
  }

  @Test("rules add-app keeps an object limit; rules set --limit replaces it with the number")
  func editing() throws {
    let start = Array(
      Self.rule(#"{"mon-fri": 5, "sat,sun": 30}, "downtime": [{"from": "22:00", "to": "07:00"}]"#).utf8)
    let added = try ConfigurationEditor.edited(
      start, file: "config.json", applying: .addApps(rule: "social", apps: [RuleApp(name: "TikTok")]))
    let rule = try #require(try Configuration.parse(added, file: "config.json").0.rules.rules.first)
    #expect(rule.apps.map(\.name) == ["Instagram", "TikTok"])
    #expect(rule.dailyLimit.minutesByWeekday == [5, 5, 5, 5, 5, 30, 30])
    #expect(rule.downtime.map(\.description) == ["22:00-07:00"])
    let set = try ConfigurationEditor.edited(
      added, file: "config.json",
      applying: .set(name: "social", apps: nil, sites: nil, settings: RuleSettings(grantMinutes: 2)))
    #expect(try Configuration.parse(set, file: "config.json").0.rules.rules[0].dailyLimit.highest == 30)
    let replaced = try ConfigurationEditor.edited(
      set, file: "config.json",
      applying: .set(name: "social", apps: nil, sites: nil, settings: RuleSettings(dailyLimitMinutes: 15)))
    #expect(
      try Configuration.parse(replaced, file: "config.json").0.rules.rules[0].dailyLimit == DailyLimit(minutes: 15))
  }
}

@Suite("status says which limit by weekday applies today")
struct WeekdayStatusTests {
  @Test("status and status --json name today's limit and the days that share it")
  func status() async throws {
    let sandbox = try Sandbox()
    try sandbox.writeConfig(WeekdayConfigurationTests.rule(#"{"mon-fri": 5, "sat,sun": 30}"#))
    let today = sandbox.store.today
    let weekend = today.weekday >= .saturday
    let text = try await sandbox.run(["status"]).output
    let expected = weekend ? "on top of 30 minutes today (sat,sun)" : "on top of 5 minutes today (mon-fri)"
    #expect(text.contains(expected), "\(text)")
    #expect(text.contains("  limit today: \(weekend ? 30 : 5) minutes"), "\(text)")
    let json = try await sandbox.run(["status", "--json"]).output
    let fields =
      weekend
      ? #""dailyLimitMinutes":30,"dailyLimitDays":"sat,sun""# : #""dailyLimitMinutes":5,"dailyLimitDays":"mon-fri""#
    #expect(json.contains(fields), "\(json)")
  }
}
