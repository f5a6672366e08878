import Brake
import ShieldBridge

extension Command {
  /// `shieldbridge status [--json]`: the rules, today's grants and today's limits.
  static let status = Command(
    name: "status",
    abstract: "Show the rules, today's grants and today's limits.",
    options: StatusOptions.self,
    discussion: """
      The JSON has the form
      {"date":"2026-11-29","rules":[{"name":"social","apps":["Instagram"],"dailyLimitMinutes":5,
      "grantMinutes":5,"maxGrantsPerDay":5,"grantsToday":1,"limitTodayMinutes":10}]}
      where date is today's local date. Without configured rules the built-in
      rule "default" (its apps list is empty) covers every app.

      Exit status: 0, or 78 when the configuration is wrong, 74 when the
      ledger cannot be read.
      """,
    body: { invocation in try runStatus(invocation) }
  )
}

/// The options of `shieldbridge status`.
private struct StatusOptions: OptionGroup {
  let json: Flag

  init(declaring options: inout OptionDeclarations) {
    json = options.flag("--json", "Print one line of JSON instead of text.")
  }
}

private func runStatus(_ invocation: Invocation<StatusOptions>) throws(CommandFailure) -> ExitCode {
  let configuration = try loadConfiguration()
  let store = try standardLedgerStore()
  let status: DayStatus
  do {
    let loaded = try store.status(of: configuration.rules)
    report(loaded.warnings)
    status = loaded.value
  } catch {
    throw CommandFailure(error)
  }
  if invocation[\.json] {
    Output.out(status.json.serialized)
    return .success
  }
  Output.out("Today: \(status.date)")
  for rule in status.rules {
    let apps = rule.rule.apps.isEmpty ? "every app" : rule.rule.apps.map(\.name).joined(separator: ", ")
    Output.out("")
    Output.out("\(rule.rule.name): \(apps)")
    Output.out("  limit today: \(rule.limitTodayMinutes) minutes")
    Output.out(
      "  grants today: \(rule.grantsToday) of \(rule.rule.maxGrantsPerDay), "
        + "\(rule.rule.grantMinutes) minutes each, on top of \(rule.rule.dailyLimitMinutes) a day")
  }
  return .success
}
