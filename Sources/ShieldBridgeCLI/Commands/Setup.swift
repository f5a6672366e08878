import Config
import Localization
import Model
import Posix
import ShieldBridge

extension Command {
  /// `shieldbridge setup`: the first run, a rule from the apps and sites people usually limit.
  static let setup = Command(
    name: "setup",
    abstract: "Choose the apps and sites to limit and how much, in plain questions; writes config.json.",
    options: SetupOptions.self,
    discussion: """
      Asks which of the apps and sites people usually limit to cover (or
      another one, by name), the minutes a day, the minutes a solved task adds
      and the tasks a day (5, 5 and 5 unless changed), and writes them as one
      rule (named by --name, "social" unless given) in config.json, as
      'shieldbridge rules' writes it: a rule of that name is replaced, every
      other rule and key kept. Then says whether the service runs, the
      browsers' host is installed and the browser extension answers, and what
      to do for each that does not.

      For scripts: --yes asks nothing and takes --app and --site (at least one
      of them), --limit, --grant and --max (durations as 90s, 5m or 1h30m). An
      --app that names one of the list (such as --app YouTube) brings its
      desktop names and sites; any other is a plain app name.

      Exit status: 0; 64 for a usage error; 66 when the input ended before the
      last answer (nothing is written); 74 when the file cannot be written; 78
      when the configuration is refused.
      """,
    body: { invocation in try await runSetup(invocation) }
  )
}

/// The options of `shieldbridge setup`.
struct SetupOptions: BusOptions {
  let yes: Flag
  let name: Option<String>
  let app: RepeatedOption
  let site: RepeatedOption
  let limit: Option<String>
  let grant: Option<String>
  let max: Option<Int>
  let address: Option<String>

  init(declaring options: inout OptionDeclarations) {
    yes = options.flag("--yes", "Ask nothing: take the apps, sites and numbers from the options.")
    name = options.value("--name", "RULE", "The rule to write (default \"social\").")
    app = options.repeated("--app", "APP", "With --yes: an app to limit, from the list or by name; repeats.")
    site = options.repeated("--site", "SITE", "With --yes: a website to limit, such as reddit.com; repeats.")
    limit = options.value(
      "--limit", "DURATION", "With --yes: the time a day they may be used, all together (default 5m).")
    grant = options.value("--grant", "DURATION", "With --yes: the time a solved task adds (default 5m).")
    max = options.integer(
      "--max", "N", in: Rule.maxGrantsPerDayRange, digitsOnly: true, "With --yes: the tasks a day (default 5).")
    address = options.address()
  }
}

/// The rule `setup` writes, as the questions or the options gave it.
struct SetupChoice: Equatable, Sendable {
  var apps: [RuleApp] = []
  var sites: [String] = []
  var dailyLimitMinutes = Rule.defaultDailyLimitMinutes
  var grantMinutes = Rule.defaultGrantMinutes
  var maxGrantsPerDay = Rule.defaultMaxGrantsPerDay
  /// Whether "another one" is to be picked by its window (`rules pick`) before writing.
  var pickWindow = false

  /// The edit that writes it as the rule `name`: replacing a rule of that name, or adding it.
  ///
  /// An app given twice by name (from the list, and picked by its window)
  /// is written once, with the names and sites of both.
  func edit(name: String, existing: RuleSet) -> RuleEdit {
    let settings = RuleSettings(
      dailyLimitMinutes: dailyLimitMinutes, grantMinutes: grantMinutes, maxGrantsPerDay: maxGrantsPerDay)
    let apps = RuleApp.combining(apps)
    if !existing.isBuiltIn, existing.rules.contains(where: { $0.name.lowercased() == name.lowercased() }) {
      return .set(name: name, apps: apps, sites: sites, settings: settings)
    }
    return .add(name: name, apps: apps, sites: sites, settings: settings)
  }

  /// One line: the names, then the numbers (durations as they are typed, such as 5m).
  var summary: CommandMessage {
    let names = RuleApp.combining(apps).map(\.name) + sites
    return CommandMessage(
      .setupSummary,
      [
        "names": Output.list(names), "limit": DurationText.text(minutes: dailyLimitMinutes),
        "grant": DurationText.text(minutes: grantMinutes),
      ], count: maxGrantsPerDay)
  }
}

/// The questions of `setup`, asked through `ask` (a prompt in, a line or the end of the input out).
struct SetupDialog {
  /// Says a line after `indent` spaces; `nil` is an empty line.
  var say: (_ message: CommandMessage?, _ indent: Int) -> Void
  /// Shows a prompt and reads the answer; `nil` when the input ended.
  var ask: (CommandMessage) -> String?

  private func say(_ message: CommandMessage?, indent: Int = 0) { say(message, indent) }

  /// Why the questions stopped before the end.
  struct InputEnded: Error {}

  /// Asks for the apps and the three numbers; `nil` answers the defaults.
  func run() throws(InputEnded) -> SetupChoice {
    var choice = SetupChoice()
    say(CommandMessage(.setupIntro))
    say(nil)
    say(CommandMessage(.setupCommonApps))
    let entries = CommonApps.all
    let width = String(entries.count + 1).count
    for (index, app) in entries.enumerated() {
      let number = String(index + 1)
      say(
        CommandMessage(.setupEntry, ["number": number, "app": app.name, "sites": Output.list(app.sites)]),
        indent: width - number.count + 2)
    }
    let another = entries.count + 1
    say(CommandMessage(.setupAnother, ["number": String(another)]), indent: 2)
    while choice.apps.isEmpty && choice.sites.isEmpty && !choice.pickWindow {
      guard let answer = ask(CommandMessage(.setupWhich)) else { throw InputEnded() }
      let words = answer.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
      guard !words.isEmpty else {
        say(CommandMessage(.setupChooseOne))
        continue
      }
      let numbers = words.map { Int($0) }
      if let wrong = zip(words, numbers).first(where: { !(1...another).contains($0.1 ?? 0) }) {
        say(CommandMessage(.setupNotInList, ["answer": wrong.0, "last": String(another)]))
        continue
      }
      var picked: [RuleApp] = []
      for number in numbers.compactMap({ $0 }) where number <= entries.count {
        if !picked.contains(entries[number - 1]) { picked.append(entries[number - 1]) }
      }
      var sites: [String] = []
      var pickWindow = false
      if numbers.contains(another) {
        guard let name = ask(CommandMessage(.setupOther)) else { throw InputEnded() }
        let trimmed = name.trimmingSpaces
        if trimmed.isEmpty {
          pickWindow = true
        } else if trimmed.contains("."), Site(trimmed) != nil {
          sites.append(trimmed)
        } else {
          picked.append(RuleApp(name: trimmed))
        }
      }
      choice.apps = picked
      choice.sites = sites
      choice.pickWindow = pickWindow
    }
    choice.dailyLimitMinutes = try minutes(
      .setupLimitQuestion, default: choice.dailyLimitMinutes, range: Rule.dailyLimitMinutesRange)
    choice.grantMinutes = try minutes(.setupGrantQuestion, default: choice.grantMinutes, range: Rule.grantMinutesRange)
    choice.maxGrantsPerDay = try count(
      .setupMaxQuestion, default: choice.maxGrantsPerDay, range: Rule.maxGrantsPerDayRange)
    return choice
  }

  private func minutes(_ question: CommandKey, default value: Int, range: ClosedRange<Int>) throws(InputEnded) -> Int {
    while true {
      guard let answer = ask(CommandMessage(question, ["default": String(value)])) else { throw InputEnded() }
      let text = answer.trimmingSpaces
      if text.isEmpty { return value }
      do {
        let minutes = try DurationText.minutes(text)
        guard range.contains(minutes) else {
          say(
            CommandMessage(
              .setupMinutesRange, ["low": String(range.lowerBound)], count: range.upperBound, as: "high"))
          continue
        }
        return minutes
      } catch {
        say(CommandMessage(.setupDurationProblem, ["problem": ConfigurationText.problem(error)]))
      }
    }
  }

  private func count(_ question: CommandKey, default value: Int, range: ClosedRange<Int>) throws(InputEnded) -> Int {
    while true {
      guard let answer = ask(CommandMessage(question, ["default": String(value)])) else { throw InputEnded() }
      let text = answer.trimmingSpaces
      if text.isEmpty { return value }
      guard text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), text.count <= 4, let number = Int(text),
        range.contains(number)
      else {
        say(
          CommandMessage(
            .setupWholeNumberRange, ["low": String(range.lowerBound), "high": String(range.upperBound)]))
        continue
      }
      return number
    }
  }
}

extension String {
  /// Without spaces and tabs at either end.
  fileprivate var trimmingSpaces: String {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
    return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
  }
}

/// The choice `setup --yes` takes from its options.
func setupChoice(_ invocation: Invocation<SetupOptions>) throws(CommandFailure) -> SetupChoice {
  var choice = SetupChoice()
  choice.apps = invocation[\.app].map { CommonApps.named($0) ?? RuleApp(name: $0) }
  choice.sites = invocation[\.site]
  guard !choice.apps.isEmpty || !choice.sites.isEmpty else {
    throw .usage(CommandMessage(.setupYesNeeds))
  }
  func minutes(_ key: KeyPath<SetupOptions, Option<String>>) throws(CommandFailure) -> Int? {
    guard let text = invocation[key] else { return nil }
    do { return try DurationText.minutes(text) } catch {
      throw .usage(
        .optionProblem(option: invocation.options[keyPath: key].name, problem: ConfigurationText.problem(error)))
    }
  }
  if let value = try minutes(\.limit) { choice.dailyLimitMinutes = value }
  if let value = try minutes(\.grant) { choice.grantMinutes = value }
  if let value = try invocation[\.max] { choice.maxGrantsPerDay = value }
  return choice
}

private func runSetup(_ invocation: Invocation<SetupOptions>) async throws(CommandFailure) -> ExitCode {
  let path = try configurationPath()
  let existing: LoadedConfiguration
  do {
    existing = try Configuration.load(from: path)
  } catch {
    throw CommandFailure(error)
  }
  let name = invocation[\.name] ?? "social"
  var choice: SetupChoice
  var lines = LineReader(chunkSize: 4096, maximumLineLength: 4096)
  let echoes = FileDescriptor.standardInput.isTerminal
  // rules pick's question is still English (docs/developing/translating.md): the prompt is text.
  let askText: (String) -> String? = { prompt in
    // machine output: a prompt rendered from the catalogs by `ask` (rules pick's is English), without its line end.
    Output.out(bytes: Array((prompt + " ").utf8))
    Output.flush()
    let line = (try? lines.nextLine()) ?? nil
    if !echoes || line == nil { Output.blankLine() }
    return line
  }
  let ask: (CommandMessage) -> String? = { askText(Output.text($0)) }
  if invocation[\.yes] {
    choice = try setupChoice(invocation)
  } else {
    for option in ["--app", "--site", "--limit", "--grant", "--max"] where invocation.givenOptionNames.contains(option)
    {
      throw .usage(CommandMessage(.setupGoesWithYes, ["option": option]))
    }
    if !existing.isDefault, !existing.configuration.rules.isBuiltIn {
      let rules = existing.configuration.rules.rules
      Output.say(
        CommandMessage(
          .setupExisting, ["path": path, "rules": Output.list(rules.map { "\"\($0.name)\"" }), "rule": name],
          count: rules.count))
      Output.blankLine()
    }
    let dialog = SetupDialog(
      say: { message, indent in
        if let message { Output.say(message, indent: indent) } else { Output.blankLine() }
      }, ask: ask)
    do {
      choice = try dialog.run()
    } catch {
      throw CommandFailure(CommandMessage(.setupInputEnded), exitCode: .noInput)
    }
  }
  if choice.pickWindow {
    Output.blankLine()
    do {
      if let app = try await pickApp(
        for: name, configuration: existing.configuration, timeout: .seconds(120), ask: askText)
      {
        choice.apps.append(app)
      }
    } catch {
      Output.say(CommandMessage(.setupNotPicked, ["problem": error.message]))
    }
    guard !choice.apps.isEmpty || !choice.sites.isEmpty else {
      throw CommandFailure(CommandMessage(.setupNothingChosen), exitCode: .dataError)
    }
  }
  let loaded: LoadedConfiguration
  do {
    loaded = try Configuration.edit(at: path, choice.edit(name: name, existing: existing.configuration.rules)).loaded
  } catch {
    throw CommandFailure(error)
  }
  for warning in loaded.warnings { Output.warn(warning) }
  Output.blankLine()
  Output.say(CommandMessage(.setupWrote, ["rule": name, "path": path, "summary": Output.text(choice.summary)]))
  Output.say(CommandMessage(.setupChangeLater, ["example": "shieldbridge rules set \(name) --limit 20m"]))
  Output.blankLine()
  let check = await InstallationCheck.run(
    bus: bus(invocation), environment: Environment.all, executable: currentExecutable())
  for message in check.setupMessages { Output.say(message) }
  return .success
}

/// What `status` says first when there is no `config.json`.
let noConfigurationLine = CommandMessage(.noConfiguration)

/// Loads `config.json` with whether it was there, printing its warnings to stderr.
func loadConfigurationFile() throws(CommandFailure) -> LoadedConfiguration {
  do {
    let loaded = try Configuration.load()
    for warning in loaded.warnings { Output.warn(warning) }
    return loaded
  } catch {
    throw CommandFailure(error)
  }
}
