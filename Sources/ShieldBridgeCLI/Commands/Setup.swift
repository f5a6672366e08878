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

  /// One line: the names, then the numbers.
  var summary: String {
    let names = RuleApp.combining(apps).map(\.name) + sites
    return names.joined(separator: ", ") + "; \(DurationText.text(minutes: dailyLimitMinutes)) a day, "
      + "\(DurationText.text(minutes: grantMinutes)) per task, at most \(maxGrantsPerDay) "
      + (maxGrantsPerDay == 1 ? "task" : "tasks") + " a day"
  }
}

/// The questions of `setup`, asked through `ask` (a prompt in, a line or the end of the input out).
struct SetupDialog {
  /// Says a line.
  var say: (String) -> Void
  /// Shows a prompt and reads the answer; `nil` when the input ended.
  var ask: (String) -> String?

  /// Why the questions stopped before the end.
  struct InputEnded: Error {}

  /// Asks for the apps and the three numbers; `nil` answers the defaults.
  func run() throws(InputEnded) -> SetupChoice {
    var choice = SetupChoice()
    say("Set up ShieldBridge: which apps and sites to limit, and how much. Enter takes the value in brackets.")
    say("")
    say("Apps and sites people often limit:")
    let entries = CommonApps.all
    let width = String(entries.count + 1).count
    for (index, app) in entries.enumerated() {
      let number = String(index + 1)
      say(
        String(repeating: " ", count: width - number.count + 2) + number + "  " + app.name + " ("
          + app.sites.joined(separator: ", ") + ")")
    }
    let another = entries.count + 1
    say(String(repeating: " ", count: 2) + String(another) + "  Another app or site, by name")
    while choice.apps.isEmpty && choice.sites.isEmpty && !choice.pickWindow {
      guard let answer = ask("Which ones? Their numbers, such as 1 3 6:") else { throw InputEnded() }
      let words = answer.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
      guard !words.isEmpty else {
        say("Choose at least one number.")
        continue
      }
      let numbers = words.map { Int($0) }
      if let wrong = zip(words, numbers).first(where: { !(1...another).contains($0.1 ?? 0) }) {
        say("There is no \(wrong.0) in the list; choose numbers from 1 to \(another).")
        continue
      }
      var picked: [RuleApp] = []
      for number in numbers.compactMap({ $0 }) where number <= entries.count {
        if !picked.contains(entries[number - 1]) { picked.append(entries[number - 1]) }
      }
      var sites: [String] = []
      var pickWindow = false
      if numbers.contains(another) {
        guard
          let name = ask(
            "The other one: a site such as example.com, an app as 'shieldbridge desktop' names it, "
              + "or Enter to pick its window:")
        else { throw InputEnded() }
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
      "Minutes a day they may be used, all together", default: choice.dailyLimitMinutes,
      range: Rule.dailyLimitMinutesRange)
    choice.grantMinutes = try minutes(
      "Minutes one solved task adds", default: choice.grantMinutes, range: Rule.grantMinutesRange)
    choice.maxGrantsPerDay = try count(
      "Tasks a day at most", default: choice.maxGrantsPerDay, range: Rule.maxGrantsPerDayRange)
    return choice
  }

  private func minutes(_ question: String, default value: Int, range: ClosedRange<Int>) throws(InputEnded) -> Int {
    while true {
      guard let answer = ask("\(question) [\(value)]:") else { throw InputEnded() }
      let text = answer.trimmingSpaces
      if text.isEmpty { return value }
      do {
        let minutes = try DurationText.minutes(text)
        guard range.contains(minutes) else {
          say("Choose from \(range.lowerBound) to \(range.upperBound) minutes.")
          continue
        }
        return minutes
      } catch {
        say("\(error).")
      }
    }
  }

  private func count(_ question: String, default value: Int, range: ClosedRange<Int>) throws(InputEnded) -> Int {
    while true {
      guard let answer = ask("\(question) [\(value)]:") else { throw InputEnded() }
      let text = answer.trimmingSpaces
      if text.isEmpty { return value }
      guard text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), text.count <= 4, let number = Int(text),
        range.contains(number)
      else {
        say("Choose a whole number from \(range.lowerBound) to \(range.upperBound).")
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
    throw .usage("setup --yes needs at least one --app or --site")
  }
  func minutes(_ key: KeyPath<SetupOptions, Option<String>>) throws(CommandFailure) -> Int? {
    guard let text = invocation[key] else { return nil }
    do { return try DurationText.minutes(text) } catch {
      throw .usage("\(invocation.options[keyPath: key].name): \(error)")
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
  let ask: (String) -> String? = { prompt in
    Output.out(bytes: Array((prompt + " ").utf8))
    Output.flush()
    let line = (try? lines.nextLine()) ?? nil
    if !echoes || line == nil { Output.out("") }
    return line
  }
  if invocation[\.yes] {
    choice = try setupChoice(invocation)
  } else {
    for option in ["--app", "--site", "--limit", "--grant", "--max"] where invocation.givenOptionNames.contains(option)
    {
      throw .usage("\(option) goes with --yes; without it, setup asks")
    }
    if !existing.isDefault, !existing.configuration.rules.isBuiltIn {
      Output.out(
        "\(path) has the rules " + existing.configuration.rules.rules.map { "\"\($0.name)\"" }.joined(separator: ", ")
          + "; setup writes the rule \"\(name)\" and keeps the others.")
      Output.out("")
    }
    let dialog = SetupDialog(say: { Output.out($0) }, ask: ask)
    do {
      choice = try dialog.run()
    } catch {
      throw CommandFailure("the input ended before the last answer: nothing was written", exitCode: .noInput)
    }
  }
  if choice.pickWindow {
    Output.out("")
    do {
      if let app = try await pickApp(
        for: name, configuration: existing.configuration, timeout: .seconds(120), ask: ask)
      {
        choice.apps.append(app)
      }
    } catch {
      Output.out("The window was not picked: \(error.message).")
    }
    guard !choice.apps.isEmpty || !choice.sites.isEmpty else {
      throw CommandFailure("no app or site was chosen: nothing was written", exitCode: .dataError)
    }
  }
  let loaded: LoadedConfiguration
  do {
    loaded = try Configuration.edit(at: path, choice.edit(name: name, existing: existing.configuration.rules)).loaded
  } catch {
    throw CommandFailure(error)
  }
  for warning in loaded.warnings { Output.warn(warning) }
  Output.out("")
  Output.out("Wrote the rule \"\(name)\" to \(path): \(choice.summary).")
  Output.out("Change it later with 'shieldbridge rules' (such as: shieldbridge rules set \(name) --limit 20m).")
  Output.out("")
  let check = await InstallationCheck.run(
    bus: bus(invocation), environment: Environment.all, executable: currentExecutable())
  for line in check.lines { Output.out(line) }
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
