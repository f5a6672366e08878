import Dispatch
import Foundation
import JSON
import Model
import Store
import Synchronization
import TestSupport
import Testing

@Suite("The ledger on disk keeps every grant")
struct LedgerStoreTests {
  let social = Rule(name: "social", apps: ["Instagram", "TikTok", "YouTube"])

  func contents(_ path: String) -> String? {
    try? String(contentsOfFile: path, encoding: .utf8)
  }

  @Test("A recorded grant is read back by another store on the same directory")
  func persists() throws {
    let state = try TemporaryDirectory()
    let first = LedgerStore(directory: state.file("shieldbridge"))
    let recorded = try first.recordGrant(for: social)
    #expect(recorded.warnings.isEmpty)
    #expect(recorded.value.status.grantsToday == 1)
    #expect(recorded.value.status.limitTodayMinutes == 10)
    let second = LedgerStore(directory: state.file("shieldbridge"))
    #expect(try second.status(of: social).value.grantsToday == 1)
    #expect(try second.status(of: RuleSet([social])).value.date == LocalDay.containing(.now))
  }

  @Test("Reading a ledger that does not exist yet creates nothing")
  func readCreatesNothing() throws {
    let state = try TemporaryDirectory()
    let store = LedgerStore(directory: state.file("shieldbridge"))
    #expect(try store.status(of: social).value.grantsToday == 0)
    #expect(!FileManager.default.fileExists(atPath: state.file("shieldbridge")))
  }

  @Test("Grants earned before local midnight stop counting at midnight")
  func midnightRollover() throws {
    let state = try TemporaryDirectory()
    let day = LocalDay.containing(utc(2026, 6, 15, 12))
    let clock = ManualClock(day.adding(days: 1)!.start.adding(seconds: -60))
    let store = LedgerStore(directory: state.path, clock: clock.wallClock)
    for _ in 1...5 { _ = try store.recordGrant(for: social) }
    #expect(throws: LedgerError.self) { try store.recordGrant(for: social) }
    clock.now = clock.now.adding(seconds: 59)
    #expect(try store.status(of: social).value.grantsToday == 5)
    clock.now = clock.now.adding(seconds: 1)
    let afterMidnight = try store.status(of: social).value
    #expect(afterMidnight.grantsToday == 0)
    #expect(afterMidnight.limitTodayMinutes == 5)
    #expect(try store.recordGrant(for: social).value.status.grantsToday == 1)
    #expect(try store.load().value.grants(for: "social", on: day) == 5)
  }

  @Test("Across Berlin's DST changes, a day's grants end at that day's local midnight")
  func berlinRollover() async {
    await #expect(processExitsWith: .success) {
      useTimeZone("Europe/Berlin")
      let state = try TemporaryDirectory()
      let rule = Rule(name: "social", apps: ["Instagram"])
      let clock = ManualClock(utc(2026, 3, 28, 23, 30))  // 00:30 CET on the 23-hour day
      let store = LedgerStore(directory: state.path, clock: clock.wallClock)
      _ = try store.recordGrant(for: rule)
      clock.now = utc(2026, 3, 29, 21, 30)  // 23:30 CEST, the same day
      #expect(try store.recordGrant(for: rule).value.status.grantsToday == 2)
      clock.now = utc(2026, 3, 29, 21, 59, 59)  // 23:59:59 CEST
      #expect(try store.status(of: rule).value.grantsToday == 2)
      clock.now = utc(2026, 3, 29, 22)  // 00:00 CEST on the 30th
      #expect(try store.status(of: rule).value.grantsToday == 0)

      clock.now = utc(2026, 10, 25, 22, 30)  // 23:30 CET on the 25-hour day
      _ = try store.recordGrant(for: rule)
      clock.now = utc(2026, 10, 25, 22, 59, 59)
      #expect(try store.status(of: rule).value.grantsToday == 1)
      clock.now = utc(2026, 10, 25, 23)  // 00:00 CET on the 26th
      #expect(try store.status(of: rule).value.grantsToday == 0)
      #expect(try store.status(of: RuleSet([rule])).value.date.description == "2026-10-26")
    }
  }

  @Test("A grant past the most per day is refused and leaves the file as it was")
  func refusedGrantWritesNothing() throws {
    let state = try TemporaryDirectory()
    let store = LedgerStore(directory: state.path)
    let rule = Rule(name: "social", apps: [], maxGrantsPerDay: 2)
    _ = try store.recordGrant(for: rule)
    _ = try store.recordGrant(for: rule)
    let before = contents(store.path)
    #expect(throws: LedgerError.grantsUsedUp(rule: "social", maximum: 2, day: store.today)) {
      try store.recordGrant(for: rule)
    }
    #expect(contents(store.path) == before)
  }

  @Test("Grants recorded at the same moment through separate stores are all kept")
  func concurrentStoresInOneProcess() throws {
    let state = try TemporaryDirectory()
    let rule = Rule(name: "social", apps: [], maxGrantsPerDay: 100)
    let stores = (0..<4).map { _ in LedgerStore(directory: state.path) }
    let failures = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: 40) { index in
      if (try? stores[index % stores.count].recordGrant(for: rule)) == nil {
        failures.add(1, ordering: .relaxed)
      }
    }
    #expect(failures.load(ordering: .relaxed) == 0)
    #expect(try stores[0].status(of: rule).value.grantsToday == 40)
  }

  @Test("When several race for the last grant, exactly one gets it")
  func raceForLastGrant() throws {
    let state = try TemporaryDirectory()
    let rule = Rule(name: "social", apps: [], maxGrantsPerDay: 3)
    let store = LedgerStore(directory: state.path)
    _ = try store.recordGrant(for: rule)
    _ = try store.recordGrant(for: rule)
    let race = raceGrants(for: rule, in: state.path) { if case .grantsUsedUp = $0 { true } else { false } }
    #expect(race.granted == 1)
    #expect(race.refused == 7)
    #expect(try store.status(of: rule).value.grantsToday == 3)
  }

  @Test("A damaged ledger is kept aside, reported, and replaced")
  func corruptLedger() throws {
    let state = try TemporaryDirectory()
    let clock = ManualClock(utc(2026, 11, 29, 10, 15, 3))
    let store = LedgerStore(directory: state.path, clock: clock.wallClock)
    let damaged = #"{"version":1,"days":[{"date":"2026-11-29","grants":{"social":2}"#
    try damaged.write(toFile: store.path, atomically: false, encoding: .utf8)

    let status = try store.status(of: social)
    #expect(status.value.grantsToday == 0)
    let keptAt = store.path + ".corrupt-20261129T101503Z"
    #expect(status.warnings.count == 1)
    guard case .corruptLedgerMovedAside(let path, let kept, let problem)? = status.warnings.first
    else {
      Issue.record("no warning for the damaged ledger")
      return
    }
    #expect(path == store.path)
    #expect(kept == keptAt)
    #expect(problem.contains("not JSON"))
    #expect("\(status.warnings[0])".contains(keptAt))
    #expect(contents(keptAt) == damaged)
    #expect(try Ledger(json: JSONValue(parsing: Array(contents(store.path)!.utf8))) == Ledger())

    // A second damaged ledger in the same second gets a name of its own.
    try "garbage".write(toFile: store.path, atomically: false, encoding: .utf8)
    let recorded = try store.recordGrant(for: social)
    #expect(recorded.warnings.first?.code == "ledger-corrupt")
    #expect(contents(keptAt + "-2") == "garbage")
    #expect(contents(keptAt) == damaged)
    #expect(try store.status(of: social).value.grantsToday == 1)
    #expect(try store.status(of: social).warnings.isEmpty)
  }

  @Test("A ledger of the wrong shape or size counts as damaged too")
  func wrongShapeIsDamaged() throws {
    let state = try TemporaryDirectory()
    let store = LedgerStore(directory: state.path, clock: .fixed(utc(2026, 1, 2, 3, 4, 5)))
    try #"{"version":1,"days":"none"}"#.write(
      toFile: store.path, atomically: false, encoding: .utf8)
    #expect(try store.load().warnings.count == 1)
    let huge = Data(repeating: 0x20, count: LedgerStore.maximumFileSize + 1)
    try huge.write(to: URL(fileURLWithPath: store.path))
    let loaded = try store.load()
    #expect(loaded.warnings.count == 1)
    #expect("\(loaded.warnings[0])".contains("larger than"))
  }

  @Test("A ledger from a newer version is left untouched and reported as an error")
  func newerVersion() throws {
    let state = try TemporaryDirectory()
    let store = LedgerStore(directory: state.path)
    let newer = #"{"version":2,"days":[]}"#
    try newer.write(toFile: store.path, atomically: false, encoding: .utf8)
    #expect(throws: LedgerError.self) { try store.recordGrant(for: social) }
    do {
      _ = try store.status(of: social)
    } catch {
      #expect(error.code == "state-newer-version")
    }
    #expect(contents(store.path) == newer)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: state.path).sorted() == [
        "ledger.json", "ledger.lock",
      ])
  }

  @Test("A temporary file left by a writer that died never replaces the ledger and is cleared")
  func leftoverTemporaryFile() throws {
    let state = try TemporaryDirectory()
    let store = LedgerStore(directory: state.path)
    _ = try store.recordGrant(for: social)
    let leftover = store.path + ".tmp-12345-abc"
    try #"{"version":1,"days":[{"date":"#.write(
      toFile: leftover, atomically: false, encoding: .utf8)
    #expect(try store.status(of: social).value.grantsToday == 1)
    #expect(try store.recordGrant(for: social).value.status.grantsToday == 2)
    #expect(!FileManager.default.fileExists(atPath: leftover))
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: state.path).sorted() == [
        "ledger.json", "ledger.lock",
      ])
  }

  @Test("A lock held elsewhere makes a grant wait and then give up with a clear error")
  func lockTimeout() throws {
    let state = try TemporaryDirectory()
    let descriptor = open(state.file("ledger.lock"), O_RDWR | O_CREAT, 0o600)
    #expect(descriptor >= 0)
    defer { close(descriptor) }
    #expect(flock(descriptor, LOCK_EX) == 0)
    let store = LedgerStore(directory: state.path, lockTimeout: .milliseconds(100))
    #expect(throws: LedgerError.lockTimeout(path: state.file("ledger.lock"))) {
      try store.recordGrant(for: social)
    }
    flock(descriptor, LOCK_UN)
    #expect(try store.recordGrant(for: social).value.status.grantsToday == 1)
  }

  @Test("A state directory that cannot be made is a state error naming the path")
  func unusableDirectory() throws {
    let state = try TemporaryDirectory()
    try "a file".write(toFile: state.file("blocker"), atomically: false, encoding: .utf8)
    let store = LedgerStore(directory: state.file("blocker/shieldbridge"))
    do {
      _ = try store.recordGrant(for: social)
      Issue.record("the grant was recorded")
    } catch {
      #expect(error.code == "state-io")
      #expect("\(error)".contains("/blocker/shieldbridge: create directory failed"))
    }
  }

  @Test("Writing drops days older than a week")
  func boundedFile() throws {
    let state = try TemporaryDirectory()
    let clock = ManualClock(utc(2026, 11, 1, 12))
    let store = LedgerStore(directory: state.path, clock: clock.wallClock)
    for _ in 0..<30 {
      _ = try store.recordGrant(for: social)
      clock.now = clock.now.adding(seconds: 86_400)
    }
    #expect(try store.load().value.days.count == Ledger.keptDays)
  }
}

@Suite("State and config live in the XDG base directories")
struct BaseDirectoryTests {
  @Test("XDG_STATE_HOME and XDG_CONFIG_HOME are used when they are absolute")
  func variables() {
    let environment = ["XDG_STATE_HOME": "/s", "XDG_CONFIG_HOME": "/c/", "HOME": "/home/ada"]
    #expect(BaseDirectory.state.shieldBridgePath(environment: environment) == "/s/shieldbridge")
    #expect(BaseDirectory.config.shieldBridgePath(environment: environment) == "/c/shieldbridge")
  }

  @Test("Unset, empty or relative variables fall back to the defaults under HOME")
  func fallback() {
    for value in [nil, "", "relative/state"] as [String?] {
      var environment = ["HOME": "/home/ada"]
      environment["XDG_STATE_HOME"] = value
      environment["XDG_CONFIG_HOME"] = value
      #expect(
        BaseDirectory.state.shieldBridgePath(environment: environment)
          == "/home/ada/.local/state/shieldbridge")
      #expect(
        BaseDirectory.config.shieldBridgePath(environment: environment)
          == "/home/ada/.config/shieldbridge")
    }
  }

  @Test("Without any absolute directory there is no state directory")
  func none() {
    #expect(BaseDirectory.state.shieldBridgePath(environment: ["HOME": "relative"]) == nil)
    #expect(throws: LedgerError.noStateDirectory) { try LedgerStore.standard(environment: [:]) }
  }
}
