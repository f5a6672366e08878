import Config
import DBus
import Desktop
import JSON
import Localization
import Model
import ShieldBridge

/// Today's use as `status` shows it: from the running service, else from the ledger.
struct StatusUsage {
  var report: UsageReport
  /// Whether the running service answered; `false`: the figures are the ledger's.
  var fromService: Bool
  /// Whether the meter's figures go into the JSON (see `status --help`).
  var isInJSON: Bool
  /// What counts the time, or why nothing does.
  var source: CommandMessage
  /// Whether no service owns the name: then nothing is counted, whatever the ledger says.
  var noService = false

  /// What `status` says first when no service runs (on stderr with `--json`).
  static let noService = CommandMessage(.noService)

  /// Asks the service on `bus` for `Usage()` without starting it; when it does not answer, reads `ledger`.
  static func find(
    bus: Connection.Bus, ledger: Ledger, status: DayStatus, configuration: Configuration
  ) async -> StatusUsage {
    let choice = configuration.desktop
    let hasRules = !configuration.rules.isBuiltIn
    switch await serviceUsage(bus: bus) {
    case .success(let report):
      // Where to read why nothing is watched: the log of the service that answered.
      let log = report.source.backend == nil && hasRules ? await ServiceLog.find(on: bus) : nil
      return StatusUsage(
        report: report, fromService: true, isInJSON: true,
        source: UsageText.sourceMessage(
          backend: report.source.backend, counting: report.source.counting, choice: choice, hasRules: hasRules,
          notRunning: nil, log: log?.text))
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
        source: UsageText.sourceMessage(
          backend: nil, counting: nil, choice: choice, hasRules: hasRules, notRunning: reason.reason),
        noService: reason.noOwner)
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
        .object(
          [
            ("backend", .string(report.source.backend?.rawValue ?? "off")),
            ("counting", .string(report.source.counting?.rawValue ?? "none")),
            ("limitations", .array(report.source.limitations.map { .string($0) })),
            ("service", .bool(fromService)),
          ] + (report.source.attention.map { [("attention", .string($0))] } ?? []))
      ))
    return .object(members)
  }
}

/// Why the service's figures are not there.
private struct NoServiceUsage: Error {
  var reason: String
  /// Whether the bus says no one owns the service's name (or there is no bus).
  var noOwner = false
}

/// The running service's `Usage()`, asked without letting the bus start a service for it.
private func serviceUsage(bus: Connection.Bus) async -> Result<UsageReport, NoServiceUsage> {
  let notRunning = NoServiceUsage(reason: Output.text(CommandMessage(.reasonNotRunning)), noOwner: true)
  let connection: Connection
  do { connection = try Connection(bus) } catch { return .failure(notRunning) }
  defer { connection.close() }
  let text: String
  do {
    // `status` only looks: it must not be what starts the service.
    text = try await connection.call(
      ServiceInterface.usage, destination: ServiceNames.busName, path: ServiceNames.path, timeout: .seconds(5),
      autoStart: false)
  } catch  where error.is(.invalidSignature) {
    return .failure(NoServiceUsage(reason: Output.text(CommandMessage(.reasonUnreadable, ["error": "\(error)"]))))
  } catch  where error.is(.serviceUnknown) || error.is(.nameHasNoOwner) {
    return .failure(notRunning)
  } catch  where error.is(.unknownMethod) {
    return .failure(NoServiceUsage(reason: Output.text(CommandMessage(.reasonOlder))))
  } catch {
    return .failure(NoServiceUsage(reason: Output.text(CommandMessage(.reasonNoAnswer, ["error": error.message]))))
  }
  do {
    return .success(try UsageReport(json: try JSONValue(parsing: text)))
  } catch {
    return .failure(NoServiceUsage(reason: Output.text(CommandMessage(.reasonUnreadable, ["error": "\(error)"]))))
  }
}
