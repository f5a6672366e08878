import Model
import Notifications
import ShieldCore
import Store

// The weekly summary (`weeklySummary` in config.json; docs/using/report.md).
extension ShieldService {
  /// The key of the summary's button; the listener hands its clicks here, not to the core.
  static let weekActionKey = "shieldbridge-week"
  /// The summary's fixed identifier: posted again, it replaces the last one instead of piling up.
  static let weekIdentifier = "weekly-summary"

  /// Tells the core the schedule in force and the week last shown: it
  /// decides when the summary is due (``ShieldCore/ShieldCore``), and its
  /// wait is one more deadline of the one timer. With no `weeklySummary`
  /// (the default) nothing waits for it.
  func tellWeeklySummary() async {
    let schedule = currentConfiguration.withLock { $0.weeklySummary }
    let lastShown = schedule == nil ? nil : WeeklySummaryStore(directory: options.ledger.directory).lastShown()
    await settle(.weeklySummary(schedule, lastShown: lastShown))
  }

  /// Posts the weekly summary of the 7 days ending `week` (the core's
  /// ``ShieldCore/ShieldEffect/postWeeklySummary(week:)``), and remembers
  /// the week in `weekly-summary.json` once it was posted.
  func postWeeklySummary(week: LocalDay) async -> [ShieldInput] {
    let report = weekReport(ending: week)
    let notification = texts.weekSummary(report, identifier: Self.weekIdentifier, actionKey: Self.weekActionKey)
    do {
      _ = try await post(notification)
    } catch {
      // The core tries again a minute later, while the week's summary is still due.
      log.warning("cannot post the weekly summary: \(error)")
      return [.weeklySummaryPosted(week: week, posted: false)]
    }
    let state = WeeklySummaryStore(directory: options.ledger.directory)
    do {
      try state.recordShown(week)
    } catch {
      log.warning("cannot remember that the weekly summary was shown (\(state.path): \(error))")
    }
    let text = notification.body.split(separator: "\n").joined(separator: "; ")
    log.notice("weekly summary posted for \(report.from) to \(report.to): \(text)")
    return [.weeklySummaryPosted(week: week, posted: true)]
  }

  /// The report of the 7 days ending `week`, as `shieldbridge report --to` gives it.
  private func weekReport(ending week: LocalDay) -> HistoryReport {
    let configuration = currentConfiguration.withLock { $0 }
    let from = week.adding(days: -6) ?? week
    let history = HistoryStore(beside: options.ledger)
    let stored = (try? history.load(only: (from.adding(days: -7) ?? from)...week).value) ?? History()
    let ledger = (try? options.ledger.load().value) ?? Ledger()
    return HistoryReport(history: stored, ledger: ledger, rules: configuration.rules, from: from, to: week)
  }

  /// The summary's button: writes the week's page (`shieldbridge report
  /// --html`, into the state folder as `week.html`) and opens it with `xdg-open`.
  nonisolated func openWeek(activationToken token: String?) {
    let directory = startOptions.ledger.directory
    guard let week = WeeklySummaryStore(directory: directory).lastShown(), let from = week.adding(days: -6) else {
      log.warning("the weekly summary's button was pressed, but no week was shown")
      return
    }
    let page = directory + "/week.html"
    let launcher = startOptions.launcher
    let log = self.log
    let write = [startOptions.executable, "report", "--html", page, "--from", "\(from)", "--to", "\(week)"]
    do {
      try launcher.launch(write, activationToken: nil) { termination in
        guard termination.isSuccess else {
          log.warning("cannot write the week's page: \(write.joined(separator: " ")) \(termination)")
          return
        }
        do {
          try launcher.launch(["xdg-open", page], activationToken: token) { termination in
            if !termination.isSuccess { log.warning("xdg-open \(page) \(termination)") }
          }
        } catch {
          log.warning("cannot start xdg-open: \(error)")
        }
      }
    } catch {
      log.warning("cannot write the week's page: \(error)")
    }
  }
}
