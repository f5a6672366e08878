import Foundation
import JSON
import Model
import Posix
import Spawn
import TestSupport
import Testing

let socialConfiguration = #"""
  {"rules": [{"name": "social", "apps": ["Instagram", "TikTok", "YouTube"]}]}
  """#

/// What `status --json` writes on stderr where no service runs, as in these sandboxes.
private let noServiceLine = "shieldbridge status: no ShieldBridge service is running: nothing is counted\n"

@Suite("shieldbridge puzzle asks a plain task on the terminal and records the grant")
struct PuzzleCommandTests {
  @Test("A right answer on stdin records a grant, and status --json shows it")
  func solvesAndRecords() async throws {
    let sandbox = try Sandbox()
    try sandbox.writeConfig(socialConfiguration)
    let task = tasks(seed: 42, count: 1)[0]
    let result = try await sandbox.run(
      ["puzzle", "--app", "Instagram", "--seed", "42"], input: "\(task.answer)\n")
    #expect(result.status == 0, "\(result.error)")
    #expect(
      result.output == """
        A short task

        Solve this task to unlock 5 more minutes for Instagram.

        What is \(task.text)?
        Answer: 

        5 more minutes for Instagram are unlocked for today. Go back to it with your app switcher.

        """)
    #expect(!result.output.contains("!"))
    #expect(result.error.isEmpty)

    let status = try await sandbox.run(["status", "--json"])
    #expect(status.status == 0)
    let today = LocalDay.containing(.now).description
    #expect(
      status.output == """
        {"date":"\(today)","rules":[{"name":"social","apps":["Instagram","TikTok","YouTube"],\
        "dailyLimitMinutes":5,"grantMinutes":5,"maxGrantsPerDay":5,"grantsToday":1,"limitTodayMinutes":10}]}

        """)
  }

  @Test("A wrong answer gets a new task without a hint; a blank line asks again")
  func wrongThenRight() async throws {
    let sandbox = try Sandbox()
    let (first, second) = { (t: [Puzzle]) in (t[0], t[1]) }(tasks(seed: 7, count: 2))
    let result = try await sandbox.run(
      ["puzzle", "--seed", "7"], input: "\(first.answer + 1)\n\n \(second.answer) \n")
    #expect(result.status == 0, "\(result.error)")
    #expect(
      result.output == """
        A short task

        Solve this task to unlock 5 more minutes.

        What is \(first.text)?
        Answer: 
        That is not the answer. Here is a new task.

        What is \(second.text)?
        Answer: 
        Answer: 

        5 more minutes are unlocked for today. Go back to the app with your app switcher.

        """)
    #expect(!result.output.contains(String(first.answer)))
    #expect(try sandbox.store.status(of: Rule.builtIn).value.grantsToday == 1)
  }

  @Test("The end of input without the answer exits 1 and records no grant, only the task asked")
  func endOfInput() async throws {
    let sandbox = try Sandbox()
    let task = tasks(seed: 3, count: 1)[0]
    let result = try await sandbox.run(["puzzle", "--seed", "3"], input: "\(task.answer + 1)\n")
    #expect(result.status == 1)
    #expect(result.error.contains("nothing was unlocked"))
    #expect(!result.output.contains("unlocked for today"))
    // The request is counted as the task is asked (issue 25 point 2); nothing else is written.
    #expect(sandbox.stateFiles() == ["ledger.json", "ledger.lock"])
    let ledger = try sandbox.store.load().value
    #expect(ledger.grants(for: Rule.builtIn.name, on: sandbox.store.today) == 0)
    #expect(ledger.tasksAsked(for: Rule.builtIn.name, on: sandbox.store.today) == 1)
  }

  @Test("From the second request of the day the task says how often more time was asked for, in every language")
  func requestsCounted() async throws {
    let sandbox = try Sandbox()
    try sandbox.writeConfig(socialConfiguration)
    // The first request: no count to say; left unanswered, it is counted all the same.
    let first = try await sandbox.run(["puzzle", "--app", "Instagram", "--seed", "1"], input: "")
    #expect(first.status == 1)
    #expect(!first.output.contains("asked"))
    // Asked again at the same limit (no grant since): the same request, counted once.
    let task = tasks(seed: 42, count: 1)[0]
    let second = try await sandbox.run(["puzzle", "--app", "Instagram", "--seed", "42"], input: "\(task.answer)\n")
    #expect(second.status == 0, "\(second.error)")
    #expect(
      second.output == """
        A short task

        Solve this task to unlock 5 more minutes for Instagram.

        What is \(task.text)?
        Answer: 

        5 more minutes for Instagram are unlocked for today. Go back to it with your app switcher.

        """)
    var ledger = try sandbox.store.load().value
    #expect(ledger.tasksAsked(for: "social", on: sandbox.store.today) == 1)
    #expect(ledger.grants(for: "social", on: sandbox.store.today) == 1)

    // The next limit's request is the second; then the third, fourth and fifth, each after a grant,
    // in languages with other plural forms; each grant's task is of the next step.
    let expected = [
      ("en_US", "You asked for more time 2 times today."),
      ("de_DE", "Du hast heute 3 Mal um mehr Zeit gebeten."),
      ("ru_RU", "Сегодня вы просили больше времени 4 раза."),
      ("pl_PL", "Dzisiaj o więcej czasu poproszono 5 razy."),
    ]
    for (grants, (locale, line)) in expected.enumerated().map({ ($0.offset + 1, $0.element) }) {
      var environment = sandbox.environment
      environment["LANGUAGE"] = String(locale.prefix(2))
      environment["LANG"] = locale + ".UTF-8"
      let step = tasks(seed: 3, count: 1, grant: grants)[0]
      let result = try await ShieldBridgeTool.run(
        ["puzzle", "--app", "Instagram", "--seed", "3"], input: "\(step.answer)\n", environment: environment)
      #expect(result.status == 0, "\(result.error)")
      #expect(result.output.contains("\n" + line + "\n"), "\(result.output)")
      #expect(Puzzle.find(in: result.output) == step)
    }
    ledger = try sandbox.store.load().value
    #expect(ledger.tasksAsked(for: "social", on: sandbox.store.today) == 5)
    #expect(ledger.grants(for: "social", on: sandbox.store.today) == 5)
  }

  @Test("q instead of the answer takes the way out: counted, nothing unlocked, exit 1")
  func wayOut() async throws {
    let sandbox = try Sandbox()
    try sandbox.writeConfig(socialConfiguration)
    let task = tasks(seed: 9, count: 1)[0]
    let result = try await sandbox.run(["puzzle", "--app", "Instagram", "--seed", "9"], input: " q \n")
    #expect(result.status == 1)
    #expect(result.error.isEmpty, "\(result.error)")
    // Piped answers are a script's: the offer is said to a person at a terminal only (TerminalPuzzleTests).
    #expect(
      result.output == """
        A short task

        Solve this task to unlock 5 more minutes for Instagram.

        What is \(task.text)?
        Answer: 

        Instagram is paused

        """)
    let ledger = try sandbox.store.load().value
    #expect(ledger.backedOut(for: "social", on: sandbox.store.today) == 1)
    #expect(ledger.tasksAsked(for: "social", on: sandbox.store.today) == 1)
    #expect(ledger.grants(for: "social", on: sandbox.store.today) == 0)
  }

  @Test("A rule's pause: the line says it, and the answer is read only after it")
  func pause() async throws {
    let sandbox = try Sandbox()
    try sandbox.writeConfig(#"{"rules":[{"name":"social","apps":["Instagram"],"pauseSeconds":2}]}"#)
    let task = tasks(seed: 4, count: 1)[0]
    let started = ContinuousClock.now
    let result = try await sandbox.run(["puzzle", "--app", "Instagram", "--seed", "4"], input: "\(task.answer)\n")
    #expect(ContinuousClock.now - started >= .seconds(2))
    #expect(result.status == 0, "\(result.error)")
    #expect(
      result.output.contains("What is \(task.text)?\nWait 2 seconds before you answer.\nAnswer: "), "\(result.output)")
    #expect(result.output.contains("unlocked for today"))
  }

  @Test("In German the task is asked and the time unlocked in German, from locales/de.po")
  func german() async throws {
    let sandbox = try Sandbox()
    try sandbox.writeConfig(socialConfiguration)
    let task = tasks(seed: 42, count: 1)[0]
    var environment = sandbox.environment
    environment["LANGUAGE"] = "de"
    environment["LANG"] = "de_DE.UTF-8"
    let result = try await ShieldBridgeTool.run(
      ["puzzle", "--app", "Instagram", "--seed", "42"], input: "\(task.answer)\n",
      environment: environment)
    #expect(result.status == 0, "\(result.error)")
    #expect(
      result.output == """
        Eine kurze Aufgabe

        Löse diese Aufgabe, um 5 weitere Minuten für Instagram freizugeben.

        Wie viel ist \(task.text)?
        Antwort: 

        5 weitere Minuten für Instagram sind für heute freigegeben. \
        Zurück zur App geht es über den Anwendungswechsler.

        """)
    #expect(try sandbox.store.status(of: Rule(name: "social", apps: [])).value.grantsToday == 1)
  }

  @Test("When today's grants are used up it says so and asks no task")
  func usedUp() async throws {
    let sandbox = try Sandbox()
    try sandbox.writeConfig(
      #"{"rules":[{"name":"video","apps":["Netflix"],"grantMinutes":1,"maxGrantsPerDay":1}]}"#)
    let task = tasks(seed: 5, count: 1)[0]
    let first = try await sandbox.run(
      ["puzzle", "--app", "netflix", "--seed", "5"], input: "\(task.answer)\n")
    #expect(first.status == 0)
    #expect(first.output.contains("Solve this task to unlock 1 more minute for netflix."))
    #expect(first.output.contains("1 more minute for netflix is unlocked for today."))

    let second = try await sandbox.run(
      ["puzzle", "--app", "Netflix", "--seed", "5"], input: "\(task.answer)\n")
    #expect(second.status == 75)
    #expect(
      second.output == "Today’s extra time for Netflix is used up. The limit resets tomorrow.\n")
    #expect(try sandbox.store.status(of: Rule(name: "video", apps: [])).value.grantsToday == 1)
  }

  @Test("An app no rule covers, or a broken configuration, exits 78 with the reason")
  func configurationProblems() async throws {
    let sandbox = try Sandbox()
    try sandbox.writeConfig(socialConfiguration)
    let uncovered = try await sandbox.run(["puzzle", "--app", "Reddit"], input: "1\n")
    #expect(uncovered.status == 78)
    #expect(uncovered.error.contains("no rule covers the app 'Reddit'"))
    #expect(uncovered.output.isEmpty)

    try sandbox.writeConfig(
      #"{"rules":[{"name":"social","apps":["Instagram"],"grantMinutes":"five"}]}"#)
    let broken = try await sandbox.run(["puzzle", "--app", "Instagram"], input: "1\n")
    #expect(broken.status == 78)
    #expect(
      broken.error
        == "shieldbridge: \(sandbox.configPath): rules[0].grantMinutes: expected a whole number from 1 to 120, found \"five\"\n"
    )
    await #expect(try sandbox.run(["status"]).status == 78)
  }

  @Test("Without --app and with several rules, the app must be named")
  func appNeeded() async throws {
    let sandbox = try Sandbox()
    try sandbox.writeConfig(#"{"rules":[{"name":"a","apps":["A"]},{"name":"b","apps":["B"]}]}"#)
    let result = try await sandbox.run(["puzzle"], input: "1\n")
    #expect(result.status == 64)
    #expect(result.error.contains("--app"))
  }

  @Test(
    "Bad option values are usage errors",
    arguments: [["--seed", "-1"], ["--seed", "x"], ["--grant", "0"], ["--grant", "121"]])
  func usage(arguments: [String]) async throws {
    let sandbox = try Sandbox()
    let result = try await sandbox.run(["puzzle"] + arguments, input: "1\n")
    #expect(result.status == 64)
    #expect(sandbox.stateFiles().isEmpty)
  }

  @Test("A --grant that differs from the rule is noted, and the rule's minutes apply")
  func grantFromLink() async throws {
    let sandbox = try Sandbox()
    let task = tasks(seed: 9, count: 1)[0]
    let result = try await sandbox.run(
      ["puzzle", "--grant", "30", "--seed", "9"], input: "\(task.answer)\n")
    #expect(result.status == 0)
    #expect(result.error.contains("grants 5 minutes; --grant 30 does not change that"))
    #expect(result.output.contains("5 more minutes are unlocked"))
    #expect(try sandbox.store.status(of: Rule.builtIn).value.limitTodayMinutes == 10)
  }

  @Test("A state directory that cannot be written exits 74 and names it")
  func stateError() async throws {
    let sandbox = try Sandbox()
    try "not a directory".write(
      toFile: sandbox.root.file("state"), atomically: false, encoding: .utf8)
    let task = tasks(seed: 1, count: 1)[0]
    let result = try await sandbox.run(["puzzle", "--seed", "1"], input: "\(task.answer)\n")
    #expect(result.status == 74)
    #expect(result.error.contains("state/shieldbridge"))
  }

  @Test("Grants from two processes at the same time are both kept")
  func twoProcesses() throws {
    let sandbox = try Sandbox()
    try sandbox.writeConfig(
      #"{"rules":[{"name":"social","apps":["Instagram"],"maxGrantsPerDay":10}]}"#)
    for round in 1...3 {
      let seeds: [UInt64] = [UInt64(round * 10), UInt64(round * 10 + 1)]
      // Both start and wait for their answer; then both get it at once.
      let children = try seeds.map { seed in
        try Subprocess(
          [ShieldBridgeTool.path, "puzzle", "--app", "Instagram", "--seed", String(seed)],
          environment: ShieldBridgeTool.mergedEnvironment(sandbox.environment),
          standardInput: .pipe, standardOutput: .pipe, standardError: .pipe)
      }
      // Both have asked their task (of the step of the grants so far) before either answers.
      for child in children { try waitForPrompt(try #require(child.standardOutput)) }
      for (child, seed) in zip(children, seeds) {
        let answer = Array("\(tasks(seed: seed, count: 1, grant: 2 * (round - 1))[0].answer)\n".utf8)
        let written = try #require(child.standardInput).write(answer[...])
        #expect(written == answer.count)
      }
      for child in children { child.closeStandardInput() }
      for child in children {
        let ended = child.wait(timeout: .seconds(30))
        if ended == nil { child.terminate() }
        #expect(ended == .exited(0))
      }
      // The rule as configured: a status counts no more grants than its maxGrantsPerDay.
      #expect(
        try sandbox.store.status(of: Rule(name: "social", apps: [], maxGrantsPerDay: 10)).value.grantsToday
          == 2 * round)
    }
  }

  @Test("While the service's meter counts the app and it is not at its limit, it says so, asks no task and exits 75")
  func notAtLimit() async throws {
    let sandbox = try Sandbox()
    try sandbox.writeConfig(socialConfiguration)
    let social = Rule(name: "social", apps: [])
    let day = sandbox.store.today
    // The meter counted 11 s: the shield was asked for by hand (shield --app), not by the limit.
    _ = try sandbox.store.recordMeter(usage: [day: ["social": 11]], metered: ["social"], limitReached: [:], on: day)
    let task = tasks(seed: 5, count: 1)[0]
    let early = try await sandbox.run(["puzzle", "--app", "Instagram", "--seed", "5"], input: "\(task.answer)\n")
    #expect(early.status == 75)
    #expect(
      early.output == "Instagram is not at its limit yet: the task unlocks time only once today’s limit is used.\n")
    #expect(early.error.isEmpty)
    #expect(try sandbox.store.status(of: social).value.grantsToday == 0)

    // The meter saw the limit reached with no grants: one task, one grant.
    _ = try sandbox.store.recordMeter(
      usage: [day: ["social": 300]], metered: ["social"], limitReached: ["social": 0], on: day)
    let atLimit = try await sandbox.run(["puzzle", "--app", "Instagram", "--seed", "5"], input: "\(task.answer)\n")
    #expect(atLimit.status == 0, "\(atLimit.error)")
    #expect(
      atLimit.output.hasSuffix(
        "5 more minutes for Instagram are unlocked for today. Go back to it with your app switcher.\n"))
    #expect(try sandbox.store.status(of: social).value.grantsToday == 1)

    // The grant raised the limit: the next task waits until the meter sees it reached again.
    let again = try await sandbox.run(["puzzle", "--app", "YouTube", "--seed", "5"], input: "\(task.answer)\n")
    #expect(again.status == 75)
    #expect(again.output.hasPrefix("YouTube is not at its limit yet"))
    #expect(try sandbox.store.status(of: social).value.grantsToday == 1)

    // In German, from de.po.
    var environment = sandbox.environment
    environment["LANGUAGE"] = "de"
    environment["LANG"] = "de_DE.UTF-8"
    let german = try await ShieldBridgeTool.run(
      ["puzzle", "--app", "Instagram", "--seed", "5"], input: "\(task.answer)\n", environment: environment)
    #expect(german.status == 75)
    #expect(german.output.hasPrefix("Instagram hat das Limit noch nicht erreicht"))
  }

  @Test("A write that fails halfway (a full disk) leaves the old ledger and no temporary file")
  func failedWrite() async throws {
    let sandbox = try Sandbox()
    // Enough rules with grants that the ledger is larger than the 1 KiB the writer may write.
    let rules = (0..<80).map { Rule(name: "rule-number-\($0)-of-this-test", apps: [AppPattern(name: "App\($0)")]) }
    let json = rules.map { #"{"name":"\#($0.name)","apps":["\#($0.apps[0])"]}"# }.joined(
      separator: ",")
    try sandbox.writeConfig(#"{"rules":[\#(json)]}"#)
    for rule in rules { _ = try sandbox.store.recordGrant(for: rule) }
    let before = try String(contentsOfFile: sandbox.ledgerPath, encoding: .utf8)
    #expect(before.utf8.count > 2048)

    // `ulimit -f 1` makes every write past the first 512 or 1024 bytes fail
    // with EFBIG, as a full disk fails with ENOSPC.
    let task = tasks(seed: 11, count: 1)[0]
    let limited = try Subprocess.run(
      [
        "/bin/sh", "-c", "ulimit -f 1 && exec \"$0\" \"$@\"", ShieldBridgeTool.path, "puzzle",
        "--app", "App0",
        "--seed", "11",
      ],
      input: Array("\(task.answer)\n".utf8),
      environment: ShieldBridgeTool.mergedEnvironment(sandbox.environment))
    #expect(limited.status == 74)
    #expect(limited.error.contains("write failed: File too large"))
    #expect(!limited.output.contains("unlocked for today"))
    #expect(try String(contentsOfFile: sandbox.ledgerPath, encoding: .utf8) == before)
    #expect(sandbox.stateFiles() == ["ledger.json", "ledger.lock"])

    let retried = try await sandbox.run(
      ["puzzle", "--app", "App0", "--seed", "11"], input: "\(tasks(seed: 11, count: 1, grant: 1)[0].answer)\n")
    #expect(retried.status == 0)
    #expect(try sandbox.store.status(of: rules[0]).value.grantsToday == 2)
    #expect(try sandbox.store.status(of: rules[79]).value.grantsToday == 1)
  }

  @Test("A half-written temporary file left by a writer that died is ignored and cleared")
  func leftoverFromDeadWriter() async throws {
    let sandbox = try Sandbox()
    _ = try sandbox.store.recordGrant(for: Rule.builtIn)
    let leftover = sandbox.ledgerPath + ".tmp-4242-dead"
    try #"{"version":1,"days":[{"date":"2026-11-29","gra"#.write(
      toFile: leftover, atomically: false, encoding: .utf8)
    let status = try await sandbox.run(["status", "--json"])
    #expect(status.output.contains(#""grantsToday":1"#))
    // No word of the leftover; the sandbox runs no service, which `status --json` says on stderr.
    #expect(status.error == noServiceLine)
    // The second grant of the day: a task of the second step.
    let task = tasks(seed: 12, count: 1, grant: 1)[0]
    await #expect(try sandbox.run(["puzzle", "--seed", "12"], input: "\(task.answer)\n").status == 0)
    #expect(sandbox.stateFiles() == ["ledger.json", "ledger.lock"])
    #expect(try sandbox.store.status(of: Rule.builtIn).value.grantsToday == 2)
  }
}

@Suite("shieldbridge status shows the rules and today's limits")
struct StatusCommandTests {
  @Test("Without a configuration the JSON has the built-in rule, and the text says that no rule is set")
  func builtInRule() async throws {
    let sandbox = try Sandbox()
    let result = try await sandbox.run(["status", "--json"])
    #expect(result.status == 0)
    let json = try JSONValue(parsing: result.output)
    #expect(json["rules"]?.arrayValue?.first?["name"] == "default")
    #expect(json["rules"]?.arrayValue?.first?["apps"] == [])
    #expect(json["rules"]?.arrayValue?.first?["limitTodayMinutes"] == 5)
    #expect(sandbox.stateFiles().isEmpty)

    // For a person: no rule is set, said plainly, with where to start; not the built-in rule's limits.
    let text = try await sandbox.run(["status"])
    #expect(
      text.output.hasPrefix(
        "No rule is set (there is no config.json yet): no app or site is counted or limited.\n"
          + "Run 'shieldbridge setup' to choose the apps and sites to limit and how much.\n"), "\(text.output)")
    #expect(!text.output.contains("default") && !text.output.contains("limit today"))
    #expect(!text.output.contains("from tomorrow") && !text.output.contains("no longer in config.json"))
  }

  @Test("A damaged ledger is reported on stderr and kept aside")
  func damagedLedger() async throws {
    let sandbox = try Sandbox()
    try FileManager.default.createDirectory(
      atPath: sandbox.stateDirectory, withIntermediateDirectories: true)
    try "{not json".write(toFile: sandbox.ledgerPath, atomically: false, encoding: .utf8)
    let result = try await sandbox.run(["status", "--json"])
    #expect(result.status == 0)
    #expect(result.error.contains("shieldbridge: warning: \(sandbox.ledgerPath) could not be read"))
    let kept = sandbox.stateFiles().filter { $0.hasPrefix("ledger.json.corrupt-") }
    #expect(kept.count == 1)
    #expect(
      try String(contentsOfFile: sandbox.stateDirectory + "/" + kept[0], encoding: .utf8)
        == "{not json")
    await #expect(try sandbox.run(["status"]).error.isEmpty)
  }

  @Test("Unknown keys in the configuration are warnings, and the command goes on")
  func configurationWarnings() async throws {
    let sandbox = try Sandbox()
    try sandbox.writeConfig(
      #"{"rules":[{"name":"social","apps":["Instagram"],"grantMinutes":5,"colour":"red"}]}"#)
    let result = try await sandbox.run(["status", "--json"])
    #expect(result.status == 0)
    #expect(
      result.error
        == "shieldbridge: warning: \(sandbox.configPath): rules[0].colour: unknown key, ignored\n" + noServiceLine)
  }
}

/// Reads a puzzle's stdout until its prompt ("Answer: ") is there.
func waitForPrompt(_ output: FileDescriptor) throws {
  var seen: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 4096)
  while !String(decoding: seen, as: UTF8.self).contains("Answer: ") {
    let count = try output.read(into: &buffer)
    try #require(count > 0, "the puzzle ended before its prompt: \(String(decoding: seen, as: UTF8.self))")
    seen += buffer[..<count]
  }
}
