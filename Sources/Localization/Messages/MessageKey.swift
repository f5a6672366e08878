/// The product's messages: a stable key each (used by `locales preview --json`), and their English source.
///
/// This is the one place where the texts are defined; `locales/shieldbridge.pot`
/// follows it (a test keeps them in step), and ``ProductMessage`` renders them.
public enum MessageKey: String, CaseIterable, Hashable, Sendable {
  case shieldSummary = "shield.summary"
  case shieldBody = "shield.body"
  case shieldUsedUp = "shield.used-up"
  case shieldUnlocked = "shield.unlocked"
  case shieldCloseOnly = "shield.close-only"
  case actionPuzzle = "action.puzzle"
  case actionView = "action.view"
  case puzzleTitle = "puzzle.title"
  case puzzleQuestion = "puzzle.question"
  case puzzleReplyPlaceholder = "puzzle.reply-placeholder"
  case puzzlePrompt = "puzzle.prompt"
  case puzzleIntro = "puzzle.intro"
  case puzzleWrong = "puzzle.wrong"
  case puzzleSolved = "puzzle.solved"
  case puzzleNotAtLimit = "puzzle.not-at-limit"
  case usageWarning = "usage.warning"
  case serviceMissing = "service.missing"
  // brake
  case puzzleAsked = "puzzle.asked"
  case actionWayOut = "action.way-out"
  case puzzleWayOut = "puzzle.way-out"
  case puzzleWait = "puzzle.wait"
  // week
  case reportHeading = "report.heading"
  case reportDay = "report.day"
  case reportTotal = "report.total"
  case reportAverage = "report.average"
  case reportLess = "report.less"
  case reportMore = "report.more"
  case reportSame = "report.same"
  case reportBusiest = "report.busiest"
  case reportGrants = "report.grants"
  case reportDeclined = "report.declined"
  case reportForgotten = "report.forgotten"
  case reportNoRules = "report.no-rules"
  // popup
  case popupUsage = "popup.usage"
  case popupRule = "popup.rule"
  case popupUncovered = "popup.uncovered"
  case popupLimitSite = "popup.limit-site"
  case popupLimited = "popup.limited"
  case popupNoSite = "popup.no-site"
  case popupNoRule = "popup.no-rule"
  case weekSummary = "week.summary"
  case weekShow = "week.show"
  case puzzleDowntime = "puzzle.downtime"
  case reportLimit = "report.limit"
  case puzzleSolvedPage = "puzzle.solved-page"
  case reportDayUnderMinute = "report.day-under"
  case reportTotalUnderMinute = "report.total-under"
  case reportAverageUnderMinute = "report.average-under"
  case reportBusiestUnderMinute = "report.busiest-under"
  case reportNoRecord = "report.no-record"
  case reportLegendLimit = "report.legend-limit"
  case reportLegendUnsplit = "report.legend-unsplit"

  /// The message's role, source texts and comment for translators.
  public var definition: MessageDefinition {
    let noApp = MessageSource.noAppContext
    switch self {
    case .shieldSummary:
      return define(
        .summary, "Notification title when an app is blocked. {app} is the app's name.",
        MessageSource("{app} is paused"),
        MessageSource(context: noApp, "This app is paused"))
    case .shieldBody:
      return define(
        .body,
        "Notification text. {minutes} is the number of minutes a solved task unlocks; {app} is the app's name.",
        MessageSource(
          "Solve a short task to unlock {minutes} more minute for {app}.",
          plural: "Solve a short task to unlock {minutes} more minutes for {app}."),
        MessageSource(
          context: noApp, "Solve a short task to unlock {minutes} more minute.",
          plural: "Solve a short task to unlock {minutes} more minutes."))
    case .shieldUsedUp:
      return define(
        .body,
        "Notification text when no more time can be unlocked today. {app} is the app's name.",
        MessageSource("Today’s extra time for {app} is used up. The limit resets tomorrow."),
        MessageSource(
          context: noApp,
          "Today’s extra time for this app is used up. The limit resets tomorrow."))
    case .shieldUnlocked:
      return define(
        .body,
        "Shown on the browser's shield page when a solved task unlocked more time, just before the page goes back "
          + "to the site. {app} is the app's name.",
        MessageSource("More time for {app} is unlocked."),
        MessageSource(context: noApp, "More time for this app is unlocked."))
    case .shieldCloseOnly:
      return define(
        .body,
        "Notification text for desktops whose notifications have neither buttons nor links. "
          + "{command} is the command to type, “shieldbridge puzzle”; keep it as it is.",
        MessageSource("To unlock more time, run “{command}” in a terminal."))
    case .actionPuzzle:
      return define(
        .action, "Button on the notification that opens the task.", MessageSource("Solve a task"))
    case .actionView:
      return define(
        .action,
        "Button on the notification that opens a reduced view of the app. {view} is a configured view name such as “direct”.",
        MessageSource("Open {view}"))
    case .puzzleTitle:
      return define(.puzzle, "Title of the task window.", MessageSource("A short task"))
    case .puzzleQuestion:
      return define(
        .puzzle,
        "The arithmetic task. {task} is the sum or product to work out, such as “47 + 38”.",
        MessageSource("What is {task}?"))
    case .puzzleReplyPlaceholder:
      return define(
        .puzzle, "Hint inside the empty answer field of the notification.",
        MessageSource("Type the answer"))
    case .puzzlePrompt:
      return define(.puzzle, "Prompt before the answer in the terminal.", MessageSource("Answer:"))
    case .puzzleIntro:
      return define(
        .puzzle,
        "First line of the task. {minutes} is the number of minutes it unlocks; {app} is the app's name.",
        MessageSource(
          "Solve this task to unlock {minutes} more minute for {app}.",
          plural: "Solve this task to unlock {minutes} more minutes for {app}."),
        MessageSource(
          context: noApp, "Solve this task to unlock {minutes} more minute.",
          plural: "Solve this task to unlock {minutes} more minutes."))
    case .puzzleWrong:
      return define(
        .puzzle, "After a wrong answer. No hint, no judgement.",
        MessageSource("That is not the answer. Here is a new task."))
    case .puzzleSolved:
      return define(
        .puzzle,
        "After a right answer. Calm, without praise. {minutes} is the number of minutes unlocked; {app} is the app's name.",
        MessageSource(
          "{minutes} more minute for {app} is unlocked for today. Go back to it with your app switcher.",
          plural:
            "{minutes} more minutes for {app} are unlocked for today. Go back to it with your app switcher."
        ),
        MessageSource(
          context: noApp,
          "{minutes} more minute is unlocked for today. Go back to the app with your app switcher.",
          plural:
            "{minutes} more minutes are unlocked for today. Go back to the app with your app switcher."
        ))
    case .puzzleNotAtLimit:
      return define(
        .puzzle,
        "Instead of a task, when the app still has time left today: the task unlocks more time only once "
          + "today’s limit is used. {app} is the app's name.",
        MessageSource("{app} is not at its limit yet: the task unlocks time only once today’s limit is used."),
        MessageSource(
          context: noApp, "This app is not at its limit yet: the task unlocks time only once today’s limit is used."))
    case .usageWarning:
      return define(
        .summary,
        "Notification title shown once, shortly before an app's daily limit. Plain, no urgency. "
          + "{minutes} is the number of minutes left; {app} is the app's name.",
        MessageSource("{app}: {minutes} minute left today", plural: "{app}: {minutes} minutes left today"),
        MessageSource(context: noApp, "{minutes} minute left today", plural: "{minutes} minutes left today"))
    case .serviceMissing:
      return define(
        .body,
        "Shown by the browser extension when no ShieldBridge service runs, so that no time is counted and no "
          + "limit holds. Plain, no alarm.",
        MessageSource("No ShieldBridge service is running: nothing is counted."))
    // brake
    case .puzzleAsked:
      return define(
        .puzzle,
        "Shown with the task: how many times more time was asked for today, this time included. Plain, no "
          + "judgement, no praise. {count} is the number of times.",
        MessageSource(
          "You asked for more time {count} time today.", plural: "You asked for more time {count} times today."))
    case .actionWayOut:
      return define(
        .action,
        "Button on the notification, first, beside “Solve a task”: the way out, which closes (or keeps hidden) "
          + "the app instead of asking for more time. {app} is the app's name; without it, a plain “Not now”.",
        MessageSource("Close {app}"),
        MessageSource(context: noApp, "Not now"))
    case .puzzleWayOut:
      return define(
        .puzzle,
        "In the terminal, above the task: the way out instead of the task. Keep “q” as it is: it is what the user "
          + "types. {app} is the app's name.",
        MessageSource("To close {app} instead, type q."),
        MessageSource(context: noApp, "To stop here instead, type q."))
    case .puzzleWait:
      return define(
        .puzzle,
        "With the task while the rule's pause runs: the answer is taken only after it. Also the answer to a "
          + "reply that came too early. Plain, no urgency. {seconds} is the number of seconds left.",
        MessageSource(
          "Wait {seconds} second before you answer.", plural: "Wait {seconds} seconds before you answer."))
    // week
    case .reportHeading:
      return define(
        .body,
        "shieldbridge report: the heading of a rule's days. {rule} is the rule's name, {days} the number of days, "
          + "{from} and {to} dates such as 2026-11-29.",
        MessageSource("{rule}: {days} day, {from} to {to}", plural: "{rule}: {days} days, {from} to {to}"))
    case .reportDay:
      return define(
        .body, "shieldbridge report: the time used on one day, after its bar. {minutes} is a number of minutes.",
        MessageSource("{minutes} minute", plural: "{minutes} minutes"))
    case .reportTotal:
      return define(
        .body, "shieldbridge report: the time used in all the days shown. {minutes} is a number of minutes.",
        MessageSource("Total: {minutes} minute", plural: "Total: {minutes} minutes"))
    case .reportAverage:
      return define(
        .body, "shieldbridge report: the time used on an average day. {minutes} is a number of minutes.",
        MessageSource("On average {minutes} minute a day", plural: "On average {minutes} minutes a day"))
    case .reportLess:
      return define(
        .body,
        "shieldbridge report: the change from the period of the same length before, in minutes a day. "
          + "Plain, without praise.",
        MessageSource(
          "{minutes} minute a day less than the period before",
          plural: "{minutes} minutes a day less than the period before"))
    case .reportMore:
      return define(
        .body,
        "shieldbridge report: the change from the period of the same length before, in minutes a day. "
          + "Plain, without blame.",
        MessageSource(
          "{minutes} minute a day more than the period before",
          plural: "{minutes} minutes a day more than the period before"))
    case .reportSame:
      return define(
        .body, "shieldbridge report: the change is under a minute a day.",
        MessageSource("About the same as the period before"))
    case .reportBusiest:
      return define(
        .body,
        "shieldbridge report: the app or site used most in the days shown. {app} is its name, {minutes} its "
          + "minutes.",
        MessageSource("Used most: {app}, {minutes} minute", plural: "Used most: {app}, {minutes} minutes"))
    case .reportGrants:
      return define(
        .body, "shieldbridge report: how many times more time was unlocked. {count} is the number.",
        MessageSource("{count} grant taken", plural: "{count} grants taken"))
    case .reportDeclined:
      return define(
        .body, "shieldbridge report: tasks asked and not solved. {count} is the number.",
        MessageSource("{count} task declined", plural: "{count} tasks declined"))
    case .reportForgotten:
      return define(
        .body,
        "shieldbridge report --forget: what was removed. {days} is the number of days, {date} the first day kept.",
        MessageSource(
          "Forgot {days} day of history before {date}. Today’s use and grants are kept.",
          plural: "Forgot {days} days of history before {date}. Today’s use and grants are kept."))
    case .reportNoRules:
      return define(
        .body, "shieldbridge report without rules in config.json.",
        MessageSource("No rules are configured: nothing is metered and no history is kept."))
    // popup
    case .popupUsage:
      return define(
        .puzzle,
        "The browser extension's toolbar popup: today's use of the site's rule. {used} and {limit} are whole "
          + "minutes (used today, the daily limit); keep the unit short, as “min”, so that no plural is needed.",
        MessageSource("{used} min of {limit} min today"))
    case .popupRule:
      return define(
        .puzzle, "The browser extension's toolbar popup: the rule that counts the site. {rule} is its name.",
        MessageSource("Rule: {rule}"))
    case .popupUncovered:
      return define(
        .puzzle, "The browser extension's toolbar popup, for a site that no rule counts.",
        MessageSource("No rule limits this site."))
    case .popupLimitSite:
      return define(
        .action, "Button in the browser extension's toolbar popup that adds the site to the chosen rule.",
        MessageSource("Limit this site"))
    case .popupLimited:
      return define(
        .puzzle,
        "The browser extension's toolbar popup, after the site was added to a rule. {rule} is the rule's name.",
        MessageSource("This site now counts for {rule}."))
    case .popupNoSite:
      return define(
        .puzzle, "The browser extension's toolbar popup, when the tab shows no website.",
        MessageSource("This tab shows no website."))
    case .popupNoRule:
      return define(
        .puzzle,
        "The browser extension's toolbar popup, when no rule is configured yet. {command} is the command "
          + "to type, “shieldbridge setup”; keep it as it is.",
        MessageSource("There is no rule to add it to yet. Run “{command}” in a terminal."))
    case .weekSummary:
      return define(
        .summary,
        "Title of the weekly summary notification (its text is the report's total and change). {from} and {to} "
          + "are the week's first and last day, such as 2026-11-29.",
        MessageSource("The week from {from} to {to}"))
    case .weekShow:
      return define(
        .action,
        "Button of the weekly summary notification and of the browser's shield page: opens the page that "
          + "draws the week (shieldbridge report --html).",
        MessageSource("Show the week"))
    case .puzzleDowntime:
      return define(
        .puzzle,
        "Instead of a task, during the rule's downtime (hours without the app): no task unlocks it. "
          + "{app} is the app's name, {time} the local time the downtime ends, such as 07:00.",
        MessageSource("{app} is paused until {time}: no task unlocks it before then."),
        MessageSource(context: noApp, "This app is paused until {time}: no task unlocks it before then."))
    case .reportLimit:
      return define(
        .body,
        "shieldbridge report: the limit of one day, between its date and its bar (limits may differ by weekday "
          + "and with the grants). {minutes} is a number of minutes.",
        MessageSource("limit {minutes} minute", plural: "limit {minutes} minutes"))
    case .puzzleSolvedPage:
      return define(
        .puzzle,
        "After a right answer on the browser's shield page, whose tab goes back to the site by itself. "
          + "Calm, without praise. {minutes} is the number of minutes unlocked; {app} is the app's name.",
        MessageSource(
          "{minutes} more minute for {app} is unlocked for today. This tab goes back to the site by itself.",
          plural:
            "{minutes} more minutes for {app} are unlocked for today. This tab goes back to the site by itself."),
        MessageSource(
          context: noApp,
          "{minutes} more minute is unlocked for today. This tab goes back to the site by itself.",
          plural: "{minutes} more minutes are unlocked for today. This tab goes back to the site by itself."))
    case .reportDayUnderMinute:
      return define(
        .body,
        "shieldbridge report: the time used on one day, after its bar, when it is more than nothing but "
          + "less than a minute.",
        MessageSource("under a minute"))
    case .reportTotalUnderMinute:
      return define(
        .body,
        "shieldbridge report and the weekly summary: the time used in all the days shown, when it is less "
          + "than a minute.",
        MessageSource("Total: under a minute"))
    case .reportAverageUnderMinute:
      return define(
        .body,
        "shieldbridge report: the time used on an average day (of the days on record), when it is less "
          + "than a minute.",
        MessageSource("On average under a minute a day"))
    case .reportBusiestUnderMinute:
      return define(
        .body,
        "shieldbridge report: the app or site used most in the days shown, when that is less than a "
          + "minute. {app} is its name.",
        MessageSource("Used most: {app}, under a minute"))
    case .reportNoRecord:
      return define(
        .body,
        "shieldbridge report: a day before ShieldBridge recorded anything (before it was installed), "
          + "shown instead of its bar and time.",
        MessageSource("no record"))
    case .reportLegendLimit:
      return define(
        .body, "shieldbridge report --html: the legend of the red line drawn at each day's limit.",
        MessageSource("The day’s limit"))
    case .reportLegendUnsplit:
      return define(
        .body,
        "shieldbridge report --html: the legend of the grey part of a bar: time counted before the time "
          + "was split by app or site.",
        MessageSource("Not split by app"))
    }
  }

  private func define(
    _ role: MessageRole, _ comment: String, _ source: MessageSource,
    _ withoutApp: MessageSource? = nil
  ) -> MessageDefinition {
    MessageDefinition(
      key: self, role: role, comment: comment, source: source, withoutApp: withoutApp)
  }
}
