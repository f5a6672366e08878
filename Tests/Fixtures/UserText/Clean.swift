// A command file as scripts/lint-user-text wants it: every line a person reads is a catalog message.
// Not compiled: the lint's test runs the script on it (Tests/LocalizationTests/UserTextLintTests.swift).

func runToday(json: Bool, date: String, name: String, text: String) throws(CommandFailure) -> Ending {
  if json {
    // machine output: one line of JSON, the same in every language.
    Output.out(#"{"date":"2026-12-07"}"#)
    return Ending(status: .success)
  }
  Output.say(CommandMessage(.today, ["date": date]))
  Output.say(CommandMessage(.noService), to: .err, prefix: "shieldbridge status: ")
  guard !date.isEmpty else { throw .usage(.needsValue("--date")) }
  return Ending(status: .usage, error: "\(name): \(text)")
}

func check(_ error: ConfigurationError, service: ServiceError) throws(CommandFailure) {
  guard error.keyPath.isEmpty else { throw CommandFailure(error) }
  // not in the catalogs: the service's own refusal, in its words.
  throw CommandFailure(service.message, exitCode: .unavailable)
}
