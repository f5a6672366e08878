import JSON
import Localization
import Model
import Posix
import ShieldBridge
import Store

extension Command {
  /// `shieldbridge report [--days N | --from DATE --to DATE] [--rule NAME] [--json] [--forget [--before DATE]]`.
  static let report = Command(
    name: "report",
    abstract: "Show the use of the last days: bars per day, totals, the change and the busiest app.",
    options: ReportOptions.self,
    discussion: """
      Reads the history the service keeps (history.json in the state folder,
      historyDays days) and today's figures from the ledger; no running
      service is needed. For each rule, one line per day with a bar drawn to
      scale and the day's limit marked, then the total, the daily average,
      the change from the period of the same length before, the app or site
      used most, the grants taken and the tasks declined. The bars are
      Unicode blocks where the locale is UTF-8 (LC_ALL, LC_CTYPE or LANG),
      ASCII otherwise.

      --json prints one line of JSON with every figure; its keys are in
      docs/using/report.md. --html FILE writes one self-contained page (the days
      as bars stacked by app, each day's limit as a line, and the same
      figures), readable by you alone, and prints its path; open it with
      xdg-open FILE. FILE is replaced, so it must be a regular file or
      not exist yet.

      --forget removes the history of the days before --before DATE
      (default: before today); today's use and grants stay, they are the
      limit.

      Exit status: 0, 64 for a wrong option, 78 when the configuration is
      wrong, 74 when the history or the ledger cannot be read (or FILE
      written), 73 when FILE is not a regular file.
      """,
    body: { invocation in try runReport(invocation) }
  )
}

/// The options of `shieldbridge report`.
private struct ReportOptions: OptionGroup {
  let days: Option<Int>
  let from: Option<String>
  let to: Option<String>
  let rule: Option<String>
  let json: Flag
  let html: Option<String>
  let forget: Flag
  let before: Option<String>

  init(declaring options: inout OptionDeclarations) {
    days = options.integer(
      "--days", "N", in: 1...HistoryReport.maximumDays, digitsOnly: true,
      "The last N days, today included (default 7).")
    from = options.value("--from", "DATE", "The first day, YYYY-MM-DD (with --to).")
    to = options.value("--to", "DATE", "The last day, YYYY-MM-DD (default today).")
    rule = options.value("--rule", "NAME", "Only the rule NAME.")
    json = options.flag("--json", "Print one line of JSON instead of text.")
    html = options.value("--html", "FILE", "Write the report as one page (inline SVG, no script) to FILE.")
    forget = options.flag("--forget", "Remove the history (of the days before --before; today stays).")
    before = options.value("--before", "DATE", "With --forget: the first day kept, YYYY-MM-DD.")
  }
}

private func day(_ text: String?, option: String) throws(CommandFailure) -> LocalDay? {
  guard let text else { return nil }
  guard let day = LocalDay(text) else {
    throw .usage(CommandMessage(.reportBadDate, ["option": option, "text": text]))
  }
  return day
}

private func runReport(_ invocation: Invocation<ReportOptions>) throws(CommandFailure) -> ExitCode {
  let configuration = try loadConfiguration()
  let store = try standardLedgerStore(dayStart: configuration.dayStartsAt)
  let history = HistoryStore(beside: store)
  let ledger = try loadLedger(store)
  let today = store.today(in: ledger)

  if invocation[\.forget] {
    let others = invocation.givenOptionNames.filter { $0 != "--forget" && $0 != "--before" }
    if let other = others.first { throw .usage(CommandMessage(.reportForgetOnly, ["other": other])) }
    let before = try day(invocation[\.before], option: "--before")
    var removed = 0
    do {
      let result = try history.update(keeping: configuration.historyDays, today: today) {
        removed = $0.forget(before: before, today: today)
      }
      for warning in result.warnings { Output.warn(warning) }
    } catch {
      throw CommandFailure(error)
    }
    let cut = min(before ?? today, today)
    // machine output: the line is rendered from the catalogs already (ReportText).
    Output.out(ReportText.forgotten(days: removed, before: cut, localizer: Localizer.current()))
    return .success
  }
  if invocation[\.before] != nil { throw .usage(CommandMessage(.reportBeforeWithForget)) }

  let range = try reportRange(invocation, today: today)
  let rules = configuration.rules
  if let name = invocation[\.rule], !rules.rules.contains(where: { $0.name == name }) {
    throw .usage(CommandMessage(.reportNoSuchRule, ["rule": name, "rules": Output.list(rules.rules.map(\.name))]))
  }
  let table: HistoryReport.Table
  do {
    // The range and the period before it, for the change: the only days read, straight into the figures.
    let read = try history.reportTable(
      ledger: ledger, rules: rules, from: range.from, to: range.to, rule: invocation[\.rule])
    for warning in read.warnings { Output.warn(warning) }
    table = read.table
  } catch {
    throw CommandFailure(error)
  }
  if let path = invocation[\.html] {
    if invocation[\.json] { throw .usage(CommandMessage(.reportExclusive, ["first": "--html", "second": "--json"])) }
    let page = ReportHTML.page(HistoryReport(table), localizer: Localizer.current())
    // The page replaces a file by rename: whatever else is at the path (a
    // symbolic link, a device, a FIFO, a folder) would be replaced by it.
    if let existing = try? FileSystem.status(path, followingLinks: false), existing.kind != .regular {
      throw CommandFailure(
        CommandMessage(.reportNotAFile, ["path": path, "kind": "\(existing.kind)"]), exitCode: .cannotCreate)
    }
    do {
      // Private like every state file: the browser xdg-open starts runs as the same user.
      try FileSystem.replaceAtomically(path, with: Array(page.utf8), permissions: 0o600)
    } catch {
      throw CommandFailure(
        CommandMessage(.reportCannotWrite, ["path": path, "error": "\(error.errno)"]), exitCode: .ioError)
    }
    // machine output: the page's path, for a script to open.
    Output.out(path)
  } else if invocation[\.json] {
    // Written from the figures as they are: no value per rule and day is made.
    // machine output: the same JSON in every language.
    ReportJSON.write(table) { Output.out(buffer: $0) }
  } else {
    let style: ReportText.Style = ReportText.isUTF8(environment: Environment.all) ? .blocks : .ascii
    let lines = ReportText.lines(HistoryReport(table), style: style, localizer: Localizer.current())
    // machine output: the lines are rendered from the catalogs already (ReportText).
    for line in lines { Output.out(line) }
  }
  return .success
}

/// The days `--days`, `--from` and `--to` choose: by default the last 7, today included.
private func reportRange(_ invocation: Invocation<ReportOptions>, today: LocalDay) throws(CommandFailure)
  -> (from: LocalDay, to: LocalDay)
{
  let from = try day(invocation[\.from], option: "--from")
  let to = try day(invocation[\.to], option: "--to") ?? today
  let days = try invocation[\.days]
  if from != nil, days != nil {
    throw .usage(CommandMessage(.reportExclusive, ["first": "--days", "second": "--from"]))
  }
  let first = from ?? to.adding(days: -((days ?? 7) - 1)) ?? to
  guard first <= to else {
    throw .usage(CommandMessage(.reportFromAfterTo, ["from": "\(first)", "to": "\(to)"]))
  }
  guard first.days(to: to) < HistoryReport.maximumDays else {
    throw .usage(CommandMessage(.reportTooManyDays, count: HistoryReport.maximumDays))
  }
  return (first, to)
}
