import Foundation
import Log
import Model
import Posix
import Store
import TestSupport
import Testing

@testable import Config
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

/// A period of every day around the local time now: from an hour ago to two hours ahead.
private func periodAroundNow() -> (config: String, end: String) {
  let now = WallTime.now.local!
  let minute = now.hour * 60 + now.minute
  func text(_ minutes: Int) -> String { ClockTime(hour: (minutes / 60) % 24, minute: minutes % 60)!.description }
  let from = text((minute + 1_440 - 60) % 1_440)
  let to = text((minute + 120) % 1_440)
  return (#"[{"from": "\#(from)", "to": "\#(to)"}]"#, to)
}

@Suite("During downtime no task is asked and no grant is recorded; status says until when")
struct DowntimePuzzleTests {
  @Test("puzzle says until when and exits 75; the ledger refuses a grant; status names the downtime")
  func refused() async throws {
    let sandbox = try Sandbox()
    let (downtime, end) = periodAroundNow()
    try sandbox.writeConfig(DowntimeConfigurationTests.rule(downtime))
    let result = try await sandbox.run(["puzzle", "--app", "Instagram", "--seed", "1"], input: "1\n")
    #expect(result.status == 75)
    #expect(result.output == "Instagram is paused until \(end): no task unlocks it before then.\n", "\(result.output)")
    let rule = try #require(try Configuration.load(from: sandbox.configPath).configuration.rules.rules.first)
    #expect(throws: LedgerError.inDowntime(rule: "social", until: end)) { try sandbox.store.recordGrant(for: rule) }
    #expect(try sandbox.store.status(of: rule).value.grantsToday == 0)
    let status = try await sandbox.run(["status"]).output
    #expect(status.contains("  downtime until \(end): no task unlocks it before then"), "\(status)")
    let json = try await sandbox.run(["status", "--json"]).output
    #expect(json.contains(#""limitTodayMinutes":5,"downtimeUntil":"\#(end)"}"#), "\(json)")
  }

  @Test("status names the next downtime within a day, from and to")
  func next() async throws {
    let sandbox = try Sandbox()
    let now = WallTime.now.local!
    let minute = now.hour * 60 + now.minute
    func text(_ minutes: Int) -> String { ClockTime(hour: (minutes / 60) % 24, minute: minutes % 60)!.description }
    let from = text((minute + 180) % 1_440)
    let to = text((minute + 240) % 1_440)
    try sandbox.writeConfig(DowntimeConfigurationTests.rule(#"[{"from": "\#(from)", "to": "\#(to)"}]"#))
    let status = try await sandbox.run(["status"]).output
    #expect(status.contains("  downtime from \(from) to \(to)"), "\(status)")
    let json = try await sandbox.run(["status", "--json"]).output
    #expect(json.contains(#""downtimeFrom":"\#(from)","downtimeTo":"\#(to)""#), "\(json)")
  }
}

@Suite("config.json's dayStartsAt")
struct DayStartConfigurationTests {
  @Test("HH:MM, midnight unless given; anything else is refused with the key named")
  func read() throws {
    #expect(try parse("{}").0.dayStartsAt == .midnight)
    #expect(try parse(#"{"dayStartsAt": "04:00"}"#).0.dayStartsAt == ClockTime("04:00"))
    for (text, code) in [
      (#"{"dayStartsAt": "4:00"}"#, ConfigurationError.Code.format), (#"{"dayStartsAt": "24:00"}"#, .format),
      (#"{"dayStartsAt": 4}"#, .type),
    ] {
      let error = configurationError(text)
      #expect(error?.code == code, "\(text)")
      #expect(error?.keyPath == "dayStartsAt", "\(text)")
    }
  }

  @Test("The ledger store of the commands takes it: today begins at 04:00")
  func store() throws {
    let store = LedgerStore(directory: "/nonexistent", clock: .fixed(WallTime.now), dayStart: ClockTime("04:00")!)
    #expect(store.today == LocalDay.containing(WallTime.now, dayStart: ClockTime("04:00")!, in: .system))
  }
}

@Suite("A changed dayStartsAt waits for the service's restart")
struct DayStartReloadTests {
  @Test("The reload says so and keeps the day start the service started with")
  func reload() async throws {
    let sandbox = try Sandbox()
    let log = EventLog<String>()
    try sandbox.writeConfig(#"{"rules":[{"name":"social","apps":["Instagram"]}]}"#)
    let harness = try await ServiceHarness(
      configuration: try Configuration.load(from: sandbox.configPath).configuration, sandbox: sandbox,
      configurationPath: sandbox.configPath, logger: Logger(sink: LogSink { log.append($0.message) }))
    try sandbox.writeConfig(#"{"dayStartsAt":"04:00","rules":[{"name":"social","apps":["Instagram"]}]}"#)
    let line = try await log.first("the restart notice") { $0.contains("kept until the service restarts") }
    #expect(line.hasSuffix(#"restart shieldbridge): "dayStartsAt" (then from the next day's start)"#), "\(line)")
    #expect(harness.service.options.configuration.dayStartsAt == .midnight)
    await harness.service.stop()
  }
}
