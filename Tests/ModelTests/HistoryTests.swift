import Foundation
import JSON
import Model
import Store
import TestSupport
import Testing

@Suite("The meter splits a rule's seconds by the app in front, and the split sums to the rule")
struct MeterAppSplitTests {
  let big = socialRule(dailyLimitMinutes: 600, warnMinutes: 0)

  @Test("Focus moving between the apps of a rule splits its time between them")
  func split() {
    var clock = MeterClock(wall: localNoon("2026-06-15"))
    var meter = makeMeter([big], clock: clock)
    _ = meter.inUse(apps: ["social": "Instagram"], at: clock.now)
    clock.pass(.milliseconds(10_700))
    _ = meter.inUse(apps: ["social": "TikTok"], at: clock.now)
    clock.pass(.milliseconds(5_600))
    _ = meter.inUse(apps: [:], at: clock.now)
    clock.pass(.seconds(30))
    _ = meter.advance(to: clock.now)
    let day = meter.day
    #expect(meter.usedSeconds(on: day)["social"] == 16)
    // 10.7 + 5.6 = 16.3: the lost second goes to the larger remainder.
    #expect(meter.appSeconds(on: day)["social"] == ["Instagram": 11, "TikTok": 5])
  }

  @Test("A change stamped in the past moves the time between apps, and the split still sums to the rule")
  func backdated() {
    var clock = MeterClock(wall: localNoon("2026-06-15"))
    var meter = makeMeter([big], clock: clock)
    _ = meter.inUse(apps: ["social": "Instagram"], at: clock.now)
    clock.pass(.seconds(20))
    let switched = clock.now
    clock.pass(.seconds(10))
    _ = meter.advance(to: clock.now)
    // The switch to TikTok is reported late, stamped 10 s ago.
    _ = meter.inUse(apps: ["social": "TikTok"], at: switched)
    clock.pass(.seconds(5))
    _ = meter.advance(to: clock.now)
    let split = meter.appSeconds(on: meter.day)["social"] ?? [:]
    #expect(split == ["Instagram": 20, "TikTok": 15])
    #expect(split.values.reduce(0, +) == meter.usedSeconds(on: meter.day)["social"])
  }

  @Test("Time across midnight is split on both days, each summing to its day's seconds")
  func midnight() {
    var clock = MeterClock(wall: LocalDay("2026-06-15")!.start.adding(seconds: 24 * 3_600 - 30))
    var meter = makeMeter([big], clock: clock)
    let first = meter.day
    _ = meter.inUse(apps: ["social": "TikTok"], at: clock.now)
    clock.pass(.seconds(50))
    _ = meter.advance(to: clock.now)
    #expect(meter.day != first)
    #expect(meter.appSeconds(on: first)["social"] == ["TikTok": 30])
    #expect(meter.appSeconds(on: meter.day)["social"] == ["TikTok": 20])
  }

  @Test("A restart keeps the split the history kept; time without a split stays unsplit")
  func restart() {
    let clock = MeterClock(wall: localNoon("2026-06-15"))
    let day = LocalDay("2026-06-15")!
    var ledger = Ledger()
    ledger.recordUsedSeconds(100, for: "social", on: day)
    let meter = UsageMeter(
      settings: UsageMeter.Settings(rules: RuleSet([big]), calendar: .system), ledger: ledger, now: clock.now,
      appSeconds: [day: ["social": ["Instagram": 60, "TikTok": 70]]])
    // More than the rule used: the largest part gives way.
    #expect(meter.appSeconds(on: day)["social"] == ["Instagram": 60, "TikTok": 40])
  }

  @Test("Rules in use without names (the older call) count without a split")
  func noNames() {
    var clock = MeterClock(wall: localNoon("2026-06-15"))
    var meter = makeMeter([big], clock: clock)
    _ = meter.inUse(["social"], at: clock.now)
    clock.pass(.seconds(9))
    _ = meter.advance(to: clock.now)
    #expect(meter.usedSeconds(on: meter.day)["social"] == 9)
    #expect(meter.appSeconds(on: meter.day).isEmpty)
  }
}

@Suite("The split of whole seconds by app")
struct AppSplitTests {
  @Test("Whole seconds sum to the rule's whole seconds, for many random splits")
  func sums() {
    var random = SystemRandomNumberGenerator()
    for _ in 0..<500 {
      var parts: [String: Duration] = [:]
      for name in ["a", "b", "c", "d"].prefix(Int.random(in: 1...4, using: &random)) {
        parts[name] = .milliseconds(Int64.random(in: 0...100_000, using: &random))
      }
      let total = parts.values.reduce(Duration.zero, +).components.seconds
      let split = AppSplit.wholeSeconds(parts, total: Int(total))
      #expect(split.values.reduce(0, +) == Int(total))
    }
  }

  @Test("A split above the total is cut from the largest parts")
  func fitted() {
    #expect(AppSplit.fitted(["a": 10, "b": 5], within: 12) == ["a": 7, "b": 5])
    #expect(AppSplit.fitted(["a": 10, "b": 10], within: 5) == ["b": 5])
    #expect(AppSplit.fitted(["a": 3], within: 10) == ["a": 3])
  }
}

@Suite("The history keeps days, merges saves and forgets")
struct HistoryTests {
  let day = LocalDay("2026-11-29")!

  @Test("A later save gives the seconds and the split; counts keep the larger")
  func merge() {
    var history = History()
    history.record(
      HistoryEntry(usedSeconds: 100, apps: ["A": 100], limitSeconds: 600, grants: 2, shieldsShown: 3),
      for: "social", on: day)
    history.record(HistoryEntry(usedSeconds: 120, grants: 1, shieldsShown: 4), for: "social", on: day)
    let entry = history.entry(for: "social", on: day)
    #expect(entry?.usedSeconds == 120)
    #expect(entry?.apps == ["A": 100])
    #expect(entry?.limitSeconds == 600)
    #expect(entry?.grants == 2)
    #expect(entry?.shieldsShown == 4)
  }

  @Test("Days older than the kept days go; today, the days before it within them and later days stay")
  func oldDays() {
    var history = History()
    for offset in -10...2 { history.record(HistoryEntry(usedSeconds: 1), for: "r", on: day.adding(days: offset)!) }
    history.forgetOldDays(keeping: 7, today: day)
    #expect(history.days.keys.sorted().first == day.adding(days: -6))
    #expect(history.days.count == 9)
    // Below the range counts as its least.
    history.forgetOldDays(keeping: 1, today: day)
    #expect(history.days.count == 9)
  }

  @Test("Forget removes the days before a date, or all but today, and they are not recorded again")
  func forget() {
    var history = History()
    for offset in -5...0 { history.record(HistoryEntry(usedSeconds: 1), for: "r", on: day.adding(days: offset)!) }
    #expect(history.forget(before: day.adding(days: -2), today: day) == 3)
    #expect(history.days.count == 3)
    #expect(history.forget(before: nil, today: day) == 2)
    #expect(Array(history.days.keys) == [day])
    history.record(HistoryEntry(usedSeconds: 5), for: "r", on: day.adding(days: -1)!)
    #expect(history.days.count == 1)
  }

  @Test("The stored form reads back as it was written")
  func roundTrip() throws {
    var history = History()
    history.record(
      HistoryEntry(
        usedSeconds: 190, apps: ["Instagram": 130, "TikTok": 60], limitSeconds: 600, grants: 1, shieldsShown: 1,
        tasksAsked: 2, tasksSolved: 1, backedOut: 1),
      for: "social", on: day)
    history.record(HistoryEntry(usedSeconds: 5), for: "video", on: day.adding(days: 1)!)
    _ = history.forget(before: day, today: day.adding(days: 1)!)
    let text = history.json.serialized
    #expect(text.hasPrefix("{\"version\":1,\"forgottenBefore\":\"2026-11-29\",\"days\":[{\"date\":\"2026-11-29\""))
    #expect(try History(json: JSONValue(parsing: Array(text.utf8))) == history)
  }

  @Test("The file has one day a line; a range reads only its days, and any other layout is read whole")
  func lines() throws {
    var history = History()
    for offset in 0..<10 {
      history.record(
        HistoryEntry(usedSeconds: offset, apps: ["A": offset], limitSeconds: 60), for: "r",
        on: day.adding(days: offset)!)
    }
    _ = history.forget(before: day.adding(days: 2), today: day.adding(days: 9)!)
    let bytes = history.fileBytes
    #expect(String(decoding: bytes, as: UTF8.self).split(separator: "\n").count == 10)
    #expect(try History(json: JSONValue(parsing: bytes)) == history)
    let range = day.adding(days: 3)!...day.adding(days: 4)!
    let some = try #require(History(fileBytes: bytes, only: range))
    #expect(some.days.keys.sorted() == [day.adding(days: 3)!, day.adding(days: 4)!])
    #expect(some.entry(for: "r", on: day.adding(days: 4)!) == history.entry(for: "r", on: day.adding(days: 4)!))
    #expect(some.forgottenBefore == day.adding(days: 2))
    // The same value written on one line, or damaged: not this layout.
    #expect(History(fileBytes: Array(history.json.serialized.utf8), only: range) == nil)
    #expect(History(fileBytes: Array(bytes.dropLast(4)), only: range) == nil)
  }

  @Test("The line reader reads what the general parser reads, for written files and hand-edited lines")
  func lineReader() throws {
    var random = SeededRandom(seed: 23)
    let names = ["social", "Instagram", "Ärger", "日本", "quote\"d", "back\\slash", "tab\there", "", "a b"]
    for _ in 0..<60 {
      var history = History()
      for offset in 0..<Int.random(in: 0...5, using: &random) {
        for name in names.shuffled(using: &random).prefix(Int.random(in: 0...4, using: &random)) {
          var apps: [String: Int] = [:]
          for app in names.shuffled(using: &random).prefix(Int.random(in: 0...3, using: &random)) {
            apps[app] = Int.random(in: -5...4_000, using: &random)
          }
          history.record(
            HistoryEntry(
              usedSeconds: Int.random(in: -10...100_000, using: &random), apps: apps,
              limitSeconds: Bool.random(using: &random) ? nil : Int.random(in: -1...2_000_000, using: &random),
              grants: Int.random(in: -1...200, using: &random), shieldsShown: Int.random(in: 0...3, using: &random),
              tasksAsked: Int.random(in: 0...3, using: &random), tasksSolved: Int.random(in: 0...3, using: &random),
              backedOut: Int.random(in: 0...200_000, using: &random)),
            for: name, on: day.adding(days: offset)!)
        }
      }
      let bytes = history.fileBytes
      let read = try #require(History(fileBytes: bytes, only: day...day.adding(days: 10)!))
      #expect(read == history)
      #expect(try History(json: JSONValue(parsing: bytes)) == history)
    }
    // Lines the store does not write: the general parser reads them, alike.
    let entries = [
      #"{"usedSeconds":60,"apps":{"A":30},"limitSeconds":600,"grants":1}"#,
      #"{"grants":1,"usedSeconds":60,"apps":{"A":30,"A":20}}"#,
      #"{"usedSeconds":60.0,"apps":{"A":3e1},"grants":1}"#,
      #"{"usedSeconds":60,"unknown":[1,2],"tasksAsked":-0}"#,
      #"{ "usedSeconds" : 60 , "apps" : { "A" : 30 } }"#,
      #"{"usedSeconds":99999999999999999999}"#,
      #"{"usedSeconds":-7,"apps":{}}"#,
      #"{"usedSeconds":60,"apps":{"Ä":30}}"#,
      #"{}"#,
    ]
    for entry in entries {
      let text = "{\"version\":1,\"days\":[\n{\"date\":\"2026-11-29\",\"rules\":{\"r\":\(entry),\"s\":{}}}\n]}\n"
      // What the general parser refuses, the line reader refuses too (the file is then read whole, and refused).
      let whole = try? History(json: JSONValue(parsing: Array(text.utf8)))
      #expect(History(fileBytes: Array(text.utf8), only: day...day) == whole, "\(entry)")
    }
    // A day line without its comma, or one after the last: not the store's file.
    let two = String(decoding: history(days: 2).fileBytes, as: UTF8.self).split(separator: "\n").map(String.init)
    let withoutComma = [two[0], String(two[1].dropLast()), two[2], two[3]].joined(separator: "\n")
    #expect(History(fileBytes: Array(withoutComma.utf8), only: day...day.adding(days: 1)!) == nil)
    let extraComma = [two[0], two[1], two[2] + ",", two[3]].joined(separator: "\n")
    #expect(History(fileBytes: Array(extraComma.utf8), only: day...day.adding(days: 1)!) == nil)
  }

  private func history(days: Int) -> History {
    var history = History()
    for offset in 0..<days {
      history.record(HistoryEntry(usedSeconds: 60, apps: ["A": 60]), for: "r", on: day.adding(days: offset)!)
    }
    return history
  }

  @Test("A stored count out of range is kept within what a day holds")
  func clamps() throws {
    let text = #"{"version":1,"days":[{"date":"2026-11-29","rules":{"r":{"usedSeconds":999999,"apps":{"A":-3}}}}]}"#
    let history = try History(json: JSONValue(parsing: Array(text.utf8)))
    #expect(history.entry(for: "r", on: day)?.usedSeconds == Ledger.maximumUsedSeconds)
    #expect(history.entry(for: "r", on: day)?.apps == [:])
  }
}

@Suite("The history on disk")
struct HistoryStoreTests {
  let day = LocalDay("2026-11-29")!

  @Test("An update writes history.json beside the ledger, and a load reads it back")
  func writes() throws {
    let state = try TemporaryDirectory()
    let store = HistoryStore(directory: state.file("shieldbridge"))
    _ = try store.update(keeping: 90, today: day) { $0.record(HistoryEntry(usedSeconds: 7), for: "r", on: day) }
    #expect(FileManager.default.fileExists(atPath: state.file("shieldbridge/history.json")))
    #expect(try store.load().value.entry(for: "r", on: day)?.usedSeconds == 7)
  }

  @Test("A damaged history is moved aside with a warning, a new one is started, and the ledger is untouched")
  func damaged() throws {
    let state = try TemporaryDirectory()
    let directory = state.file("shieldbridge")
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    try "{\"version\":1,\"days\":[{]".write(toFile: directory + "/history.json", atomically: true, encoding: .utf8)
    let ledger = "{\"version\":1,\"days\":[{\"date\":\"2026-11-29\",\"grants\":{\"r\":1}}]}\n"
    try ledger.write(toFile: directory + "/ledger.json", atomically: true, encoding: .utf8)
    let store = HistoryStore(directory: directory)
    let read = try store.load()
    #expect(read.value == History())
    #expect(read.warnings.map(\.code) == ["history-unreadable"])
    let written = try store.update(keeping: 90, today: day) {
      $0.record(HistoryEntry(usedSeconds: 3), for: "r", on: day)
    }
    #expect(written.warnings.map(\.code) == ["history-corrupt"])
    let files = try FileManager.default.contentsOfDirectory(atPath: directory)
    #expect(files.contains { $0.hasPrefix("history.json.corrupt-") })
    #expect(try store.load().value.entry(for: "r", on: day)?.usedSeconds == 3)
    #expect(try String(contentsOfFile: directory + "/ledger.json", encoding: .utf8) == ledger)
  }

  @Test(
    "A report read a day at a time is the loaded history's report, for the store's file, a hand-edited and a damaged one"
  )
  func reportByDay() throws {
    let state = try TemporaryDirectory()
    let store = HistoryStore(directory: state.file("shieldbridge"))
    let rules = RuleSet([
      Rule(name: "r", apps: [AppPattern(name: "B"), AppPattern(name: "A")], dailyLimitMinutes: 30),
      Rule(name: "s", apps: [AppPattern(name: "C")], dailyLimitMinutes: 10),
    ])
    let today = day.adding(days: 20)!
    _ = try store.update(keeping: 90, today: today) { history in
      for offset in 0...20 {
        history.record(
          HistoryEntry(
            usedSeconds: 100 + offset, apps: ["A": offset, "B": 50], limitSeconds: 1_800, grants: offset % 2),
          for: "r", on: day.adding(days: offset)!)
      }
      history.record(HistoryEntry(usedSeconds: 9, apps: ["C": 9]), for: "s", on: today)
    }
    let ledger = Ledger()
    let history = try store.load().value
    for from in [today, today.adding(days: -6)!, day, day.adding(days: -30)!] {
      for rule in [nil, "s"] {
        let read = try store.report(ledger: ledger, rules: rules, from: from, to: today, rule: rule)
        #expect(
          read.report
            == HistoryReport(history: history, ledger: ledger, rules: rules, from: from, to: today, rule: rule))
        #expect(read.warnings.isEmpty)
      }
    }
    let whole = HistoryReport(history: history, ledger: ledger, rules: rules, from: day, to: today)
    // Hand-edited (one line): read whole, the same report.
    try history.json.serialized.write(toFile: store.path, atomically: true, encoding: .utf8)
    #expect(try store.report(ledger: ledger, rules: rules, from: day, to: today).report == whole)
    // A damaged day: the whole read's judgement, with its warning.
    var lines = String(decoding: history.fileBytes, as: UTF8.self).split(separator: "\n").map(String.init)
    lines[3] = "{\"date\":\"\(day.adding(days: 2)!)\",\"rules\":{\"r\":[}},"
    try (lines.joined(separator: "\n") + "\n").write(toFile: store.path, atomically: true, encoding: .utf8)
    let damaged = try store.report(ledger: ledger, rules: rules, from: day, to: today)
    #expect(damaged.warnings.map(\.code) == ["history-unreadable"])
    #expect(damaged.report == HistoryReport(history: History(), ledger: ledger, rules: rules, from: day, to: today))
  }

  @Test(
    "A report read from the lines straight into its figures is the loaded history's, for varied histories"
  )
  func reportStreamed() throws {
    let state = try TemporaryDirectory()
    let store = HistoryStore(directory: state.file("shieldbridge"))
    // The configuration of today: "gone" was removed mid-year (the history keeps it), "new" added
    // mid-year; "video" lists an app twice and one the history never saw.
    let rules = RuleSet([
      Rule(name: "social", apps: [AppPattern(name: "TikTok"), AppPattern(name: "Instagram")], dailyLimitMinutes: 30),
      Rule(
        name: "video", apps: [AppPattern(name: "mpv"), AppPattern(name: "Ärger"), AppPattern(name: "mpv")],
        dailyLimitMinutes: 45, maxGrantsPerDay: 2),
      Rule(name: "new", apps: [AppPattern(name: "Steam")], dailyLimitMinutes: 10),
    ])
    // Across both of Europe's and America's changes of the clock in 2026.
    let first = LocalDay("2026-03-01")!
    let today = LocalDay("2026-11-29")!
    var random = SeededRandom(seed: 4)
    var history = History()
    for offset in 0...first.days(to: today) {
      let date = first.adding(days: offset)!
      for name in ["social", "video", "gone", "new"] where Int.random(in: 0..<6, using: &random) > 0 {
        if name == "gone" && offset > 120 || name == "new" && offset < 200 { continue }
        var apps: [String: Int] = [:]
        // Apps missing some days, one the configuration does not name, and splits above the seconds used.
        for app in ["TikTok", "Instagram", "mpv", "Ärger", "Steam", "other"]
        where Int.random(in: 0..<3, using: &random) > 0 {
          apps[app] = Int.random(in: 0...900, using: &random)
        }
        history.record(
          HistoryEntry(
            usedSeconds: Int.random(in: 0...2_400, using: &random), apps: apps,
            limitSeconds: Bool.random(using: &random) ? nil : Int.random(in: 0...3_600, using: &random),
            grants: Int.random(in: 0...3, using: &random), shieldsShown: Int.random(in: 0...3, using: &random),
            tasksAsked: Int.random(in: 0...3, using: &random), tasksSolved: Int.random(in: 0...4, using: &random),
            backedOut: Int.random(in: 0...2, using: &random)),
          for: name, on: date)
      }
    }
    _ = try store.update(keeping: 366, today: today) { $0 = history }
    history = try store.load().value
    var ledger = Ledger()
    for offset in 0..<5 {
      let date = today.adding(days: -offset)!
      _ = ledger.recordUsedSeconds(3_000 - 400 * offset, for: "social", on: date)
      _ = ledger.recordUsedSeconds(10, for: "video", on: date)
    }
    ledger.recordKnownGrants([today: ["social": 2, "video": 9], today.adding(days: -1)!: ["new": 1]])

    // A damaged line counts only when the report reads its day: not for today's report.
    func check(_ expected: History, warnings: [String], _ comment: Comment) throws {
      let froms = [today.adding(days: -6)!, LocalDay("2026-03-20")!, first, first.adding(days: -9)!]
      for from in (warnings.isEmpty ? [today] : []) + froms {
        for rule in [nil, "social", "video", "new"] {
          let read = try store.reportTable(ledger: ledger, rules: rules, from: from, to: today, rule: rule)
          let model = HistoryReport.Table(
            history: expected, ledger: ledger, rules: rules, from: from, to: today, rule: rule)
          #expect(read.table == model, comment)
          #expect(read.warnings.map(\.code) == warnings, comment)
          #expect(
            try store.report(ledger: ledger, rules: rules, from: from, to: today, rule: rule).report
              == HistoryReport(history: expected, ledger: ledger, rules: rules, from: from, to: today, rule: rule),
            comment)
        }
      }
      // A history forgotten before a day: the ledger's days before it count nothing.
      var forgotten = expected
      forgotten.forget(before: today.adding(days: -2), today: today)
      try Data(forgotten.fileBytes).write(to: URL(fileURLWithPath: store.path))
      let read = try store.reportTable(ledger: ledger, rules: rules, from: today.adding(days: -6)!, to: today)
      #expect(
        read.table
          == HistoryReport.Table(
            history: forgotten, ledger: ledger, rules: rules, from: today.adding(days: -6)!, to: today),
        comment)
    }
    try check(history, warnings: [], "the store's file")

    // Hand-edited lines: spaces, apps unsorted and named twice, a split above the seconds, a rule twice.
    var lines = String(decoding: history.fileBytes, as: UTF8.self).split(separator: "\n").map(String.init)
    let edited = LocalDay("2026-11-25")!
    let index = try #require(lines.firstIndex { $0.hasPrefix("{\"date\":\"\(edited)\"") })
    lines[index] =
      "{ \"date\": \"\(edited)\", \"rules\": {\"social\": {\"usedSeconds\": 100, "
      + "\"apps\": {\"TikTok\": 80, \"Instagram\": 30, \"TikTok\": 60}}, "
      + "\"video\":{\"usedSeconds\":50,\"apps\":{\"mpv\":70,\"Ärger\":-3},\"grants\":9}}},"
    let before = LocalDay("2026-11-24")!
    let beforeIndex = try #require(lines.firstIndex { $0.hasPrefix("{\"date\":\"\(before)\"") })
    lines[beforeIndex] =
      "{\"date\":\"\(before)\",\"rules\":{\"video\":{\"usedSeconds\":5},\"social\":{\"apps\":{\"b\":1,\"a\":2}}}},"
    try (lines.joined(separator: "\n") + "\n").write(toFile: store.path, atomically: true, encoding: .utf8)
    let handEdited = try store.load()
    #expect(handEdited.warnings.isEmpty)
    #expect(handEdited.value.entry(for: "social", on: edited)?.apps == ["TikTok": 60, "Instagram": 30])
    try check(handEdited.value, warnings: [], "hand-edited lines")

    // A rule twice in a line, and a date twice: the file is damaged, the whole read's judgement with its warning.
    for damage in [
      "{\"date\":\"\(edited)\",\"rules\":{\"social\":{},\"social\":{}}},",
      lines[index + 1],
    ] {
      var damaged = lines
      damaged[index] = damage
      try (damaged.joined(separator: "\n") + "\n").write(toFile: store.path, atomically: true, encoding: .utf8)
      #expect(try store.load().warnings.map(\.code) == ["history-unreadable"])
      try check(History(), warnings: ["history-unreadable"], "damaged: \(damage)")
    }
  }

  @Test("A history from a newer version is refused and left as it is")
  func newer() throws {
    let state = try TemporaryDirectory()
    let directory = state.file("shieldbridge")
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    try "{\"version\":2,\"days\":[]}".write(toFile: directory + "/history.json", atomically: true, encoding: .utf8)
    let store = HistoryStore(directory: directory)
    #expect(throws: LedgerError.self) { try store.update(keeping: 90, today: day) { _ in } }
    #expect(try String(contentsOfFile: directory + "/history.json", encoding: .utf8) == "{\"version\":2,\"days\":[]}")
  }
}
