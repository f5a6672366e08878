/// The command line's messages: what `status`, `rules`, `setup`, `desktop` and `doctor` answer, `puzzle`'s notes,
/// and the errors a user causes.
///
/// Declared apart from ``MessageKey`` (the shield, the task, the report and the
/// browser extension's texts) because the browser extension's `_locales` take
/// only those; the template and the catalogs hold both. The English is defined
/// here once; ``CommandMessage`` gives each its values, and `--help` texts,
/// which stay English, are not here (docs/developing/translating.md).
public enum CommandKey: String, CaseIterable, Hashable, Sendable {
  // errors
  case unknownCommand = "error.unknown-command"
  case missingCommand = "error.missing-command"
  case unknownOption = "error.unknown-option"
  case takesNoValue = "error.takes-no-value"
  case needsValue = "error.needs-value"
  case missingArgument = "error.missing-argument"
  case unexpectedArgument = "error.unexpected-argument"
  case bothTakeValues = "error.both-take-values"
  case numberRange = "error.number-range"
  case choice = "error.choice"
  case optionProblem = "error.option-problem"
  case configRefused = "error.config-refused"
  case configRefusedFile = "error.config-refused-file"
  case warning = "error.warning"
  case ledgerLocked = "error.ledger-locked"
  case configLocked = "error.config-locked"
  case noConfigDirectory = "error.no-config-directory"
  case noStateDirectory = "error.no-state-directory"
  case noSuchRule = "error.no-such-rule"
  case noSuchApp = "error.no-such-app"
  case noSuchSite = "error.no-such-site"
  case unkeepable = "error.unkeepable"
  case needAppOrSite = "error.need-app-or-site"
  case giveAtLeastOne = "error.give-at-least-one"
  case notCovered = "error.not-covered"
  case appNeeded = "error.app-needed"
  case noBusForService = "error.service-no-bus"
  case serviceBadAnswer = "error.service-bad-answer"
  case noServiceRunning = "error.service-not-running"
  case serviceNoAnswer = "error.service-no-answer"
  case serviceConfigurationRefused = "error.service-configuration-refused"
  case serviceCannotStart = "error.service-cannot-start"
  // config.json's problems
  case wholeNumber = "config.whole-number"
  case wholeNumberDigits = "config.whole-number-digits"
  case configChoice = "config.choice"
  case notJSON = "config.not-json"
  case noRules = "config.no-rules"
  case noApps = "config.no-apps"
  case unknownKey = "config.unknown-key"
  case unknownKeySuggestion = "config.unknown-key-suggestion"
  // durations typed on the command line
  case durationEmpty = "duration.error-empty"
  case durationTooLong = "duration.error-too-long"
  case durationNotDuration = "duration.error-not-duration"
  case durationNoUnit = "duration.error-no-unit"
  case durationNotWhole = "duration.error-not-whole"
  case durationNotWholeUnder = "duration.error-not-whole-under"
  // lists
  case listMore = "list.more"
  // durations
  case hours = "duration.hours"
  case minutes = "duration.minutes"
  case seconds = "duration.seconds"
  case minutesWord = "duration.minutes-word"
  // status
  case noService = "status.no-service"
  case noConfiguration = "status.no-configuration"
  case noRuleInFile = "status.no-rule-in-file"
  case noRuleNoFile = "status.no-rule-no-file"
  case runSetup = "status.run-setup"
  case today = "status.today"
  case usage = "status.usage"
  case usageOver = "status.usage-over"
  case usageCounting = "status.usage-counting"
  case countedFocus = "status.counted-focus"
  case countedKWin = "status.counted-kwin"
  case countedProcesses = "status.counted-processes"
  case countedProcessesChosen = "status.counted-processes-chosen"
  case countedOther = "status.counted-other"
  case notCountedLedger = "status.not-counted-ledger"
  case notCountedNoRule = "status.not-counted-no-rule"
  case notCountedOff = "status.not-counted-off"
  case notCountedNoDesktop = "status.not-counted-no-desktop"
  case seeDoctor = "status.see-doctor"
  case reasonNotRunning = "status.reason-not-running"
  case reasonUnreadable = "status.reason-unreadable"
  case reasonOlder = "status.reason-older"
  case reasonNoAnswer = "status.reason-no-answer"
  case toDo = "status.to-do"
  case limitations = "status.limitations"
  case ruleApps = "status.rule-apps"
  case ruleAppsSites = "status.rule-apps-sites"
  case everyApp = "status.every-app"
  case limitToday = "status.limit-today"
  case glanceLeft = "glance.left"
  case glanceUsedUp = "glance.used-up"
  case glanceDowntime = "glance.downtime"
  case grantsToday = "status.grants-today"
  case dailyLimit = "status.daily-limit"
  case dailyLimitToday = "status.daily-limit-today"
  case dailyLimitOnDays = "status.daily-limit-on-days"
  case limitOnDays = "status.limit-on-days"
  case fromTomorrow = "status.from-tomorrow"
  case ruleGone = "status.rule-gone"
  case changeGrant = "status.change-grant"
  case changeMaxGrants = "status.change-max-grants"
  case changePause = "status.change-pause"
  case changeOnLimit = "status.change-on-limit"
  case changeWithout = "status.change-without"
  case downtimeFromTo = "status.downtime-from-to"
  case downtimeUntil = "status.downtime-until"
  // rules
  case ruleAdded = "rules.added"
  case ruleChanged = "rules.changed"
  case ruleRemoved = "rules.removed"
  case ruleStarted = "rules.started"
  case appsRemoved = "rules.apps-removed"
  case sitesAdded = "rules.sites-added"
  case sitesRemoved = "rules.sites-removed"
  case appAdded = "rules.app-added"
  case appMerged = "rules.app-merged"
  case appCovered = "rules.app-covered"
  case noRule = "rules.no-rule"
  case startRule = "rules.start"
  case loosens = "rules.loosens"
  case ruleLineApps = "rules.line-apps"
  case ruleLineSites = "rules.line-sites"
  case ruleLineAppsSites = "rules.line-apps-sites"
  case appWithNames = "rules.app-with-names"
  case appClass = "rules.app-class"
  case appID = "rules.app-id"
  case appExecutable = "rules.app-executable"
  case settings = "rules.settings"
  case settingsNoWarning = "rules.settings-no-warning"
  case limitADay = "rules.limit-a-day"
  // doctor
  case bus = "doctor.bus"
  case busNone = "doctor.bus-none"
  case server = "doctor.server"
  case serverOwned = "doctor.server-owned"
  case serverNone = "doctor.server-none"
  case serverActivatable = "doctor.server-activatable"
  case capabilities = "doctor.capabilities"
  case capabilitiesNone = "doctor.capabilities-none"
  case presentation = "doctor.presentation"
  case clicksActions = "doctor.clicks-actions"
  case clicksLink = "doctor.clicks-link"
  case clicksCloseOnly = "doctor.clicks-close-only"
  case problem = "doctor.problem"
  case serviceRunning = "doctor.service-running"
  case serviceRunningLog = "doctor.service-running-log"
  case serviceNotRunning = "doctor.service-not-running"
  case serviceNoBus = "doctor.service-no-bus"
  case host = "doctor.host"
  case hostMissing = "doctor.host-missing"
  case extensionAnswers = "doctor.extension-answers"
  case extensionNone = "doctor.extension-none"
  case startSystemd = "doctor.start-systemd"
  case startAutostart = "doctor.start-autostart"
  case startNothing = "doctor.start-nothing"
  case extensionPackaged = "doctor.extension-packaged"
  case extensionUnpacked = "doctor.extension-unpacked"
  case extensionSourceTree = "doctor.extension-source-tree"

  // setup
  case setupIntro = "setup.intro"
  case setupCommonApps = "setup.common-apps"
  case setupEntry = "setup.entry"
  case setupAnother = "setup.another"
  case setupWhich = "setup.which"
  case setupChooseOne = "setup.choose-one"
  case setupNotInList = "setup.not-in-list"
  case setupOther = "setup.other"
  case setupLimitQuestion = "setup.limit-question"
  case setupGrantQuestion = "setup.grant-question"
  case setupMaxQuestion = "setup.max-question"
  case setupMinutesRange = "setup.minutes-range"
  case setupWholeNumberRange = "setup.whole-number-range"
  case setupDurationProblem = "setup.duration-problem"
  case setupExisting = "setup.existing"
  case setupInputEnded = "setup.input-ended"
  case setupNotPicked = "setup.not-picked"
  case setupNothingChosen = "setup.nothing-chosen"
  case setupWrote = "setup.wrote"
  case setupSummary = "setup.summary"
  case setupChangeLater = "setup.change-later"
  case setupYesNeeds = "setup.yes-needs"
  case setupGoesWithYes = "setup.goes-with-yes"
  case setupServiceRuns = "setup.service-runs"
  case setupServiceNotRunning = "setup.service-not-running"
  case setupNoBus = "setup.no-bus"
  case setupHost = "setup.host"
  case setupHostMissing = "setup.host-missing"
  case setupExtensionAnswers = "setup.extension-answers"
  case setupExtensionNone = "setup.extension-none"
  // puzzle, besides the task's own messages
  case puzzleGrantNote = "puzzle.grant-note"
  case puzzleInputEnded = "puzzle.input-ended"
  // desktop
  case desktopBackend = "desktop.backend"
  case desktopChosenConfig = "desktop.chosen-config"
  case desktopChosenAutoNoWindows = "desktop.chosen-auto-no-windows"
  case desktopChosenAuto = "desktop.chosen-auto"
  case desktopCountsFocus = "desktop.counts-focus"
  case desktopCountsRunning = "desktop.counts-running"
  case desktopProcessesOnly = "desktop.processes-only"
  case desktopLimitation = "desktop.limitation"
  case desktopToDo = "desktop.to-do"
  case desktopProcesses = "desktop.processes"
  case desktopOff = "desktop.off"
  case desktopNoRules = "desktop.no-rules"
  case desktopFocus = "desktop.focus"
  case desktopFocusNone = "desktop.focus-none"
  case desktopRunning = "desktop.running"
  case desktopRunningApp = "desktop.running-app"
  case desktopRunningNone = "desktop.running-none"
  case desktopIdleYes = "desktop.idle-yes"
  case desktopIdleNo = "desktop.idle-no"
  case desktopInhibitedYes = "desktop.inhibited-yes"
  case desktopInhibitedNo = "desktop.inhibited-no"
  case desktopScreen = "desktop.screen"
  case desktopNotice = "desktop.notice"
  case desktopLost = "desktop.lost"
  case desktopSite = "desktop.site"
  case desktopMatch = "desktop.match"
  case desktopNoMatch = "desktop.no-match"
  case desktopCannotWatch = "error.desktop-cannot-watch"
  case desktopNoLongerWatched = "error.desktop-lost"
  case desktopSilent = "error.desktop-silent"

  // report
  case reportForgetOnly = "error.report-forget-only"
  case reportBeforeWithForget = "error.report-before-with-forget"
  case reportNoSuchRule = "error.report-no-such-rule"
  case reportExclusive = "error.report-exclusive"
  case reportNotAFile = "error.report-not-a-file"
  case reportCannotWrite = "error.report-cannot-write"
  case reportBadDate = "error.report-bad-date"
  case reportFromAfterTo = "error.report-from-after-to"
  case reportTooManyDays = "error.report-too-many-days"

  /// The commands a message tells the user to type, as placeholder values: no translation can change them.
  var commands: [String: String] {
    switch self {
    case .noConfiguration: ["command": "shieldbridge setup"]
    case .runSetup: ["command": "shieldbridge setup"]
    case .seeDoctor: ["command": "shieldbridge doctor"]
    case .limitations: ["command": "shieldbridge desktop --once"]
    case .noSuchRule: ["command": "shieldbridge rules list"]
    case .startRule:
      [
        "setup": "shieldbridge setup", "add": "shieldbridge rules add NAME --app APP",
        "pick": "shieldbridge rules pick NAME",
      ]
    case .loosens: ["command": "shieldbridge status"]
    case .noServiceRunning: ["serve": "shieldbridge serve", "systemctl": "systemctl --user start shieldbridge"]
    case .serviceCannotStart: ["command": "journalctl --user -u shieldbridge"]
    case .startSystemd: ["command": "systemctl --user enable --now shieldbridge"]
    case .startNothing: ["command": "shieldbridge serve"]
    case .hostMissing: ["make": "make install-user", "script": "scripts/install-native-host user"]
    case .needAppOrSite: ["app": "--app APP", "site": "--site SITE"]
    case .appNeeded: ["option": "--app NAME"]
    case .setupOther: ["command": "shieldbridge desktop"]
    case .setupChangeLater: ["command": "shieldbridge rules"]
    case .setupYesNeeds: ["command": "setup --yes", "app": "--app", "site": "--site"]
    case .setupGoesWithYes: ["yes": "--yes"]
    case .setupHostMissing: ["make": "make install-user", "script": "scripts/install-native-host user"]
    case .puzzleGrantNote: ["option": "--grant"]
    case .desktopOff: ["setting": #""desktop": "off""#]
    case .reportForgetOnly: ["option": "--forget", "before": "--before"]
    case .reportBeforeWithForget: ["before": "--before", "forget": "--forget"]
    case .reportNotAFile: ["option": "--html"]
    case .reportFromAfterTo: ["fromOption": "--from", "toOption": "--to"]
    default: [:]
    }
  }

  /// The English source, as the catalogs look it up.
  public var source: MessageSource { definition.source }

  /// The comment for translators (`#.` in the template).
  public var comment: String { definition.comment }

  private var definition: (comment: String, source: MessageSource) {
    switch self {
    // errors
    case .unknownCommand:
      ("Error: the command typed does not exist. {command} is what was typed.", .init("unknown command '{command}'"))
    case .missingCommand: ("Error: a command needs a subcommand and none was typed.", .init("missing command"))
    case .unknownOption:
      ("Error: an option the command does not take. {option} is what was typed.", .init("unknown option '{option}'"))
    case .takesNoValue: ("Error. {option} is an option such as --json.", .init("{option} takes no value"))
    case .needsValue: ("Error. {option} is an option such as --limit.", .init("{option} needs a value"))
    case .missingArgument:
      (
        "Error. {arguments} is the command's synopsis, such as NAME; keep it as it is.",
        .init("missing argument, expected: {arguments}")
      )
    case .unexpectedArgument:
      ("Error. {argument} is the word typed too many.", .init("unexpected argument '{argument}'"))
    case .bothTakeValues:
      (
        "Error for short options written together, such as -ab. {first} and {second} are options such as -a.",
        .init("{first} and {second} both take a value: give them in words of their own")
      )
    case .numberRange:
      (
        "Error. {option} is an option, {low} and {high} numbers, {text} what was typed.",
        .init("{option} takes a whole number from {low} to {high}, not '{text}'")
      )
    case .choice:
      (
        "Error. {option} is an option, {choices} the words it takes (keep them as they are), {text} what was typed.",
        .init("{option} takes one of {choices}, not '{text}'")
      )
    case .optionProblem:
      (
        "Error about one option's value. {option} is the option, {problem} what is wrong with the value.",
        .init("{option}: {problem}")
      )
    case .configRefused:
      (
        "Error: config.json is refused. {file} is its path, {key} the key path such as rules[0].grantMinutes, "
          + "{problem} what is wrong there.",
        .init("{file}: {key}: {problem}")
      )
    case .configRefusedFile:
      (
        "Error: config.json is refused as a whole. {file} is its path, {problem} what is wrong.",
        .init("{file}: {problem}")
      )
    case .warning:
      ("A warning about a file that was still used. {warning} says what was ignored.", .init("warning: {warning}"))
    case .ledgerLocked:
      (
        "Error: another process holds the lock of today's figures. {path} is the file.",
        .init("{path}: another shieldbridge process holds the ledger lock; try again")
      )
    case .configLocked:
      (
        "Error: another edit of config.json held its lock for the whole wait. {lock} is the lock file, {seconds} "
          + "a number.",
        .init(
          "another edit held {lock} for {seconds} second; try again",
          plural: "another edit held {lock} for {seconds} seconds; try again")
      )
    case .noConfigDirectory:
      (
        "Error. Keep XDG_CONFIG_HOME and HOME as they are: they are variable names.",
        .init("cannot find the configuration directory: set XDG_CONFIG_HOME or HOME to an absolute path")
      )
    case .noStateDirectory:
      (
        "Error: where today's figures are kept cannot be found. Keep XDG_STATE_HOME and HOME as they are.",
        .init("cannot find the state directory: set XDG_STATE_HOME or HOME to an absolute path")
      )
    case .noSuchRule:
      (
        "Error. {rule} is the rule's name; {command} is the command to type.",
        .init("no rule is named \"{rule}\"; '{command}' shows them")
      )
    case .noSuchApp:
      ("Error. {rule} is a rule's name, {app} an app's.", .init("the rule \"{rule}\" lists no app \"{app}\""))
    case .noSuchSite:
      (
        "Error. {rule} is a rule's name, {site} a website such as reddit.com.",
        .init("no app of the rule \"{rule}\" lists the site \"{site}\"")
      )
    case .unkeepable:
      (
        "Error: config.json cannot be rewritten safely. {file} is its path.",
        .init("{file}: holds a string that cannot be kept when the file is rewritten; edit it by hand")
      )
    case .needAppOrSite:
      (
        "Error of 'rules add' without --app or --site. {app} and {site} are the options, {command} the command "
          + "that starts the rule from a window.",
        .init(
          "a rule covers at least one app or site: give {app} or {site}, or run '{command}' to start it with the "
            + "app whose window you bring to the front")
      )
    case .giveAtLeastOne: ("Error. {option} is an option such as --app.", .init("give at least one {option}"))
    case .notCovered:
      (
        "Error: no rule lists the app named. {app} is its name; keep \"apps\" as it is: it is the key in "
          + "config.json.",
        .init("no rule covers the app '{app}'; add it to the \"apps\" of a rule in config.json")
      )
    case .appNeeded:
      (
        "Error: no app was named and several rules could be meant. {rules} is the list of their names, {option} "
          + "the option to give.",
        .init("name the app: there are several rules ({rules}) and no app was given (use {option})")
      )
    case .noBusForService:
      (
        "Error of a command that asks the running service (shieldbridge shield, open). {error} is the technical "
          + "detail.",
        .init("no message bus to find the service on: {error}")
      )
    case .serviceBadAnswer:
      (
        "As error.service-no-bus: the service answered something else than expected.",
        .init("the service's answer: {error}")
      )
    case .noServiceRunning:
      (
        "Error of a command that needs the service when none runs. The placeholders are the commands to type.",
        .init(
          "no ShieldBridge service is running on the bus; start it with '{serve}' (or '{systemctl}')")
      )
    case .serviceNoAnswer: ("As error.service-no-bus.", .init("the service did not answer: {error}"))
    case .serviceConfigurationRefused:
      (
        "The bus could not start the service because config.json is refused. {problem} is the refusal, with the "
          + "file and the key.",
        .init("the ShieldBridge service could not start because of its configuration: {problem}")
      )
    case .serviceCannotStart:
      (
        "The bus could not start the service for another reason. {error} is the technical detail; {command} is the "
          + "command to type.",
        .init(
          "the message bus could not start the ShieldBridge service ({error}); its own messages are in the journal "
            + "('{command}') or on the bus's stderr")
      )
    // config.json's problems
    case .wholeNumber:
      (
        "What is wrong at a key of config.json (after the file and the key). {low} and {high} are numbers, "
          + "{found} the value found there.",
        .init("expected a whole number from {low} to {high}, found {found}")
      )
    case .wholeNumberDigits:
      (
        "As config.whole-number, for a number written with a fraction or an exponent, such as 5.0.",
        .init(
          "expected a whole number from {low} to {high}, found {found} (a whole number is written as digits alone, "
            + "without a fraction or an exponent)")
      )
    case .configChoice:
      (
        "What is wrong at a key of config.json. {names} are the values it takes (keep them as they are), {found} "
          + "the value found.",
        .init("expected one of {names}, found {found}")
      )
    case .notJSON:
      ("config.json is not JSON. {detail} is the parser's technical detail.", .init("not valid JSON: {detail}"))
    case .noRules:
      (
        "config.json has \"rules\": []. Keep \"rules\" as it is: it is the key.",
        .init("expected at least one rule; leave out \"rules\" for the built-in default rule")
      )
    case .noApps: ("A rule in config.json without apps.", .init("expected at least one app"))
    case .unknownKey:
      (
        "A warning: config.json has a key this version does not know. {file} is the file, {key} the key path.",
        .init("{file}: {key}: unknown key, ignored")
      )
    case .unknownKeySuggestion:
      (
        "As config.unknown-key, with the known key nearest to it. {suggestion} is that key; keep it as it is.",
        .init("{file}: {key}: unknown key, ignored; did you mean \"{suggestion}\"?")
      )
    // durations typed on the command line
    case .durationEmpty:
      (
        "A duration option (--limit, --grant, --warn) was given nothing. Keep 90s, 5m and 1h30m as they are: it "
          + "is what the user types.",
        .init("expected a duration such as 90s, 5m or 1h30m, found nothing")
      )
    case .durationTooLong:
      (
        "As duration.error-empty. {text} is what was typed.",
        .init("'{text}' is too long for a duration such as 90s, 5m or 1h30m")
      )
    case .durationNotDuration:
      (
        "As duration.error-empty. {text} is what was typed.",
        .init("expected a duration such as 90s, 5m or 1h30m, found '{text}'")
      )
    case .durationNoUnit:
      (
        "A duration typed without its unit. Keep h, m and s as they are.",
        .init("'{text}' ends without a unit: write h, m or s after the number")
      )
    case .durationNotWhole:
      (
        "A duration that is no whole number of minutes. {below} and {above} are the whole minutes around it; "
          + "keep the “m” after them.",
        .init(
          "'{text}' is not a whole number of minutes, which is what the configuration holds; write {below}m or {above}m"
        )
      )
    case .durationNotWholeUnder:
      (
        "As duration.error-not-whole, under a minute: {above} is 1.",
        .init("'{text}' is not a whole number of minutes, which is what the configuration holds; write {above}m")
      )
    // lists
    case .listMore:
      (
        "How a list of names goes on, such as “Instagram, TikTok, YouTube”: {list} is the list so far, {item} "
          + "the next name. Use the language's list separator.",
        .init("{list}, {item}")
      )
    // durations
    case .hours:
      (
        "Part of a duration such as “1 h 5 min”. {hours} is a number; keep the unit short.",
        .init("{hours} h", plural: "{hours} h")
      )
    case .minutes:
      (
        "Part of a duration such as “3 min 10 s”. {minutes} is a number; keep the unit short.",
        .init("{minutes} min", plural: "{minutes} min")
      )
    case .seconds:
      (
        "Part of a duration such as “3 min 10 s”. {seconds} is a number; keep the unit short.",
        .init("{seconds} s", plural: "{seconds} s")
      )
    case .minutesWord:
      (
        "A number of whole minutes in words. {minutes} is the number.",
        // The report's `report.day` has the same English; the context keeps the two apart.
        .init(context: "duration", "{minutes} minute", plural: "{minutes} minutes")
      )
    // status
    case .noService:
      (
        "shieldbridge status, first line, when no service runs. Plain, no alarm.",
        .init("no ShieldBridge service is running: nothing is counted")
      )
    case .noConfiguration:
      (
        "shieldbridge status when there is no config.json. {command} is the command to type.",
        .init("no config.json yet: run '{command}' to choose the apps and sites to limit")
      )
    case .noRuleInFile:
      (
        "shieldbridge status when config.json has no rule.",
        .init("No rule is set in config.json: no app or site is counted or limited.")
      )
    case .noRuleNoFile:
      (
        "shieldbridge status when there is no config.json.",
        .init("No rule is set (there is no config.json yet): no app or site is counted or limited.")
      )
    case .runSetup:
      (
        "shieldbridge status, after the line that no rule is set. {command} is the command to type.",
        .init("Run '{command}' to choose the apps and sites to limit and how much.")
      )
    case .today: ("shieldbridge status: the day shown. {date} is a date such as 2026-11-29.", .init("Today: {date}"))
    case .usage:
      (
        "shieldbridge status: a rule's use today. {rule} is its name, {used} and {limit} durations such as "
          + "“3 min 10 s”, {bar} a bar of # and - such as [###-----].",
        .init("{rule}: {used} of {limit} used today  {bar}")
      )
    case .usageOver:
      (
        "As status.usage, for a rule at or over its limit.",
        .init("{rule}: {used} of {limit} used today  {bar}  over the limit")
      )
    case .usageCounting:
      (
        "As status.usage, for a rule whose time counts at this moment.",
        .init("{rule}: {used} of {limit} used today  {bar}  counting now")
      )
    case .countedFocus:
      (
        "shieldbridge status: what counts the time. {desktop} is X11, i3, sway or GNOME Shell.",
        .init("counted: focused windows ({desktop})")
      )
    case .countedKWin:
      (
        "shieldbridge status: what counts the time on KDE.",
        .init("counted: focused windows (KWin, through its script)")
      )
    case .countedProcesses:
      (
        "shieldbridge status: the time is counted from the running processes.",
        .init("counted: running processes (no window system seen)")
      )
    case .countedProcessesChosen:
      (
        "shieldbridge status: the processes count because config.json says so. Keep the JSON as it is.",
        .init("counted: running processes (\"desktop\": \"processes\" in config.json)")
      )
    case .countedOther: ("shieldbridge status. {backend} is a desktop's name.", .init("counted: {backend}"))
    case .notCountedLedger:
      (
        "shieldbridge status when the service gave no figures. {reason} is why, such as “the service is not running”.",
        .init("not counted: {reason}; the figures are from the ledger and may be up to 30 s old")
      )
    case .notCountedNoRule:
      ("shieldbridge status without rules.", .init("not counted: no rule is set, so no app is metered"))
    case .notCountedOff:
      ("shieldbridge status. Keep the JSON as it is.", .init("not counted: \"desktop\" is \"off\" in config.json"))
    case .notCountedNoDesktop:
      (
        "shieldbridge status. {log} is where the service's log is, such as a command to type.",
        .init("not counted: the service watches no desktop; its log says why: {log}")
      )
    case .seeDoctor:
      ("Used as {log} in status.not-counted-no-desktop. {command} is the command to type.", .init("see '{command}'"))
    case .reasonNotRunning: ("Used as {reason} in status.not-counted-ledger.", .init("the service is not running"))
    case .reasonUnreadable:
      ("Used as {reason}. {error} is the technical detail.", .init("the service's answer could not be read ({error})"))
    case .reasonOlder:
      ("Used as {reason}.", .init("the running service is older and does not meter (restart it)"))
    case .reasonNoAnswer:
      ("Used as {reason}. {error} is the technical detail.", .init("the service did not answer ({error})"))
    case .toDo:
      ("shieldbridge status: what the desktop needs done first. {attention} says what.", .init("to do: {attention}"))
    case .limitations:
      (
        "shieldbridge status: how many limitations the desktop backend has. {count} is the number; {command} is the "
          + "command to type.",
        .init(
          "{count} limitation of this backend: see '{command}'",
          plural: "{count} limitations of this backend: see '{command}'")
      )
    case .ruleApps: ("shieldbridge status: a rule and its apps. {apps} is a list of names.", .init("{rule}: {apps}"))
    case .ruleAppsSites:
      ("shieldbridge status: a rule, its apps and its websites.", .init("{rule}: {apps}; sites: {sites}"))
    case .everyApp: ("shieldbridge status: used as {apps} when a rule covers every app.", .init("every app"))
    case .limitToday: ("shieldbridge status. {limit} is a number of minutes in words.", .init("limit today: {limit}"))
    case .glanceLeft:
      (
        "A panel's short text (status --follow): the time left today for the app in front. {app} is an app or "
          + "website name, {minutes} a number; keep it short.",
        .init("{app}: {minutes} min left today", plural: "{app}: {minutes} min left today")
      )
    case .glanceUsedUp:
      ("A panel's short text at the limit. {app} is an app or website name.", .init("{app}: no time left today"))
    case .glanceDowntime:
      (
        "A panel's short text in a downtime. {app} is an app or website name, {until} a local time such as 07:00.",
        .init("{app}: downtime until {until}")
      )
    case .grantsToday:
      (
        "shieldbridge status: the grants (solved tasks) of today. {count} of {max} are numbers, {grant} and "
          + "{daily} the minutes of a grant and the daily limit, in words.",
        .init("grants today: {count} of {max}, {grant} each, on top of {daily}")
      )
    case .dailyLimit: ("shieldbridge status: a daily limit. {limit} is minutes in words.", .init("{limit} a day"))
    case .dailyLimitToday:
      (
        "shieldbridge status: a daily limit that differs by weekday. {days} are weekdays such as mon-fri.",
        .init("{limit} today ({days})")
      )
    case .dailyLimitOnDays:
      ("The first part of a limit by weekday. {days} are weekdays such as mon-fri.", .init("{limit} a day on {days}"))
    case .limitOnDays: ("The next parts of a limit by weekday.", .init("{limit} on {days}"))
    case .fromTomorrow:
      (
        "shieldbridge status: what config.json changes from the next day. {changes} is a list of the changes.",
        .init("from tomorrow: {changes}")
      )
    case .ruleGone: ("Used as {changes}.", .init("no limit (the rule is no longer in config.json)"))
    case .changeGrant: ("Used in {changes}. {minutes} is minutes in words.", .init("{minutes} per grant"))
    case .changeMaxGrants:
      (
        "Used in {changes}. {count} is a number.",
        .init("at most {count} grant a day", plural: "at most {count} grants a day")
      )
    case .changePause:
      (
        "Used in {changes}. {seconds} is a number.",
        .init("a pause of {seconds} s before an answer", plural: "a pause of {seconds} s before an answer")
      )
    case .changeOnLimit:
      ("Used in {changes}. {action} is hide, close or notify; keep it as it is.", .init("{action} at the limit"))
    case .changeWithout: ("Used in {changes}. {apps} is a list of app names.", .init("without {apps}"))
    case .downtimeFromTo:
      ("shieldbridge status. {from} and {to} are local times such as 22:00.", .init("downtime from {from} to {to}"))
    case .downtimeUntil:
      (
        "shieldbridge status. {to} is a local time such as 07:00.",
        .init("downtime until {to}: no task unlocks it before then")
      )
    // rules
    case .ruleAdded:
      (
        "shieldbridge rules add. {path} is config.json's path, {rule} the rule's name.",
        .init("{path}: added the rule \"{rule}\"")
      )
    case .ruleChanged: ("shieldbridge rules set.", .init("{path}: changed the rule \"{rule}\""))
    case .ruleRemoved: ("shieldbridge rules remove.", .init("{path}: removed the rule \"{rule}\""))
    case .ruleStarted:
      (
        "shieldbridge rules pick, for a new rule. {app} is the app's name.",
        .init("{path}: started the rule \"{rule}\" with {app} and the default limits")
      )
    case .appsRemoved:
      (
        "shieldbridge rules remove-app. {apps} is a list of names.",
        .init("{path}: removed {apps} from the rule \"{rule}\"")
      )
    case .sitesAdded:
      (
        "shieldbridge rules add-site. {sites} is a list of websites.",
        .init("{path}: added {sites} to the rule \"{rule}\"")
      )
    case .sitesRemoved: ("shieldbridge rules remove-site.", .init("{path}: removed {sites} from the rule \"{rule}\""))
    case .appAdded:
      ("shieldbridge rules add-app. {app} is the app's name.", .init("{path}: added {app} to the rule \"{rule}\""))
    case .appMerged:
      (
        "shieldbridge rules add-app, for an app the rule has already. {names} are the names added, such as "
          + "“class firefox”.",
        .init("{path}: the rule \"{rule}\" has {app} already: added {names} to it")
      )
    case .appCovered:
      (
        "As rules.app-merged, when nothing was new.",
        .init("{path}: the rule \"{rule}\" has {app} already, with these names: nothing was added")
      )
    case .noRule:
      ("shieldbridge rules list without rules.", .init("No rule is set: no app or site is counted or limited."))
    case .startRule:
      (
        "After rules.no-rule. The placeholders are the commands to type.",
        .init(
          "Start one with '{setup}', '{add}' or '{pick}'."
        )
      )
    case .loosens:
      (
        "After a change that loosens a rule in force today. {command} is the command to type.",
        .init("This loosens today's rules: it takes effect at the next day's start ('{command}' says what).")
      )
    case .ruleLineApps:
      ("shieldbridge rules list: a rule and its apps. {apps} is a list.", .init("{rule}: apps {apps}"))
    case .ruleLineSites: ("shieldbridge rules list: a rule and its websites.", .init("{rule}: sites {sites}"))
    case .ruleLineAppsSites:
      ("shieldbridge rules list: a rule, its apps and websites.", .init("{rule}: apps {apps}; sites {sites}"))
    case .appWithNames:
      ("shieldbridge rules list: an app and the names it is matched by. {names} is a list.", .init("{app} ({names})"))
    case .appClass: ("Used in {names}: the window classes. Keep “class” short.", .init("class {names}"))
    case .appID: ("Used in {names}: the Wayland app ids.", .init("app id {names}"))
    case .appExecutable: ("Used in {names}: the executables.", .init("exe {names}"))
    case .settings:
      (
        "shieldbridge rules list: a rule's settings. {limit}, {grant} and {warn} are durations as typed, such as "
          + "20m; {count} is a number; {action} is hide, close or notify (keep it as it is).",
        .init(
          "limit {limit}, {grant} per task, at most {count} task a day, warned {warn} before, on limit {action}",
          plural:
            "limit {limit}, {grant} per task, at most {count} tasks a day, warned {warn} before, on limit {action}")
      )
    case .settingsNoWarning:
      (
        "As rules.settings, for a rule without a warning.",
        .init(
          "limit {limit}, {grant} per task, at most {count} task a day, no warning, on limit {action}",
          plural: "limit {limit}, {grant} per task, at most {count} tasks a day, no warning, on limit {action}")
      )
    case .limitADay: ("Used as {limit} in rules.settings. {duration} is such as 20m.", .init("{duration} a day"))
    // doctor
    case .bus: ("shieldbridge doctor. {address} is the bus address.", .init("bus: {address}"))
    case .busNone: ("shieldbridge doctor without a bus.", .init("bus: none"))
    case .server:
      (
        "shieldbridge doctor. {name}, {version}, {vendor} and {spec} are what the notification server says of itself.",
        .init("server: {name} {version} by {vendor}, specification {spec}")
      )
    case .serverOwned:
      (
        "As doctor.server, with the server's bus name {owner}.",
        .init("server: {name} {version} by {vendor}, specification {spec} ({owner})")
      )
    case .serverNone: ("shieldbridge doctor without a notification server.", .init("server: none"))
    case .serverActivatable:
      (
        "shieldbridge doctor: no server runs, but the bus can start one.",
        .init("server: none running (the bus can start one)")
      )
    case .capabilities:
      (
        "shieldbridge doctor. {capabilities} is a list of technical names; keep them as they are.",
        .init("capabilities: {capabilities}")
      )
    case .capabilitiesNone: ("shieldbridge doctor.", .init("capabilities: none"))
    case .presentation:
      (
        "shieldbridge doctor. {presentation} is a technical description; keep it as it is.",
        .init("presentation: {presentation}")
      )
    case .clicksActions:
      (
        "shieldbridge doctor: where clicks on the notification go. Keep “notify --wait” as it is.",
        .init("clicks: routed to the program that posted (the service, or notify --wait)")
      )
    case .clicksLink:
      (
        "As doctor.clicks-actions.",
        .init("clicks: the server opens the link in the body itself; notify --wait cannot report them")
      )
    case .clicksCloseOnly:
      ("As doctor.clicks-actions.", .init("clicks: not possible with this server; the notification says how to go on"))
    case .problem: ("shieldbridge doctor. {problem} is the technical detail.", .init("problem: {problem}"))
    case .serviceRunning: ("shieldbridge doctor.", .init("service: running"))
    case .serviceRunningLog:
      ("shieldbridge doctor. {log} is where the log is, such as a command.", .init("service: running (its log: {log})"))
    case .serviceNotRunning:
      (
        "shieldbridge doctor. {todo} is what to do, such as doctor.start-systemd.",
        .init("service: not running (to do: {todo})")
      )
    case .serviceNoBus: ("shieldbridge doctor.", .init("service: no session bus"))
    case .host: ("shieldbridge doctor. {path} is the browsers' host manifest.", .init("browser host: {path}"))
    case .hostMissing:
      (
        "shieldbridge doctor. The placeholders are the commands to type.",
        .init("browser host: not installed (to do: {make}, or {script})")
      )
    case .extensionAnswers:
      (
        "shieldbridge doctor. {count} is the number of browsers.",
        .init("browser extension: answers ({count} browser)", plural: "browser extension: answers ({count} browsers)")
      )
    case .extensionNone:
      ("shieldbridge doctor. {todo} is what to do.", .init("browser extension: no browser runs it (to do: {todo})"))
    case .startSystemd:
      (
        "Used as {todo}. {command} is the command to type.",
        .init("start it, and at every login: {command}")
      )
    case .startAutostart:
      (
        "Used as {todo}. {entry} is a file.",
        .init("the desktop starts it at log-in ({entry}): log out and log in again")
      )
    case .startNothing:
      (
        "Used as {todo}. {command} is the command to type; keep the path as it is.",
        .init(
          "nothing starts it at log-in here: start '{command}' with the desktop session (docs/using/install.md)"
        )
      )
    case .extensionPackaged:
      (
        "Used as {todo}. {browsers} is a list of browsers; keep the pages as they are.",
        .init(
          "the package installed it for {browsers}: restart the browser, and where ShieldBridge is turned off in its "
            + "extensions page (chrome://extensions, about:addons), turn it on")
      )
    case .extensionUnpacked:
      (
        "Used as {todo}. {folder} is a folder; keep the pages and the menu names as they are.",
        .init(
          "load it in Chromium (chrome://extensions, Developer mode, Load unpacked) or Firefox (about:debugging, "
            + "Load Temporary Add-on) from {folder}")
      )
    case .extensionSourceTree:
      ("Used as {todo}.", .init("load it in Chromium or Firefox from integrations/webextension in the source tree"))
    // setup
    case .setupIntro:
      (
        "shieldbridge setup: its first line. Enter is the key.",
        .init("Set up ShieldBridge: which apps and sites to limit, and how much. Enter takes the value in brackets.")
      )
    case .setupCommonApps:
      ("shieldbridge setup: above the numbered list of apps.", .init("Apps and sites people often limit:"))
    case .setupEntry:
      (
        "shieldbridge setup: one entry of the list. {number} is its number, {app} an app's name, {sites} its sites.",
        .init("{number}  {app} ({sites})")
      )
    case .setupAnother:
      (
        "shieldbridge setup: the last entry of the list. {number} is its number.",
        .init("{number}  Another app or site, by name")
      )
    case .setupWhich:
      (
        "shieldbridge setup: a question; the answer is typed after it.",
        .init("Which ones? Their numbers, such as 1 3 6:")
      )
    case .setupChooseOne: ("shieldbridge setup: the answer was empty.", .init("Choose at least one number."))
    case .setupNotInList:
      (
        "shieldbridge setup. {answer} is what was typed, {last} the last number of the list.",
        .init("There is no {answer} in the list; choose numbers from 1 to {last}.")
      )
    case .setupOther:
      (
        "shieldbridge setup: a question. {command} is a command; keep example.com as it is.",
        .init("The other one: a site such as example.com, an app as '{command}' names it, or Enter to pick its window:")
      )
    case .setupLimitQuestion:
      (
        "shieldbridge setup: a question. {default} is the number of minutes Enter takes.",
        .init("Minutes a day they may be used, all together [{default}]:")
      )
    case .setupGrantQuestion:
      ("As setup.limit-question.", .init("Minutes one solved task adds [{default}]:"))
    case .setupMaxQuestion:
      (
        "shieldbridge setup: a question. {default} is the number of tasks Enter takes.",
        .init("Tasks a day at most [{default}]:")
      )
    case .setupMinutesRange:
      (
        "shieldbridge setup: an answer out of range. {low} and {high} are numbers; {high} chooses the form.",
        .init("Choose from {low} to {high} minute.", plural: "Choose from {low} to {high} minutes.")
      )
    case .setupWholeNumberRange:
      ("shieldbridge setup. {low} and {high} are numbers.", .init("Choose a whole number from {low} to {high}."))
    case .setupDurationProblem:
      (
        "shieldbridge setup: a duration refused. {problem} says why, such as duration.error-no-unit.",
        .init("{problem}.")
      )
    case .setupExisting:
      (
        "shieldbridge setup. {path} is config.json, {rules} a list of rule names, {count} how many, {rule} a name.",
        .init(
          "{path} has the rule {rules}; setup writes the rule \"{rule}\" and keeps the others.",
          plural: "{path} has the rules {rules}; setup writes the rule \"{rule}\" and keeps the others.")
      )
    case .setupInputEnded:
      (
        "Error: the input ended before setup's last question was answered.",
        .init("the input ended before the last answer: nothing was written")
      )
    case .setupNotPicked:
      ("shieldbridge setup. {problem} is the technical detail.", .init("The window was not picked: {problem}."))
    case .setupNothingChosen: ("Error of shieldbridge setup.", .init("no app or site was chosen: nothing was written"))
    case .setupWrote:
      (
        "shieldbridge setup. {rule} is a name, {path} config.json, {summary} is setup.summary.",
        .init("Wrote the rule \"{rule}\" to {path}: {summary}.")
      )
    case .setupSummary:
      (
        "Used as {summary}. {names} is a list of apps and sites, {limit} and {grant} durations such as 5m.",
        .init(
          "{names}; {limit} a day, {grant} per task, at most {count} task a day",
          plural: "{names}; {limit} a day, {grant} per task, at most {count} tasks a day")
      )
    case .setupChangeLater:
      (
        "shieldbridge setup. {command} is a command, {example} a whole command line; keep both as they are.",
        .init("Change it later with '{command}' (such as: {example}).")
      )
    case .setupYesNeeds:
      (
        "Error. The placeholders are the command and its options.",
        .init("{command} needs at least one {app} or {site}")
      )
    case .setupGoesWithYes:
      ("Error. {option} and {yes} are options.", .init("{option} goes with {yes}; without it, setup asks"))
    case .setupServiceRuns:
      (
        "shieldbridge setup, after writing the rule.",
        .init("The service runs: it reloads config.json by itself, so the rule counts from now on.")
      )
    case .setupServiceNotRunning:
      (
        "shieldbridge setup. {todo} is what to do, such as doctor.start-systemd.",
        .init("The service is not running. {todo}.")
      )
    case .setupNoBus:
      (
        "shieldbridge setup without a session bus.",
        .init(
          "No session bus was found, so the service cannot run in this session. Run setup again inside the desktop session."
        )
      )
    case .setupHost:
      ("shieldbridge setup. {path} is the browsers' host manifest.", .init("The browsers' host is installed ({path})."))
    case .setupHostMissing:
      (
        "shieldbridge setup. The placeholders are commands to type; keep the path as it is.",
        .init(
          "The browsers' host is not installed, so sites are not counted. Install it: {make} (or {script}) in the "
            + "source tree (docs/using/websites.md).")
      )
    case .setupExtensionAnswers:
      (
        "shieldbridge setup. {count} is the number of browsers.",
        .init(
          "The browser extension answers ({count} browser).",
          plural: "The browser extension answers ({count} browsers).")
      )
    case .setupExtensionNone:
      (
        "shieldbridge setup. {todo} is what to do, such as doctor.extension-unpacked; keep the path as it is.",
        .init("No browser extension answers. {todo}, then keep the browser open (docs/using/websites.md).")
      )
    // puzzle
    case .puzzleGrantNote:
      (
        "shieldbridge puzzle. {rule} is a rule's name, {minutes} and {offered} numbers, {option} the option.",
        .init(
          "note: the rule '{rule}' grants {minutes} minute; {option} {offered} does not change that",
          plural: "note: the rule '{rule}' grants {minutes} minutes; {option} {offered} does not change that")
      )
    case .puzzleInputEnded:
      ("Error of shieldbridge puzzle in a terminal.", .init("the input ended without the answer; nothing was unlocked"))
    // desktop
    case .desktopBackend:
      (
        "shieldbridge desktop. {backend} is a desktop such as i3, {how} desktop.chosen-*, {counting} desktop.counts-*.",
        .init("desktop: {backend}, {how}; {counting}")
      )
    case .desktopChosenConfig:
      (
        "Used as {how}. {setting} is the setting in config.json, such as \"desktop\": \"i3\".",
        .init("as config.json says ({setting})")
      )
    case .desktopChosenAutoNoWindows: ("Used as {how}.", .init("chosen automatically, as no window system was seen"))
    case .desktopChosenAuto: ("Used as {how}.", .init("chosen automatically"))
    case .desktopCountsFocus: ("Used as {counting}.", .init("a covered app counts while its window has the focus"))
    case .desktopCountsRunning: ("Used as {counting}.", .init("a covered app counts while it runs"))
    case .desktopProcessesOnly:
      (
        "shieldbridge desktop.",
        .init("only the apps a rule of config.json names are watched, and only by their processes")
      )
    case .desktopLimitation:
      ("shieldbridge desktop. {limitation} is the desktop's technical detail.", .init("limitation: {limitation}"))
    case .desktopToDo: ("shieldbridge desktop. {todo} is the desktop's technical detail.", .init("to do: {todo}"))
    case .desktopProcesses: ("Used as {backend}: the backend that watches processes.", .init("running processes"))
    case .desktopOff:
      (
        "shieldbridge desktop. {setting} is the setting in config.json.",
        .init("desktop: off, as config.json says ({setting}); nothing is watched or counted")
      )
    case .desktopNoRules:
      ("shieldbridge desktop.", .init("config.json has no rules: nothing is metered until a rule names an app"))
    case .desktopFocus:
      (
        "shieldbridge desktop. {app} is the app's names (class=… pid=…), {what} desktop.match, desktop.no-match or desktop.site.",
        .init("focus: {app} → {what}")
      )
    case .desktopFocusNone: ("shieldbridge desktop.", .init("focus: none (the desktop itself, or an empty workspace)"))
    case .desktopRunning: ("shieldbridge desktop. {apps} is desktop.running-app, repeated.", .init("running: {apps}"))
    case .desktopRunningApp: ("Used in {apps}. As desktop.focus.", .init("{app} → {what}"))
    case .desktopRunningNone: ("shieldbridge desktop.", .init("running: no covered app"))
    case .desktopIdleYes: ("shieldbridge desktop.", .init("idle: yes (no input for the idle time)"))
    case .desktopIdleNo: ("shieldbridge desktop.", .init("idle: no"))
    case .desktopInhibitedYes: ("shieldbridge desktop.", .init("idle inhibited: yes (a video playing, for example)"))
    case .desktopInhibitedNo: ("shieldbridge desktop.", .init("idle inhibited: no"))
    case .desktopScreen: ("shieldbridge desktop. {state} is a value such as locked.", .init("screen: {state}"))
    case .desktopNotice: ("shieldbridge desktop. {text} is the desktop's technical detail.", .init("notice: {text}"))
    case .desktopLost: ("shieldbridge desktop. {reason} is the technical detail.", .init("lost: {reason}"))
    case .desktopSite:
      (
        "Used as {what}. {site} is a website, {rule} a rule, {app} an app; keep \"apps\" as it is.",
        .init(
          "counted as {site} for {rule} while this tab is in front (app {app}; the browser's own names in a rule's "
            + "\"apps\" would cover all of it)")
      )
    case .desktopMatch: ("Used as {what}. {rule} is a rule, {app} an app.", .init("rule {rule}, app {app}"))
    case .desktopNoMatch:
      (
        "Used as {what}. Keep \"apps\" as it is.",
        .init("no rule (put one of these names in a rule's \"apps\" to cover it)")
      )
    case .desktopCannotWatch:
      (
        "Error of shieldbridge desktop. {error} is the technical detail.",
        .init(
          "cannot watch the desktop: {error} (the service logs this and falls back to the next one down: X11, then the "
            + "running processes)")
      )
    case .desktopNoLongerWatched: ("Error of shieldbridge desktop.", .init("the desktop is no longer watched"))
    case .desktopSilent:
      (
        "Error of shieldbridge desktop --once. {backend} is a desktop, {seconds} a number.",
        .init(
          "the {backend} backend told no focus within {seconds} second",
          plural: "the {backend} backend told no focus within {seconds} seconds")
      )
    // report
    case .reportForgetOnly:
      (
        "Error of shieldbridge report. {option} and {before} are options, {other} the option typed.",
        .init("{option} takes only {before}, not {other}")
      )
    case .reportBeforeWithForget: ("Error. {before} and {forget} are options.", .init("{before} goes with {forget}"))
    case .reportNoSuchRule:
      (
        "Error of shieldbridge report. {rule} is what was typed, {rules} a list of names.",
        .init("no rule is named '{rule}'; the rules are {rules}")
      )
    case .reportExclusive:
      ("Error. {first} and {second} are options.", .init("{first} and {second} cannot go together"))
    case .reportNotAFile:
      (
        "Error of shieldbridge report --html. {path} is a path, {kind} a kind of file (such as directory), {option} the option.",
        .init("cannot write {path}: it is {kind}, not a regular file ({option} writes a file of its own there)")
      )
    case .reportCannotWrite:
      ("Error. {path} is a path, {error} the system's error.", .init("cannot write {path}: {error}"))
    case .reportBadDate:
      (
        "Error. {option} is an option, {text} what was typed; keep the date as it is.",
        .init("{option} takes a date like 2026-11-29, not '{text}'")
      )
    case .reportFromAfterTo:
      (
        "Error. {fromOption} and {toOption} are options, {from} and {to} dates.",
        .init("{fromOption} {from} is after {toOption} {to}")
      )
    case .reportTooManyDays:
      (
        "Error of shieldbridge report. {count} is a number.",
        .init("a report covers at most {count} day", plural: "a report covers at most {count} days")
      )
    }
  }
}
