import Config
import Desktop
import JSON
import Localization
import Model
import Posix
import ShieldBridge

extension Command {
  /// `shieldbridge rules pick NAME`: the app whose window comes to the front joins the rule.
  static let rulesPick = Command(
    name: "pick", abstract: "Add the app whose window you bring to the front to a rule.", arguments: "NAME",
    argumentCount: 1...1, options: PickOptions.self,
    discussion: """
      Asks you to bring the app to the front, waits for the next window other
      than the one in front now (the terminal) to take the focus, shows the
      names the desktop gives it, and asks to confirm. The app is added as an
      object with the narrowest of them: its X11 class, else its app id, else
      its executable; a browser's app window of a site (chromium --app=URL)
      is added as the site. An app of the same name as one the rule has
      joins that entry (the names it lacks are added to it), and a rule that
      is not there yet is started with the default limits. Needs a desktop
      that tells the focus (X11, i3, sway, KWin, GNOME Shell); with the
      running processes alone, use 'shieldbridge desktop' and 'rules add-app'.

      Exit status: 0 when added, or when you answered no; 66 when the input
      ended before the answer; 69 when the desktop tells no focus; 75 when no
      other window took the focus in time; and as the other rules commands.
      """,
    body: { invocation in try await runPick(invocation) })
}

/// The options of `rules pick`.
private struct PickOptions: OptionGroup {
  let timeout: Option<Int>

  init(declaring options: inout OptionDeclarations) {
    timeout = options.integer(
      "--timeout", "SECONDS", in: 1...3600, digitsOnly: true,
      "How long to wait for another window to take the focus (default 120).")
  }
}

/// What waiting for the focus came to.
private enum PickWait: Sendable {
  case picked(FocusedWindow)
  case lost(String)
  case timedOut
}

private func runPick(_ invocation: Invocation<PickOptions>) async throws(CommandFailure) -> ExitCode {
  let rule = invocation.positionals[0]
  let path = try configurationPath()
  let configuration: Configuration
  do {
    configuration = try Configuration.load(from: path).configuration
  } catch {
    throw CommandFailure(error)
  }
  // Said before the wait: a rule that is not there is started by the pick.
  let exists =
    !configuration.rules.isBuiltIn
    && configuration.rules.rules.contains(where: { $0.name.lowercased() == rule.lowercased() })
  if !exists {
    Output.out(
      "There is no rule \"\(rule)\" yet: the app you pick starts it, with the default limits "
        + "(\(RulesText.defaultsText)).")
  }
  var lines = LineReader(chunkSize: 4096, maximumLineLength: 4096)
  let echoes = FileDescriptor.standardInput.isTerminal
  let picked = try await pickApp(
    for: rule, configuration: configuration, timeout: .seconds(try invocation[\.timeout] ?? 120)
  ) { prompt in
    Output.out(bytes: Array((prompt + " ").utf8))
    Output.flush()
    let line = (try? lines.nextLine()) ?? nil
    if !echoes || line == nil { Output.out("") }
    return line
  }
  guard let app = picked else {
    Output.out("Nothing was added.")
    return .success
  }
  if exists {
    return try runEdit(.addApps(rule: rule, apps: [app]), done: nil, rule: rule)
  }
  return try runEdit(
    .add(name: rule, apps: [app], sites: [], settings: RuleSettings()),
    done: { CommandMessage(.ruleStarted, ["path": $0, "rule": rule, "app": app.name]) }, rule: rule)
}

/// Waits for the window brought to the front, shows its names and asks through `ask` to add it to `rule`.
///
/// - Returns: The app to add, or `nil` when the answer was no or the rule covers the window already.
/// - Throws: A failure when the desktop tells no focus, no window came in
///   `timeout`, the window has no name to match, or the input ended.
func pickApp(
  for rule: String, configuration: Configuration, timeout: Duration, ask: (String) -> String?
) async throws(CommandFailure) -> RuleApp? {
  let rules = configuration.rules
  let backend: (any DesktopBackend)?
  do {
    backend = try configuration.desktop.open(environment: Environment.all) { rules.match($0) != nil }
  } catch {
    throw CommandFailure("cannot watch the desktop: \(error.message)", exitCode: .unavailable)
  }
  guard let backend else {
    throw CommandFailure(
      "config.json turns the desktop off (\"desktop\": \"off\"), so no window can be picked", exitCode: .unavailable)
  }
  defer { backend.stop() }
  guard backend.countingSource == .focus else {
    throw CommandFailure(
      "the \(backend.kind) backend sees no windows, only running processes: find the app's names with "
        + "'shieldbridge desktop' and add them with 'shieldbridge rules add-app \(rule) --app NAME'",
      exitCode: .unavailable)
  }
  let seconds = timeout.components.seconds
  let outcome = await waitForOtherWindow(backend, timeout: timeout) {
    // Said once the window in front now is known, so that a window brought up after this line is the one.
    Output.out("Bring the app you want to limit to the front: click its window or switch to it.")
    Output.out("Waiting up to \(seconds) s for a window other than this one to take the focus.")
    Output.flush()
  }
  let focused: FocusedWindow
  switch outcome {
  case .picked(let window):
    focused = window
  case .lost(let reason):
    throw CommandFailure("the desktop is no longer watched: \(reason)", exitCode: .unavailable)
  case .timedOut:
    throw CommandFailure("no other window took the focus within \(seconds) s; nothing was added", exitCode: .tryAgain)
  }
  Output.out("")
  Output.out("In front now:")
  for line in PickedApp.names(of: focused.app) { Output.out("  " + line) }
  guard let app = PickedApp.app(for: focused.app) else {
    throw CommandFailure(
      "the window gives no class, app id or executable to match it by; nothing was added", exitCode: .dataError)
  }
  let object = JSONValue.object(
    [("name", .string(app.name))]
      + (app.classes.isEmpty ? [] : [("class", .string(app.classes[0]))])
      + (app.appIDs.isEmpty ? [] : [("appId", .string(app.appIDs[0]))])
      + (app.executables.isEmpty ? [] : [("exe", .array([.string(app.executables[0])]))])
      + (app.sites.isEmpty ? [] : [("sites", .array([.string(app.sites[0])]))]))
  if let covering = rules.match(focused.app) {
    guard covering.rule.name.lowercased() != rule.lowercased() else {
      // Asking would add nothing: the rule covers the window already.
      Output.out(
        "It is covered already by the rule \"\(covering.rule.name)\" (app \"\(covering.app.name)\"): "
          + "there is nothing to add.")
      return nil
    }
    Output.out("It is covered already, by the rule \"\(covering.rule.name)\" (app \"\(covering.app.name)\").")
  }
  let entry =
    rules.isBuiltIn
    ? nil
    : rules.rules.first { $0.name.lowercased() == rule.lowercased() }?.apps.first {
      $0.name.lowercased() == app.name.lowercased()
    }
  if let entry {
    Output.out(
      "The rule \"\(rule)\" has \(entry.name) already: \(app.namesText) would be added to it.")
  } else {
    Output.out("It would be added to the rule \"\(rule)\" as \(object.serialized).")
  }
  guard let answer = ask("Add it? [Y/n]") else {
    throw CommandFailure("the input ended before the answer; nothing was added", exitCode: .noInput)
  }
  let word = answer.lowercased().filter { $0 != " " }
  return word.isEmpty || word == "y" || word == "yes" ? app : nil
}

/// Waits for a focused window other than the first one the backend reports (the terminal pick runs in).
///
/// `ready` runs once that first focus is known.
private func waitForOtherWindow(
  _ backend: any DesktopBackend, timeout: Duration, ready: @escaping @Sendable () -> Void
) async -> PickWait {
  let events = backend.events(idleAfter: .seconds(3600))
  let (outcomes, outcome) = AsyncStream.makeStream(of: PickWait.self)
  let watcher = Task {
    var first = true
    var terminal: WindowID?
    for await event in events {
      switch event {
      case .focus(let focused):
        // The backend's first focus is the current state: the window pick was started from.
        if first {
          first = false
          terminal = focused?.window
          ready()
          continue
        }
        if let focused, focused.window != terminal {
          outcome.yield(.picked(focused))
          return
        }
      case .lost(let reason):
        outcome.yield(.lost(reason))
        return
      default:
        continue
      }
    }
    outcome.yield(.lost("the backend stopped"))
  }
  let deadline = Task {
    guard (try? await Task.sleep(for: timeout)) != nil else { return }
    outcome.yield(.timedOut)
  }
  var result = PickWait.timedOut
  for await first in outcomes {
    result = first
    break
  }
  watcher.cancel()
  deadline.cancel()
  return result
}
