import Brake
import Localization
import Posix
import ShieldBridge

extension Command {
  /// `shieldbridge puzzle [--app NAME] [--grant N] [--seed S]`: the plain terminal task.
  static let puzzle = Command(
    name: "puzzle",
    abstract: "Solve a short task in the terminal to unlock more minutes for today.",
    options: PuzzleOptions.self,
    discussion: """
      Reads answers line by line from stdin. A wrong answer gets a new task; a
      right one records a grant in the ledger for today, until local midnight.
      The texts are in the user's language (LANGUAGE, LC_ALL, LC_MESSAGES, LANG).

      Exit status: 0 when the task was solved and the time unlocked; 1 when
      the input ended without a right answer; 75 when today's grants are used
      up (try again tomorrow) or another process kept the ledger locked; 78
      when the configuration is wrong or no rule covers the app; 74 when the
      ledger cannot be read or written (checked before the task is asked).
      """,
    body: { invocation in try runPuzzle(invocation) }
  )
}

/// The options of `shieldbridge puzzle`.
private struct PuzzleOptions: OptionGroup {
  let app: Option<String>
  let grant: Option<Int>
  let seed: Option<UInt64>

  init(declaring options: inout OptionDeclarations) {
    app = options.value("--app", "NAME", "The app the minutes are for; it picks the rule.")
    grant = options.integer(
      "--grant", "N", in: Rule.grantMinutesRange,
      "The minutes the link offers (\(Rule.grantMinutesRange.lowerBound)-\(Rule.grantMinutesRange.upperBound)); "
        + "the rule's own minutes apply.")
    seed = options.integer(
      "--seed", "S", in: 0...UInt64.max, digitsOnly: true,
      "Draw the tasks from this seed (a whole number), to repeat them.")
  }
}

private func runPuzzle(_ invocation: Invocation<PuzzleOptions>) throws(CommandFailure) -> ExitCode {
  let app = invocation[\.app].flatMap { $0.isEmpty ? nil : $0 }
  let offeredMinutes = try invocation[\.grant]
  let seed = try invocation[\.seed]

  let configuration = try loadConfiguration()
  let rule: Rule
  do {
    rule = try configuration.rules.rule(for: app)
  } catch {
    let failure = CommandFailure(error)
    guard LastScreen.isInteractive else { throw failure }
    // The refusal is the last screen of a terminal opened for it: print it
    // here, before waiting, rather than after the return as usual.
    Output.err("shieldbridge: \(failure.message)")
    LastScreen.hold()
    return failure.exitCode
  }
  if let offeredMinutes, offeredMinutes != rule.grantMinutes {
    Output.err(
      "shieldbridge: note: the rule '\(rule.name)' grants \(rule.grantMinutes) minutes; "
        + "--grant \(offeredMinutes) does not change that")
  }
  let store = try standardLedgerStore()
  let localizer = Localizer.current()
  do {
    // Today's grants, then whether the grant can be written: before the task.
    let readiness = try store.preparePuzzle(for: rule)
    report(readiness.warnings)
    guard case .ready = readiness.value else {
      Output.out(localizer.render(.shieldUsedUp(app: app)))
      LastScreen.hold()
      return .tryAgain
    }
  } catch {
    throw CommandFailure(error)
  }

  let solved =
    if let seed {
      askUntilSolved(
        PuzzleSession(random: SeededRandom(seed: seed)), minutes: rule.grantMinutes, app: app,
        localizer: localizer)
    } else {
      askUntilSolved(
        PuzzleSession(random: SystemRandomNumberGenerator()), minutes: rule.grantMinutes, app: app,
        localizer: localizer)
    }
  guard solved else {
    Output.flush()
    Output.err("shieldbridge: the input ended without the answer; nothing was unlocked")
    return .failure
  }

  do {
    let recorded = try store.grantSolvedPuzzle(for: rule)
    report(recorded.warnings)
    guard case .granted = recorded.value else {
      // Another puzzle took the last grant while this one was being solved.
      Output.out(localizer.render(.shieldUsedUp(app: app)))
      LastScreen.hold()
      return .tryAgain
    }
  } catch {
    throw CommandFailure(error)
  }
  Output.out(localizer.render(.puzzleSolved(app: app, minutes: rule.grantMinutes)))
  LastScreen.hold()
  return .success
}

/// Shows tasks and reads answers until one is right (`true`) or stdin ends (`false`).
private func askUntilSolved<Random: RandomNumberGenerator>(
  _ session: PuzzleSession<Random>, minutes: Int, app: String?, localizer: Localizer
) -> Bool {
  var session = session
  // An answer line longer than this is cut there and its rest skipped: endless input cannot fill the memory.
  var lines = LineReader(chunkSize: 4096, maximumLineLength: 4096)
  // A terminal echoes the answer and its line end; piped input does not, so
  // the next text would otherwise continue the prompt's line.
  let echoes = FileDescriptor.standardInput.isTerminal
  Output.out(localizer.render(.puzzleTitle))
  Output.out("")
  Output.out(localizer.render(.puzzleIntro(app: app, minutes: minutes)))
  var showTask = true
  while true {
    if showTask {
      Output.out("")
      Output.out(localizer.render(.puzzleQuestion(task: session.puzzle.text)))
    }
    Output.out(bytes: Array((localizer.render(.puzzlePrompt) + " ").utf8))
    Output.flush()
    // A failed read ends the input, as the end of the input does.
    guard let line = (try? lines.nextLine()) ?? nil else {
      Output.out("")
      return false
    }
    if !echoes { Output.out("") }
    switch session.answer(line) {
    case .solved:
      Output.out("")
      return true
    case .wrong:
      Output.out(localizer.render(.puzzleWrong))
      showTask = true
    case .blank:
      showTask = false
    }
  }
}
