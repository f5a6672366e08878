import Dispatch
import Foundation
import JSON
import Model
import Store
import Synchronization
import TestSupport
import Testing

@Suite("The ledger keeps the seconds used per rule and day beside the grants")
struct LedgerUsageTests {
  let social = Rule(name: "social", apps: ["Instagram"])
  let today = LocalDay("2026-11-29")!

  @Test("Seconds used are stored as the documented JSON, beside the grants")
  func documentedForm() throws {
    var ledger = Ledger()
    try ledger.recordGrant(for: social, on: today)
    ledger.recordUsedSeconds(190, for: "social", on: today)
    ledger.recordUsedSeconds(42, for: "video", on: today.adding(days: -1)!)
    #expect(
      ledger.json.serialized
        == #"{"version":1,"days":[{"date":"2026-11-28","grants":{},"usedSeconds":{"video":42}},"#
        + #"{"date":"2026-11-29","grants":{"social":1},"usedSeconds":{"social":190}}]}"#)
    #expect(ledger.usedSeconds(for: "social", on: today) == 190)
    #expect(ledger.usedSeconds(for: "social", on: today.adding(days: -1)!) == 0)
  }

  @Test("The larger count is kept: use only grows during a day")
  func keepsLarger() {
    var ledger = Ledger()
    #expect(ledger.recordUsedSeconds(100, for: "social", on: today) == 100)
    #expect(ledger.recordUsedSeconds(40, for: "social", on: today) == 100)
    #expect(ledger.recordUsedSeconds(-5, for: "social", on: today) == 100)
    #expect(ledger.recordUsedSeconds(1_000_000, for: "social", on: today) == Ledger.maximumUsedSeconds)
    ledger.recordUsedSeconds(0, for: "video", on: today)
    #expect(ledger.usedSecondsByDay == [today: ["social": Ledger.maximumUsedSeconds]])
  }

  @Test("A ledger with use survives its stored form unchanged")
  func roundTrip() throws {
    var random = SeededRandom(seed: 12)
    for _ in 0..<50 {
      var ledger = Ledger()
      for _ in 0..<Int(random.next() % 20) {
        let day = today.adding(days: -Int(random.next() % 7))!
        let name = ["social", "video", "Spiele", "x\"y"][Int(random.next() % 4)]
        if random.next() % 2 == 0 {
          _ = try? ledger.recordGrant(for: Rule(name: name, apps: []), on: day)
        } else {
          ledger.recordUsedSeconds(Int(random.next() % 90_001), for: name, on: day)
        }
      }
      let text = ledger.json.serialized
      var warnings: [LedgerWarning] = []
      #expect(try Ledger(json: JSONValue(parsing: text), warnings: &warnings) == ledger)
      #expect(warnings.isEmpty)
      #expect(try Ledger(json: JSONValue(parsing: text)).json.serialized == text)
    }
  }

  @Test("A day with use alone may leave out its grants; a day with neither is still refused")
  func useAlone() throws {
    let json = try JSONValue(parsing: #"{"version":1,"days":[{"date":"2026-11-29","usedSeconds":{"social":5}}]}"#)
    let ledger = try Ledger(json: json)
    #expect(ledger.usedSeconds(for: "social", on: today) == 5)
    #expect(ledger.grants(for: "social", on: today) == 0)
    for text in [
      #"{"version":1,"days":[{"date":"2026-11-29","usedSeconds":[]}]}"#,
      #"{"version":1,"days":[{"date":"2026-11-29","grants":[],"usedSeconds":{}}]}"#,
    ] {
      #expect(throws: LedgerFormatError.self) { try Ledger(json: JSONValue(parsing: text)) }
    }
  }

  @Test("Negative, huge and non-numeric counts are kept in range and reported, the grants kept")
  func outOfRange() throws {
    let text =
      #"{"version":1,"days":[{"date":"2026-11-29","grants":{"social":2},"usedSeconds":"#
      + #"{"social":-30,"video":1e30,"games":123456789,"chat":"lots","mail":12.5,"news":90000}}]}"#
    var warnings: [LedgerWarning] = []
    let ledger = try Ledger(json: JSONValue(parsing: text), warnings: &warnings)
    #expect(ledger.grants(for: "social", on: today) == 2)
    #expect(ledger.usedSecondsByDay[today] == ["video": 90_000, "games": 90_000, "mail": 12, "news": 90_000])
    let found = Dictionary(
      uniqueKeysWithValues: warnings.compactMap { warning -> (String, String)? in
        guard case .usageOutOfRange(let day, let rule, let found, let kept) = warning, day == today else {
          return nil
        }
        return (rule, "\(found)->\(kept)")
      })
    #expect(
      found == [
        "social": "-30->0", "video": "\(JSONValue.number(1e30).serialized)->90000", "games": "123456789->90000",
        "chat": "\"lots\"->0", "mail": "12.5->12",
      ])
    #expect(warnings.allSatisfy { $0.code == "ledger-usage-out-of-range" })
    #expect(warnings.contains { "\($0)".contains("'social' on 2026-11-29 were -30") })
    // Read without asking for warnings, the same ledger.
    #expect(try Ledger(json: JSONValue(parsing: text)) == ledger)
  }

  @Test("Use on days after today is kept but not counted today; old use is forgotten")
  func laterAndOlderDays() {
    var ledger = Ledger()
    ledger.recordUsedSeconds(50, for: "social", on: today.adding(days: 2)!)
    ledger.recordUsedSeconds(60, for: "social", on: today.adding(days: -3)!)
    ledger.recordUsedSeconds(70, for: "social", on: today.adding(days: -8)!)
    #expect(ledger.usedSeconds(for: "social", on: today) == 0)
    #expect(ledger.daysWithUsage(after: today) == [today.adding(days: 2)!])
    ledger.forgetOldDays(before: today)
    #expect(ledger.usedSecondsByDay.keys.sorted() == [today.adding(days: -3)!, today.adding(days: 2)!])
  }

  @Test("Use counts towards the month of days a ledger keeps at most")
  func boundsDaysWithUse() {
    var ledger = Ledger()
    for offset in 0..<100 { ledger.recordUsedSeconds(offset + 1, for: "social", on: today.adding(days: offset)!) }
    ledger.forgetOldDays(before: today)
    #expect(ledger.usedSecondsByDay.count == Ledger.maximumDays)
    #expect(ledger.usedSecondsByDay.keys.sorted().last == today.adding(days: Ledger.maximumDays - 1))
  }
}

@Suite("The ledger on disk keeps the seconds used, merged under the lock")
struct LedgerStoreUsageTests {
  let social = Rule(name: "social", apps: ["Instagram"])

  func contents(_ path: String) -> String? {
    try? String(contentsOfFile: path, encoding: .utf8)
  }

  @Test("Recorded use is read back beside the grants, and the file has the documented form")
  func persists() throws {
    let state = try TemporaryDirectory()
    let store = LedgerStore(directory: state.path, clock: .fixed(utc(2026, 11, 29, 12)))
    _ = try store.recordGrant(for: social)
    let written = try store.recordUsage(["social": 190], on: store.today)
    #expect(written.warnings.isEmpty)
    #expect(written.value.grants(for: "social", on: store.today) == 1)
    let ledger = try LedgerStore(directory: state.path).load().value
    #expect(ledger.usedSeconds(for: "social", on: store.today) == 190)
    #expect(ledger.grants(for: "social", on: store.today) == 1)
    #expect(
      contents(store.path)
        == #"{"version":1,"days":[{"date":"2026-11-29","grants":{"social":1},"usedSeconds":{"social":190}}]}"#
        + "\n")
  }

  @Test("A smaller count never replaces a larger one, and an unchanged ledger is not rewritten")
  func mergesLarger() throws {
    let state = try TemporaryDirectory()
    let store = LedgerStore(directory: state.path, clock: .fixed(utc(2026, 11, 29, 12)))
    _ = try store.recordUsage(["social": 300, "video": 10], on: store.today)
    let merged = try store.recordUsage(["social": 200, "video": 20], on: store.today).value
    #expect(merged.usedSecondsByDay[store.today] == ["social": 300, "video": 20])
    let before = try FileManager.default.attributesOfItem(atPath: store.path)[.modificationDate] as? Date
    let inode = try FileManager.default.attributesOfItem(atPath: store.path)[.systemFileNumber] as? Int
    _ = try store.recordUsage(["social": 1, "video": 2], on: store.today)
    #expect(try FileManager.default.attributesOfItem(atPath: store.path)[.systemFileNumber] as? Int == inode)
    #expect(try FileManager.default.attributesOfItem(atPath: store.path)[.modificationDate] as? Date == before)
  }

  @Test("Two stores writing use at the same moment lose nothing: each rule keeps its largest count")
  func twoWriters() throws {
    let state = try TemporaryDirectory()
    let clock = WallClock.fixed(utc(2026, 11, 29, 12))
    let stores = [LedgerStore(directory: state.path, clock: clock), LedgerStore(directory: state.path, clock: clock)]
    let day = stores[0].today
    let failures = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: 60) { index in
      let store = stores[index % 2]
      let seconds = index % 2 == 0 ? ["social": index * 10] : ["video": index * 7, "social": index]
      do {
        if index % 10 == 5 {
          _ = try store.recordGrant(for: Rule(name: "social", apps: [], maxGrantsPerDay: 100))
        }
        _ = try store.recordUsage(seconds, on: day)
      } catch {
        failures.add(1, ordering: .relaxed)
      }
    }
    #expect(failures.load(ordering: .relaxed) == 0)
    let ledger = try stores[1].load().value
    #expect(ledger.usedSecondsByDay[day] == ["social": 580, "video": 59 * 7])
    #expect(ledger.grants(for: "social", on: day) == 6)
  }

  @Test("Use of several days is written at once, and days older than a week are dropped")
  func severalDays() throws {
    let state = try TemporaryDirectory()
    let store = LedgerStore(directory: state.path, clock: .fixed(utc(2026, 11, 29, 12)))
    let today = store.today
    let written = try store.recordUsage([
      today: ["social": 5], today.adding(days: -1)!: ["social": 600], today.adding(days: -7)!: ["social": 9],
    ]).value
    #expect(written.usedSecondsByDay.keys.sorted() == [today.adding(days: -1)!, today])
    #expect(try store.load().value == written)
  }

  @Test("Counts out of range are read in range with a warning, and the next write stores them so")
  func clampedOnDisk() throws {
    let state = try TemporaryDirectory()
    let store = LedgerStore(directory: state.path, clock: .fixed(utc(2026, 11, 29, 12)))
    try #"{"version":1,"days":[{"date":"2026-11-29","grants":{"social":1},"usedSeconds":{"social":-4,"video":99999}}]}"#
      .write(toFile: store.path, atomically: false, encoding: .utf8)
    let loaded = try store.load()
    #expect(loaded.warnings.count == 2)
    #expect(loaded.value.grants(for: "social", on: store.today) == 1)
    #expect(loaded.value.usedSecondsByDay[store.today] == ["video": 90_000])
    #expect(!FileManager.default.fileExists(atPath: store.path + ".corrupt-20261129T120000Z"))
    let written = try store.recordUsage(["social": 3], on: store.today)
    #expect(written.warnings.count == 2)
    #expect(try store.load().warnings.isEmpty)
    #expect(try store.load().value.usedSecondsByDay[store.today] == ["social": 3, "video": 90_000])
  }

  @Test("A meter restarted from the store goes on with the day's use and reports a limit already reached")
  func restartFromStore() throws {
    let state = try TemporaryDirectory()
    let store = LedgerStore(directory: state.path, clock: .fixed(utc(2026, 11, 29, 12)))
    let settings = UsageMeter.Settings(rules: RuleSet([social]), calendar: .system)
    var clock = MeterClock(wall: utc(2026, 11, 29, 12))
    var meter = UsageMeter(settings: settings, ledger: try store.loadForMeter().value, now: clock.now)
    _ = meter.inUse(["social"], at: clock.now)
    clock.pass(.milliseconds(200_500))
    _ = meter.advance(to: clock.now)
    _ = try store.recordUsage(meter.usedSecondsByDay)
    var restarted = UsageMeter(settings: settings, ledger: try store.loadForMeter().value, now: clock.now)
    #expect(restarted.usage(of: "social")?.usedSeconds == 200)
    clock.pass(.seconds(100))
    _ = meter.advance(to: clock.now)
    _ = try store.recordUsage(meter.usedSecondsToday, on: meter.day)
    restarted = UsageMeter(settings: settings, ledger: try store.loadForMeter().value, now: clock.now)
    #expect(restarted.usage(of: "social")?.overLimit == true)
    #expect(restarted.inUse(["social"], at: clock.now) == [.limitReached(rule: "social")])
  }

  @Test("The meter's start says when the ledger holds use from days after today")
  func laterDaysWarning() throws {
    let state = try TemporaryDirectory()
    let clock = ManualClock(utc(2026, 11, 30, 12))
    let store = LedgerStore(directory: state.path, clock: clock.wallClock)
    _ = try store.recordUsage(["social": 100], on: store.today)
    clock.now = utc(2026, 11, 28, 12)
    let start = try store.loadForMeter()
    let later = LocalDay.containing(utc(2026, 11, 30, 12))
    #expect(start.warnings == [.usageOnLaterDays(days: [later], today: store.today)])
    #expect(start.value.usedSeconds(for: "social", on: later) == 100)
    #expect(start.value.usedSeconds(for: "social", on: store.today) == 0)
    #expect(try store.load().warnings.isEmpty)
    // The meter started from it counts today from zero.
    let meter = UsageMeter(
      settings: UsageMeter.Settings(rules: RuleSet([social]), calendar: .system), ledger: start.value,
      now: MeterInstant(monotonic: .now, wall: clock.now))
    #expect(meter.usage(of: "social")?.usedSeconds == 0)
  }
}
