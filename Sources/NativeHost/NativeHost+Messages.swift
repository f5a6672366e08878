import JSON
import Localization
import Model
import Posix
import ShieldCore
import Store

extension NativeHost {
  /// The longest language tag `hello` may name (BCP 47 allows 35 characters in practice).
  static let languageLimit = 35

  /// Handles one message from the browser. A message that cannot be taken
  /// (not UTF-8, not JSON, not an object, an unknown type, a bad value) is
  /// logged and answered with `{"type":"error"}`; the host goes on.
  func handle(_ body: [UInt8]) async {
    guard String(validating: body, as: UTF8.self) != nil else {
      refuse("a message of \(body.count) bytes is not valid UTF-8; it was ignored")
      return
    }
    let message: JSONValue
    do {
      message = try JSONValue(parsing: body)
    } catch {
      refuse("a message is not JSON (\(error)); it was ignored")
      return
    }
    guard case .object = message else {
      refuse("a message is not a JSON object; it was ignored")
      return
    }
    guard let type = message["type"]?.stringValue else {
      refuse("a message has no \"type\"; it was ignored")
      return
    }
    switch type {
    case "hello": hello(message)
    case "focus": await focusMessage(message)
    case "puzzle": puzzleMessage(message)
    case "answer": await answerMessage(message)
    case "rules": rulesMessage()
    case "limitSite": limitSiteMessage(message)
    case "wayOut": wayOutMessage(message)
    case "week": weekMessage(message)
    default:
      let shown = type.utf8.count > 40 ? String(decoding: type.utf8.prefix(40), as: UTF8.self) + "…" : type
      refuse("unknown message type \(JSONValue.string(shown).serialized); it was ignored")
    }
  }

  /// `{"type":"hello","version":1,"language":"de-DE"}`: the texts from now on are in that language.
  private func hello(_ message: JSONValue) {
    guard let language = message["language"]?.stringValue else { return }
    guard !language.isEmpty, language.utf8.count <= Self.languageLimit,
      language.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || Self.isAlphanumeric($0) })
    else {
      refuse(
        "hello: \"language\" is not a language tag such as de-DE; the texts stay in \(localizer.locale.identifier)")
      return
    }
    // Browsers write de-DE, gettext de_DE; negotiated like `locales negotiate`.
    localizer = Localizer.current(
      override: language.replacingAll("-", with: "_"), directory: options.catalogDirectory)
  }

  /// `{"type":"focus","site":"instagram.com","focused":true}` or `"site":null`.
  ///
  /// `focused` is whether the browser says the window of that tab has the
  /// focus; without it, a site counts as focused (an extension before it
  /// reported a site only while its window was focused).
  private func focusMessage(_ message: JSONValue) async {
    guard let value = message["site"] else {
      refuse("focus: \"site\" is missing (null for none)")
      return
    }
    var focused: Bool?
    switch message["focused"] {
    case nil, .null?: focused = nil
    case .bool(let value)?: focused = value
    default: refuse("focus: \"focused\" is not true or false; it counts as missing")
    }
    if case .null = value {
      await focus(BrowserFront(site: nil, windowFocused: focused ?? false))
      return
    }
    guard let text = value.stringValue, let site = Site(text) else {
      refuse("focus: \"site\" is not a host name such as instagram.com; it counts as no site")
      // The browser shows something no rule can name: a site reported
      // before (or waiting to be) must not go on counting for it.
      if (wanted ?? told)?.site != nil { await focus(BrowserFront(site: nil, windowFocused: focused ?? false)) }
      return
    }
    await focus(BrowserFront(site: site, windowFocused: focused ?? true))
  }

  /// `{"type":"puzzle","site":"instagram.com"}`: a task for the site's rule,
  /// `usedUp`, or `notAtLimit` while the service's meter has not seen the rule at its limit.
  ///
  /// One task per rule: while a task of the site's rule is open (a shield
  /// page reloaded, a second tab of the rule's sites, the page asking again),
  /// the open one is sent again, with its count and what is left of its
  /// pause, and no new request is counted.
  private func puzzleMessage(_ message: JSONValue) {
    guard let text = message["site"]?.stringValue, let site = Site(text) else {
      refuse("puzzle: \"site\" is not a host name such as instagram.com")
      return
    }
    let rules = options.reloadRules?() ?? options.rules
    guard let match = rules.match(site: site) else {
      refuse("puzzle: no rule covers \(site); there is nothing to unlock")
      return
    }
    let run: PuzzleRun<SeededRandom>
    do {
      let prepared = try PuzzleRun.prepare(
        for: match.rule, in: options.ledger, random: SeededRandom(seed: random.next()))
      for warning in prepared.warnings { options.logger.warning("\(warning)") }
      switch prepared.value {
      case .ready(let ready):
        run = ready
      case .usedUp:
        puzzle = nil
        send(usedUp(site: site, match: match))
        return
      case .notAtLimit:
        puzzle = nil
        send(notAtLimit(site: site, match: match))
        return
      case .inDowntime(_, let until):
        puzzle = nil
        send(inDowntime(site: site, match: match, until: until))
        return
      }
    } catch {
      refuse("puzzle: the ledger cannot be used: \(error)")
      return
    }
    if let open = puzzle, open.match.rule.name == match.rule.name, open.run.status.day == run.status.day {
      options.logger.info("puzzle: the task of rule \(match.rule.name) is open; it is sent again, not counted again")
      send(task(open))
      return
    }
    // The request is counted as the task is asked (issue 25 point 2).
    let asked: Int
    do {
      let counted = try run.ask()
      for warning in counted.warnings { options.logger.warning("\(warning)") }
      asked = counted.value
    } catch {
      refuse("puzzle: the ledger cannot be used: \(error)")
      return
    }
    let opened = OpenPuzzle(id: takePuzzleID(), site: site, match: match, run: run, asked: asked)
    puzzle = opened
    send(task(opened))
  }

  /// `{"type":"wayOut","site":"instagram.com"}`: the shield page's way out
  /// ("Not now", issue 25 point 1) was taken. It is counted for the site's
  /// rule today (``Store/LedgerStore/recordBackedOut(for:)``) once per
  /// shield shown (``ShieldCore/WayOut/Tally``): only while a meter counts
  /// the rule and it is at its limit (the extension shows its shield page
  /// only then), and once for that limit however often it comes. The open
  /// task is dropped, and `{"type":"backedOut","site":…,"text":…}` tells the
  /// page to stay a plain paused page (the text is the shield's summary).
  private func wayOutMessage(_ message: JSONValue) {
    guard let text = message["site"]?.stringValue, let site = Site(text) else {
      refuse("wayOut: \"site\" is not a host name such as instagram.com")
      return
    }
    let rules = options.reloadRules?() ?? options.rules
    guard let match = rules.match(site: site) else {
      refuse("wayOut: no rule covers \(site)")
      return
    }
    do {
      let loaded = try options.ledger.load()
      for warning in loaded.warnings { options.logger.warning("\(warning)") }
      let day = options.ledger.today(in: loaded.value)
      // A shield page is shown only where the service's meter says the site's rule is at its limit.
      let isShown =
        loaded.value.metered(on: day).contains(match.rule.name) && loaded.value.isAtLimit(match.rule, on: day)
      let shield =
        isShown
        ? WayOut.Shield(rule: match.rule.name, day: day, grants: loaded.value.grants(for: match.rule.name, on: day))
        : nil
      if wayOuts.take(at: shield) {
        let counted = try options.ledger.recordBackedOut(for: match.rule.name)
        for warning in counted.warnings { options.logger.warning("\(warning)") }
        options.logger.info(
          "the way out was taken for \(site) (rule \(match.rule.name), \(counted.value.count) today)")
      } else {
        options.logger.info(
          "the way out for \(site) is not counted: "
            + (shield == nil
              ? "no meter has rule \(match.rule.name) at its limit, so no shield is shown"
              : "it was counted for this shield already"))
      }
    } catch {
      refuse("wayOut: the ledger cannot be used: \(error)")
      return
    }
    puzzle = nil
    send(
      .object([
        ("type", .string("backedOut")), ("site", .string(site.name)),
        ("text", .string(localizer.render(.shieldSummary(app: match.app.name)))),
      ]))
  }

  /// `{"type":"answer","puzzle":ID,"answer":"12"}`.
  private func answerMessage(_ message: JSONValue) async {
    guard let id = message["puzzle"]?.integerValue, let answer = message["answer"]?.stringValue else {
      refuse("answer: it needs \"puzzle\" (the task's number) and \"answer\" (a string)")
      return
    }
    guard var open = puzzle, open.id == id else {
      refuse("answer: task \(id) is not the one open; ask for a new task")
      return
    }
    // An answer before the rule's pause ran (issue 25 point 4): the same task again, with the time left.
    if waitSeconds(open) > 0 {
      send(
        .object([
          ("type", .string("answer")), ("puzzle", .int(open.id)), ("result", .string("early")),
          ("seconds", .int(waitSeconds(open))),
          ("text", .string(localizer.render(.puzzleWait(seconds: waitSeconds(open))))),
        ]))
      send(task(open))
      return
    }
    // An answer is a number of a few digits: a long one is wrong, never parsed at length.
    let attempt = open.run.check(answer.utf8.count > 64 ? "x" : answer)
    let app = open.match.app.name
    switch attempt {
    case .blank:
      // No answer yet: the same task again, with no text to show.
      send(.object([("type", .string("answer")), ("puzzle", .int(open.id)), ("result", .string("blank"))]))
      send(task(open))
    case .wrong:
      send(
        .object([
          ("type", .string("answer")), ("puzzle", .int(open.id)), ("result", .string("wrong")),
          ("text", .string(localizer.render(.puzzleWrong))),
        ]))
      open.id = takePuzzleID()
      // The pause runs once per request: the new task is answered at once.
      open.askedAt = nil
      puzzle = open
      send(task(open))
    case .solved(let solved):
      puzzle = nil
      let minutes = open.match.rule.grantMinutes
      do {
        let outcome = try solved.grant()
        for warning in outcome.warnings { options.logger.warning("\(warning)") }
        let grant: RecordedGrant
        switch outcome.value {
        case .granted(let recorded): grant = recorded
        case .usedUp:
          send(usedUp(site: open.site, match: open.match))
          return
        case .notAtLimit:
          send(notAtLimit(site: open.site, match: open.match))
          return
        }
        options.logger.notice(
          "puzzle solved: \(minutes) more minutes for \(app) (grant \(grant.status.grantsToday) of "
            + "\(open.match.rule.maxGrantsPerDay) today)")
      } catch {
        refuse("answer: the task was solved, but the grant could not be recorded: \(error)")
        return
      }
      send(
        .object([
          ("type", .string("answer")), ("puzzle", .int(open.id)), ("result", .string("solved")),
          ("minutes", .int(minutes)),
          ("text", .string(localizer.render(.puzzleSolvedPage(app: app, minutes: minutes)))),
        ]))
      // The service reads the grant from the ledger at this call: the state says unshielded.
      if wanted == nil { wanted = told ?? BrowserFront(site: open.site, windowFocused: true) }
      await flushFocus(now: true)
    }
  }

  private func takePuzzleID() -> Int {
    defer { nextPuzzleID += 1 }
    return nextPuzzleID
  }

  /// The seconds of the rule's pause still to run for `open` (``Model/Pause``).
  private func waitSeconds(_ open: OpenPuzzle) -> Int {
    guard let askedAt = open.askedAt else { return 0 }
    return Pause(of: open.match.rule).secondsLeft(after: MonotonicTime.now.duration(since: askedAt))
  }

  /// `{"type":"puzzle","puzzle":ID,"rule":…,"question":…,"text":…,"prompt":…,"asked":N,…}`: the
  /// prompt says from the second request of the day how many there were (`asked`).
  private func task(_ open: OpenPuzzle) -> JSONValue {
    let question = open.run.puzzle.text
    var prompt = localizer.render(.puzzleIntro(app: open.match.app.name, minutes: open.match.rule.grantMinutes))
    if let asked = ProductMessage.asked(times: open.asked) { prompt += " " + localizer.render(asked) }
    // The pause as a countdown the page shows second by second: its texts, the first now.
    let wait = waitSeconds(open)
    let waitTexts = stride(from: wait, to: 0, by: -1).map {
      JSONValue.string(localizer.render(.puzzleWait(seconds: $0)))
    }
    return .object([
      ("type", .string("puzzle")), ("puzzle", .int(open.id)), ("rule", .string(open.match.rule.name)),
      ("question", .string(question)),
      ("text", .string(localizer.render(.puzzleQuestion(task: question)))),
      ("prompt", .string(prompt)), ("asked", .int(open.asked)), ("waitSeconds", .int(wait)),
      ("waitTexts", .array(waitTexts)),
    ])
  }

  private func usedUp(site: Site, match: AppMatch) -> JSONValue {
    .object([
      ("type", .string("usedUp")), ("site", .string(site.name)), ("rule", .string(match.rule.name)),
      ("text", .string(localizer.render(.shieldUsedUp(app: match.app.name)))),
    ])
  }

  /// `{"type":"notAtLimit","site":…,"rule":…,"text":…}`: no task, as for `usedUp`; the text says why.
  private func notAtLimit(site: Site, match: AppMatch) -> JSONValue {
    .object([
      ("type", .string("notAtLimit")), ("site", .string(site.name)), ("rule", .string(match.rule.name)),
      ("text", .string(localizer.render(.puzzleNotAtLimit(app: match.app.name)))),
    ])
  }

  /// `{"type":"downtime","site":…,"rule":…,"text":…}`: no task during the rule's downtime; the text says until when.
  private func inDowntime(site: Site, match: AppMatch, until: String) -> JSONValue {
    .object([
      ("type", .string("downtime")), ("site", .string(site.name)), ("rule", .string(match.rule.name)),
      ("text", .string(localizer.render(.puzzleDowntime(app: match.app.name, time: until)))),
    ])
  }

  private static func isAlphanumeric(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
      || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
  }
}
