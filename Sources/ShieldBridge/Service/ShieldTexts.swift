import Brake
import Localization
import Notifications

/// The notifications the service posts, in the user's language.
///
/// Texts are plain; the ``Presentation`` the client decides per server
/// escapes them where the server reads markup, moves the links into the body
/// where it has hyperlinks but no actions, and adds ``Notification/closeOnlyText``
/// where it has neither.
struct ShieldTexts: Sendable {
  let localizer: Localizer
  /// Shown by servers that list an application name.
  static let appName = "ShieldBridge"
  /// The desktop file `make install` puts in place.
  static let desktopEntry = "shieldbridge"

  /// The shield: the app is paused, a task unlocks more minutes; the puzzle link
  /// as the default action and each configured view as a further action.
  func shield(app: String?, minutes: Int, puzzleLink: String, views: [(name: String, link: String)], identifier: String)
    -> Notification
  {
    var actions = [
      Notification.Action(
        key: Notification.Action.defaultKey, label: localizer.render(.actionPuzzle), link: puzzleLink)
    ]
    for view in views {
      actions.append(
        Notification.Action(key: view.link, label: localizer.render(.actionView(view: view.name)), link: view.link))
    }
    var notification = base(
      summary: .shieldSummary(app: app), body: localizer.render(.shieldBody(app: app, minutes: minutes)),
      identifier: identifier)
    notification.actions = actions
    notification.closeOnlyText = localizer.render(.shieldCloseOnly)
    return notification
  }

  /// Today's grants are used up: said plainly, nothing to click.
  func usedUp(app: String?, identifier: String) -> Notification {
    base(summary: .shieldSummary(app: app), body: localizer.render(.shieldUsedUp(app: app)), identifier: identifier)
  }

  /// No way to show the puzzle from here: how to go on in a terminal.
  func closeOnly(app: String?, identifier: String) -> Notification {
    base(summary: .shieldSummary(app: app), body: localizer.render(.shieldCloseOnly), identifier: identifier)
  }

  /// The task, asked in a notification with an inline reply field; it stays until answered.
  func puzzle(app: String?, minutes: Int, task: Puzzle, afterWrongAnswer: Bool, replacing id: UInt32) -> Notification {
    var lines: [String] = []
    if afterWrongAnswer { lines.append(localizer.render(.puzzleWrong)) }
    lines.append(localizer.render(.puzzleIntro(app: app, minutes: minutes)))
    lines.append(localizer.render(.puzzleQuestion(task: task.text)))
    var notification = base(summary: .puzzleTitle, body: lines.joined(separator: "\n"), identifier: nil)
    notification.replacesID = id
    notification.actions = [
      Notification.Action(key: Notification.Action.inlineReplyKey, label: localizer.render(.puzzlePrompt))
    ]
    notification.hints.replyPlaceholder = localizer.render(.puzzleReplyPlaceholder)
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
