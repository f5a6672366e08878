import Config
import JSON
import Localization
import Model
import Posix
import ShieldBridge

extension Command {
  /// `shieldbridge status [--json | --follow [--format FORMAT]] [--address ADDR]`: the rules, today's
  /// grants, limits and use; or, with `--follow`, a panel's line per change.
  static let status = Command(
    name: "status",
    abstract: "Show the rules and today's use, grants and limits.",
    options: StatusOptions.self,
    discussion: """
      For each rule: the time its apps were used today against today's limit,
      with a bar, and which source counts it: the focused window (X11, i3,
      sway), the running processes (no window system seen), or nothing. The
      figures come from the running service (its Usage() call); when none
      runs, from the ledger, which the service writes at least every 30 s,
      and the first line says "no ShieldBridge service is running: nothing
      is counted" (with --json, on stderr). Without a rule (no config.json,
      or none in it), the text says that no rule is set and points to
      'shieldbridge setup'.

      The JSON has the form
      {"date":"2026-11-29","rules":[{"name":"social","apps":["Instagram"],"dailyLimitMinutes":5,
      "grantMinutes":5,"maxGrantsPerDay":5,"grantsToday":1,"limitTodayMinutes":10}]}
      where date is today's local date; a rule whose apps name websites adds
      "sites":["instagram.com"] after "apps". Without configured rules the built-in
      rule "default" (its apps list is empty) covers every app. When the
      service answers, or the ledger holds time used today, each rule the
      meter counts adds "usedSeconds", "limitSeconds", "remainingSeconds",
      "counting" (whether its time counts at this moment) and "overLimit", and
      the object ends with "source": {"backend":"i3","counting":"focus",
      "limitations":[…],"service":true}, where backend is x11, i3, sway,
      kwin, gnome, processes or off, and counting is focus, running or none; while
      the backend needs something done first (the GNOME Shell extension is
      not enabled), "attention" says what, and the text says it as "to do".

      With --follow, status prints what a panel shows, "Instagram: 3 min left
      today" (empty while nothing covered is in front or no service runs),
      then a line each time it changes, until the bus goes: --format waybar
      prints waybar's custom-module JSON, --format i3bar i3bar's protocol
      (see docs/using/panels.md).

      Exit status: 0, or 78 when the configuration is wrong, 74 when the
      ledger cannot be read, 69 without a bus (--follow).
      """,
    body: { invocation in try await runStatus(invocation) }
  )
}

/// The options of `shieldbridge status`.
private struct StatusOptions: BusOptions {
  let json: Flag
  let follow: Flag
  let format: Option<FollowFormat>
  let address: Option<String>

  init(declaring options: inout OptionDeclarations) {
    json = options.flag("--json", "Print one line of JSON instead of text.")
    follow = options.flag(
      "--follow", "Print the app in front and its time left, then a line each time it changes, for a panel.")
    format = options.choice(
      "--format", "FORMAT", FollowFormat.allCases.map { ($0.rawValue, $0) },
      "With --follow: text (the default), waybar (its custom module's JSON) or i3bar (its protocol).")
    address = options.address()
  }
}

private func runStatus(_ invocation: Invocation<StatusOptions>) async throws(CommandFailure) -> ExitCode {
  if invocation[\.follow] {
    return try await followGlance(bus: bus(invocation), format: invocation[\.format] ?? .text)
  }
  let loaded = try loadConfigurationFile()
  var configuration = loaded.configuration
  let store = try standardLedgerStore(dayStart: configuration.dayStartsAt)
  let stored = try loadLedger(store)
  // Today's rules as the service resolves them (what config.json loosened comes from tomorrow),
  // with the counts each rule took over: what the meter enforces.
  let configured = configuration.rules
  let resolved = RulesInForce.resolved(configured: configured, ledger: stored, store: store)
  configuration.rules = resolved.rules
  let ledger = resolved.ledger ?? stored
  let today = resolved.today
  var status = ledger.status(of: configuration.rules, on: today)
  let now = store.clock.now()
  for index in status.rules.indices {
    status.rules[index].downtime = DowntimeStanding.of(
      status.rules[index].rule, at: now, dayStart: store.dayStart, in: .system)
  }
  let usage = await StatusUsage.find(
    bus: bus(invocation), ledger: ledger, status: status, configuration: configuration)

  if invocation[\.json] {
    // The JSON says it as "service": false; the line is for whoever reads stderr.
    if usage.noService { Output.say(StatusUsage.noService, to: .err, prefix: "shieldbridge status: ") }
    // machine output: one line of JSON, the same in every language.
    Output.out(usage.json(adding: status).serialized)
    return .success
  }
  // No rule at all (no config.json, or one without rules): said plainly, with where to start; the
  // built-in rule's limits are for shields that scripts ask for by name, not what a person set.
  if configuration.rules.isBuiltIn {
    for line in noRuleLines(hasFile: !loaded.isDefault) { Output.say(line) }
    if usage.noService { Output.say(StatusUsage.noService) }
    return .success
  }
  // For a person: a script reading --json has its configuration already.
  if loaded.isDefault { Output.say(noConfigurationLine) }
  // Said first and plainly: a stopped service is a brake that is off.
  if usage.noService { Output.say(StatusUsage.noService) }
  Output.say(CommandMessage(.today, ["date": "\(status.date)"]))
  for rule in usage.report.rules {
    Output.say(
      UsageText.lineMessage(
        rule: rule.rule, usedSeconds: rule.usedSeconds, limitSeconds: rule.limitSeconds, counting: rule.counting))
  }
  Output.say(usage.source)
  if let attention = usage.report.source.attention {
    Output.say(CommandMessage(.toDo, ["attention": attention]), indent: 2)
  }
  let limitations = usage.report.source.limitations.count
  if limitations > 0 {
    // The list is long and the same every time: `desktop` prints it, `status --json` carries it.
    Output.say(CommandMessage(.limitations, count: limitations), indent: 2)
  }
  for rule in status.rules {
    let apps =
      rule.rule.apps.isEmpty
      ? Output.text(CommandMessage(.everyApp)) : Output.list(rule.rule.apps.map(\.name))
    let sites = rule.rule.apps.flatMap(\.sites).map(\.name)
    Output.blankLine()
    Output.say(
      sites.isEmpty
        ? CommandMessage(.ruleApps, ["rule": rule.rule.name, "apps": apps])
        : CommandMessage(
          .ruleAppsSites, ["rule": rule.rule.name, "apps": apps, "sites": Output.list(sites)]))
    Output.say(CommandMessage(.limitToday, ["limit": UsageText.minutes(rule.limitTodayMinutes)]), indent: 2)
    Output.say(
      CommandMessage(
        .grantsToday,
        [
          "count": "\(rule.grantsToday)", "max": "\(rule.rule.maxGrantsPerDay)",
          "grant": UsageText.minutes(rule.rule.grantMinutes), "daily": dailyLimitText(rule),
        ]), indent: 2)
    if let later = tomorrow(of: rule.rule, configured: configured) {
      Output.say(CommandMessage(.fromTomorrow, ["changes": later]), indent: 2)
    }
    if let downtime = rule.downtime {
      Output.say(
        downtime.from.map { CommandMessage(.downtimeFromTo, ["from": "\($0)", "to": "\(downtime.to)"]) }
          ?? CommandMessage(.downtimeUntil, ["to": "\(downtime.to)"]), indent: 2)
    }
  }
  return .success
}

/// What `status` says when no rule is set: that nothing is counted, and where to start.
func noRuleLines(hasFile: Bool) -> [CommandMessage] {
  [CommandMessage(hasFile ? .noRuleInFile : .noRuleNoFile), CommandMessage(.runSetup)]
}

/// The day's daily limit: `5 minutes a day`, or where it differs by weekday, `5 minutes today (mon-fri)`.
private func dailyLimitText(_ status: RuleStatus) -> String {
  let limit = UsageText.minutes(status.dailyLimitMinutes)
  guard let days = status.dailyLimitDays else { return Output.text(CommandMessage(.dailyLimit, ["limit": limit])) }
  return Output.text(CommandMessage(.dailyLimitToday, ["limit": limit, "days": "\(days)"]))
}

/// A daily limit for every day: `10 minutes a day`, or `5 minutes a day on mon-fri, 30 minutes on sat,sun`.
private func dailyLimitText(_ limit: DailyLimit) -> String {
  guard !limit.isUniform else {
    return Output.text(CommandMessage(.dailyLimit, ["limit": UsageText.minutes(limit.lowest)]))
  }
  return Output.list(
    limit.groups.enumerated().map { index, group in
      Output.text(
        CommandMessage(
          index == 0 ? .dailyLimitOnDays : .limitOnDays,
          ["limit": UsageText.minutes(group.minutes), "days": "\(group.days)"]))
    })
}

/// What `config.json` loosens of `rule` (in force today), which takes effect at the next day's start; `nil`: nothing.
private func tomorrow(of rule: Rule, configured: RuleSet) -> String? {
  guard !configured.isBuiltIn, let next = configured.rules.first(where: { $0.name == rule.name }) else {
    return Output.text(CommandMessage(.ruleGone))
  }
  var changes: [CommandMessage] = []
  let limit = next.dailyLimit != rule.dailyLimit ? [dailyLimitText(next.dailyLimit)] : []
  if next.grantMinutes != rule.grantMinutes {
    changes.append(CommandMessage(.changeGrant, ["minutes": UsageText.minutes(next.grantMinutes)]))
  }
  if next.maxGrantsPerDay != rule.maxGrantsPerDay {
    changes.append(CommandMessage(.changeMaxGrants, count: next.maxGrantsPerDay))
  }
  if next.pauseSeconds != rule.pauseSeconds {
    changes.append(CommandMessage(.changePause, count: next.pauseSeconds, as: "seconds"))
  }
  if next.onLimit != rule.onLimit { changes.append(CommandMessage(.changeOnLimit, ["action": next.onLimit.rawValue])) }
  let dropped = rule.apps.filter { !next.apps.contains($0) }.map(\.name)
  if !dropped.isEmpty { changes.append(CommandMessage(.changeWithout, ["apps": Output.list(dropped)])) }
  let texts = limit + changes.map(Output.text)
  return texts.isEmpty ? nil : Output.list(texts)
}
