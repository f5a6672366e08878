/// One message of the product with its values: what the service, the puzzle and `locales preview` render.
///
/// An app name that is `nil`, empty or only spaces selects the variant without
/// it ("This app is paused"), so that no empty name or placeholder is shown.
public enum ProductMessage: Hashable, Sendable {
  /// Notification summary: "{app} is paused".
  case shieldSummary(app: String?)
  /// Notification body: "Solve a short task to unlock {minutes} more minutes for {app}."
  case shieldBody(app: String?, minutes: Int)
  /// Notification body when today's grants are used up.
  case shieldUsedUp(app: String?)
  /// On the browser's shield page once the rule is unlocked: "More time for {app} is unlocked."
  case shieldUnlocked(app: String?)
  /// Notification body for servers with neither actions nor body hyperlinks.
  case shieldCloseOnly
  /// Action label that opens the puzzle: "Solve a task".
  case actionPuzzle
  /// Action label that opens a configured view: "Open {view}".
  case actionView(view: String)
  /// Puzzle window title: "A short task".
  case puzzleTitle
  /// The task: "What is {task}?", with `task` such as "47 + 38".
  case puzzleQuestion(task: String)
  /// Placeholder of the inline-reply field: "Type the answer".
  case puzzleReplyPlaceholder
  /// Terminal prompt: "Answer:".
  case puzzlePrompt
  /// First line of the puzzle: "Solve this task to unlock {minutes} more minutes for {app}."
  case puzzleIntro(app: String?, minutes: Int)
  /// After a wrong answer: "That is not the answer. Here is a new task."
  case puzzleWrong
  /// After a right answer: "{minutes} more minutes for {app} are unlocked for today. …"
  case puzzleSolved(app: String?, minutes: Int)
  /// Instead of a task, while the meter has not seen the app at its limit:
  /// "{app} is not at its limit yet: the task unlocks time only once today’s limit is used."
  case puzzleNotAtLimit(app: String?)
  /// The warning before the limit: "{app}: {minutes} minutes left today".
  case usageWarning(app: String?, minutes: Int)
  /// In the browser when no service runs: "No ShieldBridge service is running: nothing is counted."
  case serviceMissing
  // brake
  /// With the task: "You asked for more time {count} times today" (`times`: this request included).
  case puzzleAsked(times: Int)
  /// The shield's way out, offered first: "Close {app}", or "Not now" without an app.
  case actionWayOut(app: String?)
  /// In the terminal, above the task: "To close {app} instead, type q."
  case puzzleWayOut(app: String?)
  /// While the pause runs: "Wait {seconds} seconds before you answer."
  case puzzleWait(seconds: Int)

  /// What a task says of the requests for more time today, `times` this one
  /// included: nothing for the first request of the day (there is nothing to
  /// count yet), ``puzzleAsked(times:)`` from the second on. The terminal, the
  /// shield page and the notification all ask here.
  public static func asked(times: Int) -> ProductMessage? {
    times >= 2 ? .puzzleAsked(times: times) : nil
  }
  // week
  /// `shieldbridge report`: "{rule}: {days} days, {from} to {to}".
  case reportHeading(rule: String, days: Int, from: String, to: String)
  /// `shieldbridge report`: a day's time, "{minutes} minutes".
  case reportDay(minutes: Int)
  /// `shieldbridge report`: "Total: {minutes} minutes".
  case reportTotal(minutes: Int)
  /// `shieldbridge report`: "On average {minutes} minutes a day".
  case reportAverage(minutes: Int)
  /// `shieldbridge report`: "{minutes} minutes a day less than the period before".
  case reportLess(minutes: Int)
  /// `shieldbridge report`: "{minutes} minutes a day more than the period before".
  case reportMore(minutes: Int)
  /// `shieldbridge report`: "About the same as the period before".
  case reportSame
  /// `shieldbridge report`: "Used most: {app}, {minutes} minutes".
  case reportBusiest(app: String?, minutes: Int)
  /// `shieldbridge report`: "{count} grants taken".
  case reportGrants(count: Int)
  /// `shieldbridge report`: "{count} tasks declined".
  case reportDeclined(count: Int)
  /// `shieldbridge report --forget`: "Forgot {days} days of history before {date}. …".
  case reportForgotten(days: Int, date: String)
  /// `shieldbridge report` without rules.
  case reportNoRules
  // popup
  /// In the extension's popup: "{used} min of {limit} min today".
  case popupUsage(used: Int, limit: Int)
  /// In the extension's popup: "Rule: {rule}".
  case popupRule(rule: String)
  /// In the extension's popup: "No rule limits this site."
  case popupUncovered
  /// The popup's button: "Limit this site".
  case popupLimitSite
  /// In the popup once the site was added: "This site now counts for {rule}."
  case popupLimited(rule: String)
  /// In the popup for a tab without a website: "This tab shows no website."
  case popupNoSite
  /// In the popup without a configured rule: "There is no rule to add it to yet. Run “{command}” in a terminal."
  case popupNoRule
  /// The weekly summary's title: "The week from {from} to {to}".
  case weekSummary(from: String, to: String)
  /// The button that opens the picture of the week: "Show the week".
  case weekShow

  /// Instead of a task during downtime: "{app} is paused until {time}: no task unlocks it before then."
  case puzzleDowntime(app: String?, time: String)
  /// `shieldbridge report`: a day's limit, "limit {minutes} minutes".
  case reportLimit(minutes: Int)
  /// After a right answer on the shield page: "{minutes} more minutes for {app} are unlocked for today. This tab …"
  case puzzleSolvedPage(app: String?, minutes: Int)
  /// `shieldbridge report`: a day's time of a few seconds, "under a minute".
  case reportDayUnderMinute
  /// `shieldbridge report`: "Total: under a minute".
  case reportTotalUnderMinute
  /// `shieldbridge report`: "On average under a minute a day".
  case reportAverageUnderMinute
  /// `shieldbridge report`: "Used most: {app}, under a minute".
  case reportBusiestUnderMinute(app: String?)
  /// `shieldbridge report`: a day before the first record, "no record".
  case reportNoRecord
  /// `report --html`: the legend of the limit line, "The day’s limit".
  case reportLegendLimit
  /// `report --html`: the legend of the time without a split, "Not split by app".
  case reportLegendUnsplit

  /// Whole minutes, to the nearest: how the report and the weekly summary show seconds.
  public static func minutes(_ seconds: Int) -> Int {
    (max(0, seconds) + 30) / 60
  }

  /// How the report and the weekly summary write a time: whole minutes, to
  /// the nearest, except that a time of more than nothing and less than a
  /// minute is "under a minute" (never "0 minutes" for 25 seconds, nor "1
  /// minute" for 40). The four places a time is written choose their words here.
  public enum TimeUse: Sendable {
    /// A day's time, after its bar.
    case day
    /// The total of the days shown.
    case total
    /// The average of the days on record.
    case average
    /// The time of the app used most.
    case busiest(app: String?)
  }

  /// `seconds` in the words of `use`: ``reportDay(minutes:)`` and its kin, or their "under a minute".
  public static func time(_ seconds: Int, as use: TimeUse) -> ProductMessage {
    let underMinute = seconds > 0 && seconds < 60
    switch use {
    case .day: return underMinute ? .reportDayUnderMinute : .reportDay(minutes: minutes(seconds))
    case .total: return underMinute ? .reportTotalUnderMinute : .reportTotal(minutes: minutes(seconds))
    case .average: return underMinute ? .reportAverageUnderMinute : .reportAverage(minutes: minutes(seconds))
    case .busiest(let app):
      return underMinute ? .reportBusiestUnderMinute(app: app) : .reportBusiest(app: app, minutes: minutes(seconds))
    }
  }

  /// The change from the period before in whole minutes a day: less, more,
  /// or, under a minute, about the same (the report's and the weekly summary's wording).
  public static func change(seconds: Int) -> ProductMessage {
    let minutes = abs(seconds) / 60
    guard minutes > 0 else { return .reportSame }
    return seconds < 0 ? .reportLess(minutes: minutes) : .reportMore(minutes: minutes)
  }

  /// The command that `popupNoRule` tells the user to run.
  public static let setupCommand = "shieldbridge setup"

  /// The command that `shieldCloseOnly` tells the user to run.
  public static let puzzleCommand = "shieldbridge puzzle"

  /// The message's stable key, such as `shield.summary`.
  public var key: MessageKey {
    switch self {
    case .shieldSummary: .shieldSummary
    case .shieldBody: .shieldBody
    case .shieldUsedUp: .shieldUsedUp
    case .shieldUnlocked: .shieldUnlocked
    case .shieldCloseOnly: .shieldCloseOnly
    case .actionPuzzle: .actionPuzzle
    case .actionView: .actionView
    case .puzzleTitle: .puzzleTitle
    case .puzzleQuestion: .puzzleQuestion
    case .puzzleReplyPlaceholder: .puzzleReplyPlaceholder
    case .puzzlePrompt: .puzzlePrompt
    case .puzzleIntro: .puzzleIntro
    case .puzzleWrong: .puzzleWrong
    case .puzzleSolved: .puzzleSolved
    case .puzzleNotAtLimit: .puzzleNotAtLimit
    case .usageWarning: .usageWarning
    case .serviceMissing: .serviceMissing
    case .puzzleAsked: .puzzleAsked
    case .actionWayOut: .actionWayOut
    case .puzzleWayOut: .puzzleWayOut
    case .puzzleWait: .puzzleWait
    // week
    case .reportHeading: .reportHeading
    case .reportDay: .reportDay
    case .reportTotal: .reportTotal
    case .reportAverage: .reportAverage
    case .reportLess: .reportLess
    case .reportMore: .reportMore
    case .reportSame: .reportSame
    case .reportBusiest: .reportBusiest
    case .reportGrants: .reportGrants
    case .reportDeclined: .reportDeclined
    case .reportForgotten: .reportForgotten
    case .reportNoRules: .reportNoRules
    // popup
    case .popupUsage: .popupUsage
    case .popupRule: .popupRule
    case .popupUncovered: .popupUncovered
    case .popupLimitSite: .popupLimitSite
    case .popupLimited: .popupLimited
    case .popupNoSite: .popupNoSite
    case .popupNoRule: .popupNoRule
    case .weekSummary: .weekSummary
    case .weekShow: .weekShow
    case .puzzleDowntime: .puzzleDowntime
    case .reportLimit: .reportLimit
    case .puzzleSolvedPage: .puzzleSolvedPage
    case .reportDayUnderMinute: .reportDayUnderMinute
    case .reportTotalUnderMinute: .reportTotalUnderMinute
    case .reportAverageUnderMinute: .reportAverageUnderMinute
    case .reportBusiestUnderMinute: .reportBusiestUnderMinute
    case .reportNoRecord: .reportNoRecord
    case .reportLegendLimit: .reportLegendLimit
    case .reportLegendUnsplit: .reportLegendUnsplit
    }
  }

  /// Every message once, in key order, with the given values: what a preview shows.
  public static func all(app: String?, minutes: Int, view: String, task: String) -> [ProductMessage] {
    [
      .shieldSummary(app: app), .shieldBody(app: app, minutes: minutes), .shieldUsedUp(app: app),
      .shieldUnlocked(app: app), .shieldCloseOnly,
      .actionPuzzle, .actionView(view: view), .puzzleTitle, .puzzleQuestion(task: task),
      .puzzleReplyPlaceholder,
      .puzzlePrompt, .puzzleIntro(app: app, minutes: minutes), .puzzleWrong,
      .puzzleSolved(app: app, minutes: minutes), .puzzleNotAtLimit(app: app),
      .usageWarning(app: app, minutes: minutes), .serviceMissing,
      .puzzleAsked(times: minutes), .actionWayOut(app: app), .puzzleWayOut(app: app),
      .puzzleWait(seconds: minutes),
      // week
      .reportHeading(rule: "social", days: minutes, from: "2026-11-23", to: "2026-11-29"),
      .reportDay(minutes: minutes), .reportTotal(minutes: minutes), .reportAverage(minutes: minutes),
      .reportLess(minutes: minutes), .reportMore(minutes: minutes), .reportSame,
      // The busiest app always has a name (config.json's): a blank one is shown as an example.
      .reportBusiest(app: Localizer.clean(app ?? "").isEmpty ? "Instagram" : app, minutes: minutes),
      .reportGrants(count: minutes), .reportDeclined(count: minutes),
      .reportForgotten(days: minutes, date: "2026-11-29"), .reportNoRules,
      // popup
      .popupUsage(used: max(minutes - 1, 0), limit: minutes), .popupRule(rule: "social"), .popupUncovered,
      .popupLimitSite, .popupLimited(rule: "social"), .popupNoSite, .popupNoRule,
      .weekSummary(from: "2026-11-23", to: "2026-11-29"), .weekShow,
      .puzzleDowntime(app: app, time: "07:00"), .reportLimit(minutes: minutes),
      .puzzleSolvedPage(app: app, minutes: minutes),
      .reportDayUnderMinute, .reportTotalUnderMinute, .reportAverageUnderMinute,
      .reportBusiestUnderMinute(app: Localizer.clean(app ?? "").isEmpty ? "Instagram" : app), .reportNoRecord,
      .reportLegendLimit, .reportLegendUnsplit,
    ]
  }

  /// The app name, when the message has one and it is not blank.
  var appName: String? {
    let app: String??
    switch self {
    case .shieldSummary(let name), .shieldUsedUp(let name), .shieldUnlocked(let name), .puzzleNotAtLimit(let name),
      .actionWayOut(let name), .puzzleWayOut(let name), .puzzleDowntime(let name, _):
      app = name
    case .shieldBody(let name, _), .puzzleIntro(let name, _), .puzzleSolved(let name, _),
      .usageWarning(let name, _), .reportBusiest(let name, _), .puzzleSolvedPage(let name, _):
      app = name
    case .reportBusiestUnderMinute(let name):
      app = name
    default: app = nil
    }
    guard let name = app ?? nil else { return nil }
    let cleaned = Localizer.clean(name)
    return cleaned.isEmpty ? nil : cleaned
  }

  /// The number that chooses the plural form, for plural messages.
  var count: Int? {
    switch self {
    case .shieldBody(_, let minutes), .puzzleIntro(_, let minutes), .puzzleSolved(_, let minutes),
      .usageWarning(_, let minutes):
      minutes
    case .puzzleAsked(let times): times
    case .puzzleWait(let seconds): seconds
    case .reportLimit(let minutes): minutes
    case .puzzleSolvedPage(_, let minutes): minutes
    // week
    case .reportDay(let minutes), .reportTotal(let minutes), .reportAverage(let minutes), .reportLess(let minutes),
      .reportMore(let minutes), .reportBusiest(_, let minutes):
      minutes
    case .reportHeading(_, let days, _, _), .reportForgotten(let days, _): days
    case .reportGrants(let count), .reportDeclined(let count): count
    default: nil
    }
  }

  /// The placeholder that shows ``count``: `minutes`, except where the number counts days, times or seconds.
  var countPlaceholder: String {
    switch self {
    case .reportHeading, .reportForgotten: "days"
    case .puzzleAsked, .reportGrants, .reportDeclined: "count"
    case .puzzleWait: "seconds"
    default: "minutes"
    }
  }

  /// The source to render: the variant without app name when the name is missing.
  var source: MessageSource {
    let definition = key.definition
    if appName == nil, let withoutApp = definition.withoutApp { return withoutApp }
    return definition.source
  }

  /// The placeholder values.
  var values: [String: String] {
    var values: [String: String] = [:]
    if let appName { values["app"] = appName }
    if let count { values[countPlaceholder] = String(count) }
    switch self {
    case .shieldCloseOnly: values["command"] = Self.puzzleCommand
    case .actionView(let view):
      let cleaned = Localizer.clean(view)
      values["view"] = cleaned.isEmpty ? "home" : cleaned
    case .puzzleQuestion(let task): values["task"] = Localizer.clean(task)
    // week
    case .reportHeading(let rule, _, let from, let to):
      values["rule"] = Localizer.clean(rule)
      values["from"] = Localizer.clean(from)
      values["to"] = Localizer.clean(to)
    case .reportForgotten(_, let date): values["date"] = Localizer.clean(date)
    case .popupUsage(let used, let limit):
      values["used"] = String(used)
      values["limit"] = String(limit)
    case .popupRule(let rule), .popupLimited(let rule): values["rule"] = Localizer.clean(rule)
    case .popupNoRule: values["command"] = Self.setupCommand
    case .weekSummary(let from, let to):
      values["from"] = Localizer.clean(from)
      values["to"] = Localizer.clean(to)
    case .puzzleDowntime(_, let time): values["time"] = Localizer.clean(time)
    default: break
    }
    return values
  }
}
