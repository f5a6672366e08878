import Config
import Localization
import Model
import Posix
import ShieldBridge
import Store

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

      Before the task, a person at a terminal is offered the way out: typing q
      instead of the answer closes the task, counts the way out for today and
      leaves the app paused.

      Exit status: 0 when the task was solved and the time unlocked; 1 when
      the input ended without a right answer or the way out (q) was taken; 75 when today's grants are used
      up (try again tomorrow), when the service's meter counts the app and it
      is not at today's limit yet (try again once the limit is used), or when
      another process kept the ledger locked; 78
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
  let store = try standardLedgerStore(dayStart: configuration.dayStartsAt)
  let rule: Rule
  do {
    rule = try RulesInForce.resolve(configured: configuration.rules, store: store).rule(for: app)
  } catch {
    let failure = CommandFailure(error)
    guard LastScreen.isInteractive else { throw failure }
    // The refusal is the last screen of a terminal opened for it: print it
    // here, before waiting, rather than after the return as usual.
    // machine output: the failure's message is rendered from the catalogs already.
    Output.err("shieldbridge: \(failure.message)")
    LastScreen.hold()
    return failure.exitCode
  }
  if let offeredMinutes, offeredMinutes != rule.grantMinutes {
    Output.say(
      CommandMessage(
        .puzzleGrantNote, ["rule": rule.name, "offered": String(offeredMinutes)], count: rule.grantMinutes,
        as: "minutes"),
      to: .err, prefix: "shieldbridge: ")
  }
  let localizer = Localizer.current()
  let outcome =
    if let seed {
      try solvePuzzle(for: rule, in: store, random: SeededRandom(seed: seed), app: app, localizer: localizer)
    } else {
      try solvePuzzle(for: rule, in: store, random: SystemRandomNumberGenerator(), app: app, localizer: localizer)
    }
  guard let text = outcome.text else { return outcome.exitCode }
  // machine output: the last screen is rendered from the catalogs already.
  Output.out(text)
  LastScreen.hold()
  return outcome.exitCode
}

/// How a puzzle ends: its last screen (`nil` when the input ended, said on
/// stderr) and the exit status.
private struct PuzzleEnd {
  var text: String?
  var exitCode: ExitCode
}

/// The one puzzle path (``PuzzleRun``) on the terminal: prepare, ask until
/// solved, grant.
///
/// - Throws: ``CommandFailure`` for a ledger that cannot be read or written.
private func solvePuzzle<Random: RandomNumberGenerator & Sendable>(
  for rule: Rule, in store: LedgerStore, random: Random, app: String?, localizer: Localizer
) throws(CommandFailure) -> PuzzleEnd {
  // Today's grants, the meter's word on the limit, then whether the grant can be written: before the task.
  var run: PuzzleRun<Random>
  do {
    let prepared = try PuzzleRun.prepare(for: rule, in: store, random: random)
    report(prepared.warnings)
    switch prepared.value {
    case .ready(let ready): run = ready
    case .usedUp: return PuzzleEnd(text: localizer.render(.shieldUsedUp(app: app)), exitCode: .tryAgain)
    case .notAtLimit: return PuzzleEnd(text: localizer.render(.puzzleNotAtLimit(app: app)), exitCode: .tryAgain)
    case .inDowntime(_, let until):
      return PuzzleEnd(text: localizer.render(.puzzleDowntime(app: app, time: until)), exitCode: .tryAgain)
    }
  } catch {
    throw CommandFailure(error)
  }
  // The request is counted as the task is asked, solved or not (issue 25 point 2).
  let asked: Int
  do {
    let counted = try run.ask()
    report(counted.warnings)
    asked = counted.value
  } catch {
    throw CommandFailure(error)
  }
  let solved: SolvedPuzzle
  switch askUntilSolved(&run, app: app, asked: asked, localizer: localizer) {
  case .solved(let puzzle):
    solved = puzzle
  case .ended:
    Output.flush()
    Output.say(CommandMessage(.puzzleInputEnded), to: .err, prefix: "shieldbridge: ")
    return PuzzleEnd(text: nil, exitCode: .failure)
  case .wayOut:
    // The plain choice beside the task (issue 25 point 1): counted, and the app stays paused.
    do {
      let counted = try store.recordBackedOut(for: rule.name)
      report(counted.warnings)
    } catch {
      throw CommandFailure(error)
    }
    return PuzzleEnd(text: localizer.render(.shieldSummary(app: app)), exitCode: .failure)
  }
  do {
    let granted = try solved.grant()
    report(granted.warnings)
    switch granted.value {
    case .granted:
      return PuzzleEnd(
        text: localizer.render(.puzzleSolved(app: app, minutes: rule.grantMinutes)), exitCode: .success)
    case .usedUp:
      // Another puzzle took the last grant while this one was being solved.
      return PuzzleEnd(text: localizer.render(.shieldUsedUp(app: app)), exitCode: .tryAgain)
    case .notAtLimit:
      // A grant elsewhere raised the limit while this task was open.
      return PuzzleEnd(text: localizer.render(.puzzleNotAtLimit(app: app)), exitCode: .tryAgain)
    }
  } catch {
    throw CommandFailure(error)
  }
}

/// Waits out `pause` before the first answer is read, saying so: at a
/// terminal a countdown on one line, rewritten each second; piped, the one line.
private func waitOut(_ pause: Pause, countingDown: Bool, localizer: Localizer) {
  guard !pause.isNone else { return }
  let start = MonotonicTime.now
  var shown = -1
  while true {
    let left = pause.secondsLeft(after: MonotonicTime.now.duration(since: start))
    if left == 0 { break }
    if left != shown && (countingDown || shown < 0) {
      let line = localizer.render(.puzzleWait(seconds: left))
      // Carriage return and erase to the end of the line: the countdown stays on its line.
      // machine output: a catalog message, with the terminal's control characters around it.
      Output.out(bytes: Array((countingDown ? "\r\u{1B}[K" + line : line + "\n").utf8))
      Output.flush()
      shown = left
    }
    sleepThread(.milliseconds(100))
  }
  // machine output: the terminal's control characters that erase the countdown.
  if countingDown { Output.out(bytes: Array("\r\u{1B}[K".utf8)) }
}

/// How the terminal task ended before its grant.
private enum TerminalAnswer {
  /// Answered right: the grant to take.
  case solved(SolvedPuzzle)
  /// The input ended.
  case ended
  /// The way out was chosen (`q`).
  case wayOut
}

/// The answer that chooses the way out instead of the task: `q`, with any whitespace around it.
let wayOutAnswer = "q"

/// Shows tasks and reads answers until one is right (its grant to take), the
/// way out is chosen, or stdin ends.
private func askUntilSolved<Random: RandomNumberGenerator & Sendable>(
  _ run: inout PuzzleRun<Random>, app: String?, asked: Int, localizer: Localizer
) -> TerminalAnswer {
  let minutes = run.rule.grantMinutes
  // An answer line longer than this is cut there and its rest skipped: endless input cannot fill the memory.
  var lines = LineReader(chunkSize: 4096, maximumLineLength: 4096)
  // A terminal echoes the answer and its line end; piped input does not, so
  // the next text would otherwise continue the prompt's line.
  let echoes = FileDescriptor.standardInput.isTerminal
  Output.say(.puzzleTitle, with: localizer)
  Output.blankLine()
  Output.say(.puzzleIntro(app: app, minutes: minutes), with: localizer)
  if let message = ProductMessage.asked(times: asked) { Output.say(message, with: localizer) }
  // The way out, said before the task to a person at a terminal; a script's piped answers never see it.
  if echoes { Output.say(.puzzleWayOut(app: app), with: localizer) }
  var showTask = true
  var pause = Pause(of: run.rule)
  while true {
    if showTask {
      Output.blankLine()
      Output.say(.puzzleQuestion(task: run.puzzle.text), with: localizer)
      // The rule's pause, once per request: the answer is read only after it.
      waitOut(pause, countingDown: echoes, localizer: localizer)
      pause = Pause(seconds: 0)
    }
    // machine output: the catalog's prompt, without its line end.
    Output.out(bytes: Array((localizer.render(.puzzlePrompt) + " ").utf8))
    Output.flush()
    // A failed read ends the input, as the end of the input does.
    guard let line = (try? lines.nextLine()) ?? nil else {
      Output.blankLine()
      return .ended
    }
    if !echoes { Output.blankLine() }
    if line.split(whereSeparator: \.isWhitespace).map(String.init) == [wayOutAnswer] {
      Output.blankLine()
      return .wayOut
    }
    switch run.check(line) {
    case .solved(let solved):
      Output.blankLine()
      return .solved(solved)
    case .wrong:
      Output.say(.puzzleWrong, with: localizer)
      showTask = true
    case .blank:
      showTask = false
    }
  }
}
