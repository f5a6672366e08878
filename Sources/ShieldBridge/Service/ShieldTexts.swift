public import DeepLink
public import Localization
import Model
public import Notifications
import ShieldCore

/// The notifications the service posts, in the user's language.
///
/// Texts are plain; the ``Presentation`` the client decides per server
/// escapes them where the server reads markup, moves the links into the body
/// where it has hyperlinks but no actions, and adds ``Notification/closeOnlyText``
/// where it has neither.
///
/// The shield is public so that `shieldbridge locales preview --post` shows
/// translators the very notification users get, not a second layout of it.
public struct ShieldTexts: Sendable {
  public let localizer: Localizer
  /// Shown by servers that list an application name.
  static let appName = "ShieldBridge"
  /// The desktop file `make install` puts in place.
  static let desktopEntry = "shieldbridge"

  /// Texts in the language of `localizer`.
  public init(localizer: Localizer) {
    self.localizer = localizer
  }

  /// The shield: the app is paused, a task unlocks more minutes; first the way
  /// out ("Close {app}", ``ShieldCore/WayOut``), then the puzzle link as the
  /// default action and a view link for each of `views` as a further action.
  ///
  /// - Parameters:
  ///   - app: The app shielded; `nil` or empty picks the texts without a name,
  ///     and offers no views (a view link needs an app).
  ///   - minutes: The minutes the puzzle unlocks; they also choose the plural forms.
  ///   - views: The names of the app views offered beside the puzzle.
  ///   - identifier: The fixed identifier: it goes into every link, and a
  ///     notification posted with it replaces the last one.
  ///   - router: Builds the links under its scheme.
  /// - Throws: ``DeepLinkError`` when a link cannot be built: minutes outside
  ///   ``LinkConfiguration/grantRange``, a view or an identifier the link grammar refuses.
  public func shield(
    app: String?, minutes: Int, views: [String], identifier: String, router: Router<ShieldAction>
  ) throws(DeepLinkError) -> Notification {
    let app = app.flatMap { $0.isEmpty ? nil : $0 }
    let puzzleLink = try router.link(for: .puzzle(app: app, grant: minutes, id: identifier)).description
    // The way out first (issue 25 point 1): servers that keep the order show it before the task.
    var actions = [
      Notification.Action(key: WayOut.actionKey, label: localizer.render(.actionWayOut(app: app))),
      Notification.Action(
        key: Notification.Action.defaultKey, label: localizer.render(.actionPuzzle), link: puzzleLink),
    ]
    if let app {
      for view in views {
        let link = try router.link(for: .view(app: app, view: view, id: identifier)).description
        actions.append(Notification.Action(key: link, label: localizer.render(.actionView(view: view)), link: link))
      }
    }
    var notification = base(
      summary: .shieldSummary(app: app), body: localizer.render(.shieldBody(app: app, minutes: minutes)),
      identifier: identifier)
    notification.actions = actions
    notification.closeOnlyText = localizer.render(.shieldCloseOnly)
    // The answer to something the user just tried to open: it waits for a click or a dismissal.
    notification.waitsForUser = true
    return notification
  }

  /// The shield during the rule's downtime: until when, said plainly, and the way out alone (no task).
  func downtimeShield(app: String?, until: String, identifier: String) -> Notification {
    let app = app.flatMap { $0.isEmpty ? nil : $0 }
    var notification = base(
      summary: .shieldSummary(app: app), body: localizer.render(.puzzleDowntime(app: app, time: until)),
      identifier: identifier)
    notification.actions = [
      Notification.Action(key: WayOut.actionKey, label: localizer.render(.actionWayOut(app: app)))
    ]
    notification.waitsForUser = true
    return notification
  }

  /// Today's grants are used up: said plainly, nothing to click.
  func usedUp(app: String?, identifier: String) -> Notification {
    base(summary: .shieldSummary(app: app), body: localizer.render(.shieldUsedUp(app: app)), identifier: identifier)
  }

  /// The rule is in downtime: no task until `until` (`07:00`), said plainly, nothing to click.
  func inDowntime(app: String?, until: String, identifier: String) -> Notification {
    base(
      summary: .shieldSummary(app: app), body: localizer.render(.puzzleDowntime(app: app, time: until)),
      identifier: identifier)
  }

  /// The rule is not at its limit: no task yet, said plainly, nothing to click.
  func notAtLimit(app: String?, identifier: String) -> Notification {
    base(
      summary: .shieldSummary(app: app), body: localizer.render(.puzzleNotAtLimit(app: app)), identifier: identifier)
  }

  /// The one warning before the limit: "{app}: 1 minute left today"; plain, nothing to click.
  ///
  /// It carries the shield's fixed identifier, so the shield that follows at
  /// the limit replaces it instead of piling up beside it.
  func warning(app: String?, minutes: Int, identifier: String) -> Notification {
    base(summary: .usageWarning(app: app, minutes: minutes), body: "", identifier: identifier)
  }

  /// No way to show the puzzle from here: how to go on in a terminal.
  func closeOnly(app: String?, identifier: String) -> Notification {
    base(summary: .shieldSummary(app: app), body: localizer.render(.shieldCloseOnly), identifier: identifier)
  }

  /// The task, asked in a notification with an inline reply field; it stays until answered.
  func puzzle(
    app: String?, minutes: Int, task: Puzzle, afterWrongAnswer: Bool, asked: Int = 0, waitSeconds: Int = 0,
    replacing id: UInt32
  ) -> Notification {
    var lines: [String] = []
    if afterWrongAnswer { lines.append(localizer.render(.puzzleWrong)) }
    lines.append(localizer.render(.puzzleIntro(app: app, minutes: minutes)))
    if let asked = ProductMessage.asked(times: asked) { lines.append(localizer.render(asked)) }
    lines.append(localizer.render(.puzzleQuestion(task: task.text)))
    // The pause (issue 25 point 4): said in the body and in the reply field.
    let wait = waitSeconds > 0 ? localizer.render(.puzzleWait(seconds: waitSeconds)) : nil
    if let wait { lines.append(wait) }
    var notification = base(summary: .puzzleTitle, body: lines.joined(separator: "\n"), identifier: nil)
    notification.replacesID = id
    notification.actions = [
      Notification.Action(key: Notification.Action.inlineReplyKey, label: localizer.render(.puzzlePrompt))
    ]
    notification.hints.replyPlaceholder = wait ?? localizer.render(.puzzleReplyPlaceholder)
    // The field stays until the task is solved or the notification dismissed.
    notification.hints.resident = true
    notification.expiry = .never
    return notification
  }

  /// The task is solved: what was unlocked, and that the way back is the user's own app switcher.
  func solved(app: String?, minutes: Int, replacing id: UInt32) -> Notification {
    var notification = base(
      summary: .puzzleTitle, body: localizer.render(.puzzleSolved(app: app, minutes: minutes)), identifier: nil)
    notification.replacesID = id
    return notification
  }

  /// The weekly summary: the week's total and the change from the week
  /// before, in the report's words, and a button that opens the picture of the
  /// week (`actionKey`). Plain: no praise, nothing urgent.
  func weekSummary(_ report: HistoryReport, identifier: String, actionKey: String) -> Notification {
    // The report's own words: the total, and the change where the week before has days on record.
    let body =
      ([localizer.render(ProductMessage.time(report.totalSeconds, as: .total))]
      + (report.changeSeconds.map { [localizer.render(ProductMessage.change(seconds: $0))] } ?? [])).joined(
        separator: "\n")
    var notification = base(
      summary: .weekSummary(from: report.from.description, to: report.to.description), body: body,
      identifier: identifier)
    notification.actions = [Notification.Action(key: actionKey, label: localizer.render(.weekShow))]
    return notification
  }

  private func base(summary: ProductMessage, body: String, identifier: String?) -> Notification {
    var notification = Notification(
      summary: localizer.render(summary), body: body, appName: Self.appName, identifier: identifier)
    // Restraint: normal urgency, no sound.
    notification.hints.urgency = .normal
    notification.hints.suppressSound = true
    notification.hints.desktopEntry = Self.desktopEntry
    return notification
  }
}
