import Model
import Notifications
import Posix
import Store

// The weekly summary (`weeklySummary` in config.json; docs/using/report.md).
extension ShieldService {
  /// The key of the summary's button; the listener hands its clicks here, not to the core.
  static let weekActionKey = "shieldbridge-week"
  /// The summary's fixed identifier: posted again, it replaces the last one instead of piling up.
  static let weekIdentifier = "weekly-summary"

  /// The longest wait between two checks: the wall clock can be set, or jump,
  /// while the service sleeps on a clock that does not follow it.
  static let longestWeeklyWait = Duration.seconds(3600)

  /// Checks whether the weekly summary is due now, then sleeps until its next
  /// time (at most ``longestWeeklyWait``) and checks again, while the service
  /// runs. With no `weeklySummary` configured (the default) nothing waits: a
  /// reload that sets one starts the checks again (``reloadConfiguration()``),
  /// so that an idle service has no timer to wake for.
  func startWeeklySummary() {
    weeklySummaryTask?.cancel()
    weeklySummaryTask = nil
    guard currentConfiguration.withLock({ $0.weeklySummary }) != nil else { return }
    weeklySummaryTask = Task { [weak self] in
      var first = true
      while !Task.isCancelled {
        guard let service = self, let wait = await service.postWeeklySummaryIfDue(saying: first) else { return }
        first = false
        try? await Task.sleep(for: wait)
      }
    }
  }

  func stopWeeklySummary() {
    weeklySummaryTask?.cancel()
    weeklySummaryTask = nil
  }

  /// Posts the weekly summary when ``WeeklySchedule/due(at:lastShown:)`` says
  /// so, and remembers the week in `weekly-summary.json` once it was posted.
  /// With `saying` (the check at the start) the debug log says what was decided.
  ///
  /// - Returns: How long to wait before the next check: to the next time of
  ///   the schedule, at most ``longestWeeklyWait``, or a minute after a post
  ///   that failed; `nil` when no `weeklySummary` is configured.
  @discardableResult
  func postWeeklySummaryIfDue(saying: Bool = false) async -> Duration? {
    guard let schedule = currentConfiguration.withLock({ $0.weeklySummary }) else { return nil }
    let state = WeeklySummaryStore(directory: options.ledger.directory)
    let lastShown = state.lastShown()
    let check = schedule.check(
      at: options.ledger.clock.now(), lastShown: lastShown, longest: Self.longestWeeklyWait, in: .system)
    guard let week = check.due else {
      if saying {
        let shown = lastShown.map { "already shown for \($0)" } ?? "none shown yet"
        log.debug("weekly summary: \(shown); none due at \(check.now), the next at \(check.next)")
      }
      return check.wait
    }
    let report = weekReport(ending: week)
    let notification = texts.weekSummary(report, identifier: Self.weekIdentifier, actionKey: Self.weekActionKey)
    do {
      _ = try await post(notification)
    } catch {
      // Tried again a minute later, while the week's summary is still due.
      log.warning("cannot post the weekly summary: \(error)")
      return .seconds(60)
    }
    do {
      try state.recordShown(week)
    } catch {
      log.warning("cannot remember that the weekly summary was shown (\(state.path): \(error))")
    }
    let text = notification.body.split(separator: "\n").joined(separator: "; ")
    log.notice("weekly summary posted for \(report.from) to \(report.to): \(text)")
    return check.wait
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
