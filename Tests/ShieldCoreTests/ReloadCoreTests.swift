import Model
import Posix
import ShieldCore
import Testing

/// The rules replaced during the day (a reload, a new day): no gap in
/// enforcement, and the state a reload reaches is the state a fresh start
/// with the same files reaches.
@Suite("New rules in force: no gap, and a reload reaches what a fresh start reaches")
struct ReloadCoreTests {
  static let instagram = CoreHarness.instagram
  static let terminal = CoreHarness.terminal

  /// The rules as the harness has them, with `change` applied to its one rule.
  static func rules(_ change: (inout Rule) -> Void) -> RuleSet {
    var rule = CoreHarness().social
    change(&rule)
    return RuleSet([rule])
  }

  @Test("Over the limit, the rules replaced, the app brought back at once: it is hidden at once")
  func noGapAtTheLimit() throws {
    var harness = CoreHarness()
    _ = try harness.reachLimit()
    harness.send(.focus(Self.terminal))
    let change = harness.core.rules.change(to: Self.rules { $0.maxGrantsPerDay = 1 })
    harness.send(.rulesReplaced(change, Ledger()))
    #expect(harness.core.overLimit["social"] != nil)
    #expect(harness.send(.focus(Self.instagram)).contains(.enforce(rule: "social")))
  }

  @Test("A task solved across a reload is granted: the rule is still at its limit")
  func taskAcrossAReload() throws {
    var harness = CoreHarness()
    let shield = try harness.reachLimit()
    harness.send(.focus(Self.terminal))
    let (taskID, puzzle, _) = try harness.openInline(try harness.clickTask(on: shield))
    harness.send(.rulesReplaced(harness.core.rules.change(to: Self.rules { $0.warnMinutes = 2 }), Ledger()))
    #expect(harness.send(.replied(id: taskID, text: String(puzzle.answer))).contains(.recordGrant(rule: "social")))
  }

  @Test("Over the limit and in front as the rules are replaced: enforced again with the change")
  func inFrontAtTheChange() throws {
    var harness = CoreHarness()
    _ = try harness.reachLimit()
    let change = harness.core.rules.change(to: Self.rules { $0.warnMinutes = 2 })
    #expect(harness.send(.rulesReplaced(change, Ledger())).contains(.enforce(rule: "social")))
    // The same window reported again (the desktop tells the focus once more): enforced, not counted as free.
    #expect(harness.send(.focus(Self.instagram)).contains(.enforce(rule: "social")))
  }

  @Test("Renamed at the limit: the new name is over the limit, and the app is hidden on its next focus")
  func renamedAtTheLimit() throws {
    var harness = CoreHarness()
    _ = try harness.reachLimit()
    harness.send(.focus(Self.terminal))
    let change = harness.core.rules.change(to: Self.rules { $0.name = "social2" })
    harness.send(.rulesReplaced(change, Ledger()))
    #expect(harness.core.overLimit["social2"] != nil)
    #expect(harness.send(.focus(Self.instagram)).contains(.enforce(rule: "social2")))
    let usage = try #require(harness.core.meter.usage(of: "social2"))
    #expect(usage.used >= usage.limit)
  }

  @Test("In downtime, the rules replaced, the app brought back at once: it is hidden at once")
  func noGapInDowntime() throws {
    var rule = Rule(name: "social", apps: ["Instagram"], dailyLimitMinutes: 60, warnMinutes: 0)
    // In downtime all day but one minute, whatever the zone.
    rule.downtime = [DowntimePeriod(from: ClockTime("00:01")!, to: ClockTime("00:00")!)]
    var harness = CoreHarness()
    harness.core = ShieldCore(
      rules: RuleSet([rule]), ledger: Ledger(), settings: ShieldCore.Settings(calendar: .system), now: CoreHarness.start
    )
    harness.send(.desktopStarted(countsRunning: false))
    guard harness.core.meter.downtimeEnd(of: "social") != nil else { return }
    #expect(harness.send(.focus(Self.instagram)).contains(.enforce(rule: "social")))
    harness.send(.focus(Self.terminal))
    var tighter = rule
    tighter.dailyLimitMinutes = 30
    harness.send(.rulesReplaced(harness.core.rules.change(to: RuleSet([tighter])), Ledger()))
    #expect(harness.send(.focus(Self.instagram)).contains(.enforce(rule: "social")))
  }

  // MARK: A reload reaches what a fresh start reaches

  /// The files a service leaves: the ledger, with the rules in force beside the counts.
  struct Files {
    var ledger = Ledger()
    /// The ledger's copy of the rules in force (read back as written, which RulesInForceTests checks).
    var held: (day: LocalDay, rules: RuleSet)?

    /// Writes what the core asks to be saved, as `LedgerStore.recordMeter` does.
    mutating func write(_ save: ShieldEffect.Save, day: LocalDay) {
      held = (day, save.rulesInForce)
      if let anchor = save.anchor { ledger.dayAnchor = anchor }
      for (day, seconds) in save.usedSecondsByDay {
        ledger.recordUsedSeconds(seconds, on: day, replacing: save.replacing[day] ?? [:])
      }
      ledger.recordKnownGrants(save.grantsByDay)
      ledger.recordMeter(metered: save.metered, limitReached: save.limitReached, on: day)
    }

    /// Carries out a core's effects as far as the files go; the ledgers written go back as inputs.
    mutating func carryOut(_ effects: [ShieldEffect], core: inout ShieldCore, at now: MeterInstant) {
      var queue = effects
      while !queue.isEmpty {
        if case .save(let save) = queue.removeFirst() {
          write(save, day: core.meter.day)
          queue += core.handle(.ledger(ledger), at: now)
        }
      }
    }

    /// A service started now on these files with `configured`: the rules held today changed to it.
    mutating func start(_ configured: RuleSet, settings: ShieldCore.Settings, at now: MeterInstant) -> ShieldCore {
      let probe = ShieldCore(rules: configured, ledger: ledger, settings: settings, now: now)
      let change =
        held.flatMap { $0.day == probe.meter.day ? $0.rules.change(to: configured) : nil }
        ?? RuleChange(rules: configured)
      var core = ShieldCore(
        rules: change.rules, ledger: ledger, takeOver: change.takeOver, settings: settings, now: now)
      if let save = core.startingSave(at: now) { write(save, day: core.meter.day) }
      return core
    }
  }

  static let apps = [instagram, AppIdentity(instance: "tiktok", windowClass: "TikTok", pid: 101), terminal]
  static let appNames = ["Instagram", "TikTok", "YouTube"]

  /// A configuration a person may write during the day: none, rules added,
  /// renamed, loosened, tightened, removed, split, merged.
  static func configuration(_ random: inout SeededRandom) -> RuleSet {
    guard Int.random(in: 0..<5, using: &random) != 0 else { return .builtIn }
    var names = ["social", "social2", "video", "photos", "clips"].shuffled(using: &random)
    var rules: [Rule] = []
    for app in appNames where Int.random(in: 0..<4, using: &random) != 0 {
      if rules.isEmpty || Bool.random(using: &random) {
        var rule = Rule(
          name: names.removeFirst(), apps: [], dailyLimitMinutes: Int.random(in: 0...3, using: &random),
          grantMinutes: 1, maxGrantsPerDay: Int.random(in: 0...2, using: &random), warnMinutes: 0)
        if Int.random(in: 0..<4, using: &random) == 0 {
          rule.downtime = [DowntimePeriod(from: ClockTime("00:01")!, to: ClockTime("00:00")!)]
        }
        rules.append(rule)
      }
      rules[rules.count - 1].apps.append(AppPattern(name: app))
    }
    return RuleSet(rules)
  }

  /// What can be told of a core from outside: its rules, and per rule the
  /// meter's use, limit, grants, limit reached and downtime, and whether a
  /// focus of each app is enforced.
  struct Seen: Equatable {
    var rules: RuleSet
    var usages: [String]
    var enforced: [Bool]

    init(_ core: ShieldCore, at now: MeterInstant) {
      rules = core.rules
      usages = core.meter.usages.map { usage in
        "\(usage.rule): \(usage.usedSeconds) s of \(usage.limitSeconds) s, \(usage.grantsToday) grant(s), "
          + "at the limit \(core.meter.isAtLimit(usage.rule)), downtime \(core.meter.downtimeEnd(of: usage.rule) != nil)"
      }
      enforced = ReloadCoreTests.apps.map { app in
        var probe = core
        return probe.handle(.focus(app), at: now).contains { if case .enforce = $0 { true } else { false } }
      }
    }
  }

  @Test("After each change of config.json, the running core and a fresh start on its files agree", arguments: 0..<60)
  func reloadIsAFreshStart(seed: UInt64) {
    var random = SeededRandom(seed: seed)
    let settings = ShieldCore.Settings(calendar: .system, minuteLength: .seconds(10), saveInterval: .seconds(5))
    var now = CoreHarness.start
    var files = Files()
    var configured = Self.configuration(&random)
    var running = files.start(configured, settings: settings, at: now)
    files.carryOut(running.handle(.desktopStarted(countsRunning: false), at: now), core: &running, at: now)
    var front = Self.apps[0]
    for step in 0..<16 {
      // Use: some seconds with an app in front, a grant now and then from another process.
      for _ in 0..<Int.random(in: 1...3, using: &random) {
        front = Self.apps.randomElement(using: &random) ?? front
        files.carryOut(running.handle(.focus(front), at: now), core: &running, at: now)
        let seconds = Int64.random(in: 0...25, using: &random)
        now = MeterInstant(
          monotonic: MonotonicTime(nanoseconds: now.monotonic.nanoseconds + UInt64(seconds) * 1_000_000_000),
          wall: now.wall.adding(seconds: seconds))
        files.carryOut(running.handle(.tick, at: now), core: &running, at: now)
      }
      if let rule = running.rules.rules.randomElement(using: &random), Bool.random(using: &random),
        (try? files.ledger.recordGrant(for: rule, on: running.meter.day)) != nil
      {
        files.carryOut(running.handle(.ledger(files.ledger), at: now), core: &running, at: now)
      }
      // config.json changes; the running service reloads it.
      configured = Self.configuration(&random)
      let change = running.rules.change(to: configured)
      if change.rules != running.rules {
        files.carryOut(running.handle(.rulesReplaced(change, files.ledger), at: now), core: &running, at: now)
      }
      // A fresh start on the same files, with the same desktop: the service stopped (which stores the
      // use counted since the last save, as `serve` does at its stop) and started again.
      var startFiles = files
      var stopping = running
      if let save = stopping.stop(at: now) { startFiles.write(save, day: stopping.meter.day) }
      var fresh = startFiles.start(configured, settings: settings, at: now)
      startFiles.carryOut(fresh.handle(.desktopStarted(countsRunning: false), at: now), core: &fresh, at: now)
      startFiles.carryOut(fresh.handle(.focus(front), at: now), core: &fresh, at: now)
      #expect(Seen(running, at: now) == Seen(fresh, at: now), "seed \(seed), step \(step)")
      // What status reads: the files' rules and grants, the same after either.
      #expect(files.held?.rules == running.rules, "seed \(seed), step \(step)")
      #expect(startFiles.held?.rules == fresh.rules, "seed \(seed), step \(step)")
      let day = running.meter.day
      #expect(
        files.ledger.status(of: running.rules, on: day) == startFiles.ledger.status(of: fresh.rules, on: day),
        "seed \(seed), step \(step)")
    }
  }
}
