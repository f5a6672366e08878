import Brake
import DBus
import Desktop
import JSON
import ShieldBridge

extension Command {
  /// `shieldbridge status [--json] [--address ADDR]`: the rules, today's grants, limits and use.
  static let status = Command(
    name: "status",
    abstract: "Show the rules, today's grants and today's limits.",
    options: StatusOptions.self,
    discussion: """
      For each rule: the time its apps were used today against today's limit,
      with a bar, and which source counts it: the focused window (X11, i3,
      sway), the running processes (no window system seen), or nothing. The
      figures come from the running service (its Usage() call); when none
      runs, from the ledger, which the service writes at least every 30 s.

      The JSON has the form
      {"date":"2026-11-29","rules":[{"name":"social","apps":["Instagram"],"dailyLimitMinutes":5,
      "grantMinutes":5,"maxGrantsPerDay":5,"grantsToday":1,"limitTodayMinutes":10}]}
      where date is today's local date. Without configured rules the built-in
      rule "default" (its apps list is empty) covers every app. When the
      service answers, or the ledger holds time used today, each rule the
      meter counts adds "usedSeconds", "limitSeconds", "remainingSeconds",
      "counting" (whether its time counts at this moment) and "overLimit", and
      the object ends with "source": {"backend":"i3","counting":"focus",
      "limitations":[…],"service":true}, where backend is x11, i3, sway,
      processes or off, and counting is focus, running or none.

      Exit status: 0, or 78 when the configuration is wrong, 74 when the
      ledger cannot be read.
      """,
    body: { invocation in try await runStatus(invocation) }
  )
}

/// The options of `shieldbridge status`.
private struct StatusOptions: BusOptions {
  let json: Flag
  let address: Option<String>

  init(declaring options: inout OptionDeclarations) {
    json = options.flag("--json", "Print one line of JSON instead of text.")
    address = options.address()
  }
}

private func runStatus(_ invocation: Invocation<StatusOptions>) async throws(CommandFailure) -> ExitCode {
  let configuration = try loadConfiguration()
  let store = try standardLedgerStore()
  let ledger: Ledger
  do {
    let loaded = try store.load()
    report(loaded.warnings)
    ledger = loaded.value
  } catch {
    throw CommandFailure(error)
  }
  let today = store.today
  let status = ledger.status(of: configuration.rules, on: today)
  let usage = await StatusUsage.find(
    bus: bus(invocation), ledger: ledger, status: status, configuration: configuration)

  if invocation[\.json] {
    Output.out(usage.json(adding: status).serialized)
    return .success
  }
  Output.out("Today: \(status.date)")
  for rule in usage.report.rules {
    Output.out(
      UsageText.line(
        rule: rule.rule, usedSeconds: rule.usedSeconds, limitSeconds: rule.limitSeconds, counting: rule.counting))
  }
  Output.out(usage.sourceLine)
  let limitations = usage.report.source.limitations.count
  if limitations > 0 {
    // The list is long and the same every time: `desktop` prints it, `status --json` carries it.
    Output.out(
      "  \(limitations) \(limitations == 1 ? "limitation" : "limitations") of this backend: see 'shieldbridge desktop --once'"
    )
  }
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

/// Today's use as `status` shows it: from the running service, else from the ledger.
private struct StatusUsage {
  var report: UsageReport
  /// Whether the running service answered; `false`: the figures are the ledger's.
  var fromService: Bool
  /// Whether the meter's figures go into the JSON (see `status --help`).
  var isInJSON: Bool
  var sourceLine: String

  /// Asks the service on `bus` for `Usage()` without starting it; when it does not answer, reads `ledger`.
  static func find(
    bus: Connection.Bus, ledger: Ledger, status: DayStatus, configuration: Configuration
  ) async -> StatusUsage {
    let choice = configuration.desktop
    let hasRules = !configuration.rules.isBuiltIn
    switch await serviceUsage(bus: bus) {
    case .success(let report):
      return StatusUsage(
        report: report, fromService: true, isInJSON: true,
        sourceLine: UsageText.sourceLine(
          backend: report.source.backend, counting: report.source.counting, choice: choice, hasRules: hasRules,
          notRunning: nil))
    case .failure(let reason):
      // The meter counts only configured rules, a minute of 60 s.
      let rules =
        hasRules
        ? status.rules.map { rule in
          RuleUsage(
            rule: rule.rule.name, used: .seconds(ledger.usedSeconds(for: rule.rule.name, on: status.date)),
            limit: .seconds(60 * rule.limitTodayMinutes), grantsToday: rule.grantsToday, counting: false)
        } : []
      let usedToday = ledger.usedSecondsByDay[status.date].map { !$0.isEmpty } ?? false
      return StatusUsage(
        report: UsageReport(date: status.date, source: .off, rules: rules), fromService: false,
        isInJSON: usedToday,
        sourceLine: UsageText.sourceLine(
          backend: nil, counting: nil, choice: choice, hasRules: hasRules, notRunning: reason.reason))
    }
  }

  /// `status --json`: the day's status with the meter's keys added, when there are any to add.
  func json(adding status: DayStatus) -> JSONValue {
    guard isInJSON, case .object(var members) = status.json else { return status.json }
    let usages = Dictionary(report.rules.map { ($0.rule, $0) }, uniquingKeysWith: { first, _ in first })
    members = members.map { key, value in
      guard key == "rules", let rules = value.arrayValue else { return (key, value) }
      return (
        key,
        .array(
          rules.map { rule in
            guard case .object(let fields) = rule, let name = rule["name"]?.stringValue, let usage = usages[name]
            else { return rule }
            return .object(
              fields + [
                ("usedSeconds", .int(usage.usedSeconds)), ("limitSeconds", .int(usage.limitSeconds)),
                ("remainingSeconds", .int(usage.remainingSeconds)), ("counting", .bool(usage.counting)),
                ("overLimit", .bool(usage.overLimit)),
              ])
          })
      )
    }
    members.append(
      (
        "source",
        .object([
          ("backend", .string(report.source.backend?.rawValue ?? "off")),
          ("counting", .string(report.source.counting?.rawValue ?? "none")),
          ("limitations", .array(report.source.limitations.map { .string($0) })),
          ("service", .bool(fromService)),
        ])
      ))
    return .object(members)
  }
}

/// Why the service's figures are not there.
private struct NoServiceUsage: Error {
  var reason: String
}

/// The running service's `Usage()`, asked without letting the bus start a service for it.
private func serviceUsage(bus: Connection.Bus) async -> Result<UsageReport, NoServiceUsage> {
  let notRunning = NoServiceUsage(reason: "the service is not running")
  let connection: Connection
  do { connection = try Connection(bus) } catch { return .failure(notRunning) }
  defer { connection.close() }
  let reply: Message
  do {
    let call = try Message.methodCall(
      destination: ServiceNames.busName, path: ServiceNames.path, interface: ServiceNames.interface,
      member: ServiceNames.usage)
    // `status` only looks: it must not be what starts the service.
    call.autoStart = false
    reply = try await connection.call(call, timeout: .seconds(5))
  } catch  where error.is(.serviceUnknown) || error.is(.nameHasNoOwner) {
    return .failure(notRunning)
  } catch  where error.is(.unknownMethod) {
    return .failure(NoServiceUsage(reason: "the running service is older and does not meter (restart it)"))
  } catch {
    return .failure(NoServiceUsage(reason: "the service did not answer (\(error.message))"))
  }
  do {
    let text = try reply.decode(String.self)
    return .success(try UsageReport(json: try JSONValue(parsing: text)))
  } catch {
    return .failure(NoServiceUsage(reason: "the service's answer could not be read (\(error))"))
  }
}
