import Config
import Model
import ShieldBridge
import Testing

@Suite("config.json's weeklySummary")
struct WeeklySummaryConfigurationTests {
  @Test("Left out, there is no weekly summary; given, its day and time are read")
  func read() throws {
    #expect(try parse("{}").0.weeklySummary == nil)
    let (configuration, warnings) = try parse(#"{"weeklySummary":"Sunday 18:00"}"#)
    #expect(warnings.isEmpty)
    #expect(configuration.weeklySummary == WeeklySchedule(weekday: .sunday, hour: 18, minute: 0))
    #expect(try parse(#"{"weeklySummary":"mon 7:30"}"#).0.weeklySummary?.description == "monday 07:30")
  }

  @Test(
    "A weeklySummary that is not a day and a time is a clear error",
    arguments: [
      (#"{"weeklySummary":"sunday"}"#, ConfigurationError.Code.format, #"found "sunday""#),
      (#"{"weeklySummary":"sunday 6pm"}"#, .format, #"such as "sunday 18:00""#),
      (#"{"weeklySummary":"sonntag 18:00"}"#, .format, "the English day name"),
      (#"{"weeklySummary":"sunday 24:00"}"#, .format, "00:00 to 23:59"),
      (#"{"weeklySummary":18}"#, .type, "found 18"),
      (#"{"weeklySummary":null}"#, .type, "found null"),
    ] as [(String, ConfigurationError.Code, String)])
  func errors(text: String, code: ConfigurationError.Code, problem: String) {
    guard let error = configurationError(text) else { return }
    #expect(error.code == code)
    #expect(error.keyPath == "weeklySummary")
    #expect(error.problem.contains(problem), "\(error.problem)")
  }
}
