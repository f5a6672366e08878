import Model
import ShieldCore
import Testing

@Suite("The core's saves carry what the history keeps: the split by app, the limit in force, the shields shown")
struct HistoryFiguresTests {
  @Test("At the limit the save has the app in front and the limit; the next save the shield; the history records them")
  func limitSave() throws {
    var harness = CoreHarness()
    harness.send(.focus(CoreHarness.instagram))
    let effects = harness.pass(.seconds(61))
    let saves = effects.compactMap { if case .save(let save) = $0 { save } else { nil } }
    let atLimit = try #require(saves.last)
    let day = harness.core.meter.day
    #expect(atLimit.appSecondsByDay[day]?["social"] == ["Instagram": 61])
    #expect(atLimit.limitSecondsToday["social"] == 60)
    // The save at the limit comes before the shield is posted; the next save carries it.
    let later = harness.send(.desktopLost).compactMap { if case .save(let save) = $0 { save } else { nil } }
    let save = try #require(later.last)
    #expect(save.shieldsShownByDay[day]?["social"] == 1)

    var ledger = Ledger()
    ledger.recordUsedSeconds(61, for: "social", on: day)
    var history = History()
    HistoryFigures.record(save, ledger: ledger, rules: RuleSet([harness.social]), today: day, into: &history)
    let entry = try #require(history.entry(for: "social", on: day))
    #expect(entry.usedSeconds == 61)
    #expect(entry.apps == ["Instagram": 61])
    #expect(entry.limitSeconds == 60)
    #expect(entry.shieldsShown == 1)
    #expect(entry.tasksAsked == 0 && entry.backedOut == 0)
  }

  @Test("A core started from the history goes on counting its shields and its split")
  func restart() throws {
    var first = CoreHarness()
    first.send(.focus(CoreHarness.instagram))
    let save = try #require(
      first.pass(.seconds(61)).compactMap { if case .save(let save) = $0 { save } else { nil } }.last)
    let day = first.core.meter.day
    var ledger = Ledger()
    ledger.recordUsedSeconds(61, for: "social", on: day)
    var history = History()
    HistoryFigures.record(save, ledger: ledger, rules: RuleSet([first.social]), today: day, into: &history)
    let core = ShieldCore(
      rules: RuleSet([first.social]), ledger: ledger, history: history,
      settings: ShieldCore.Settings(calendar: .system),
      now: first.now)
    #expect(core.meter.appSeconds(on: day)["social"] == ["Instagram": 61])
  }

  @Test("A core started without its ledger (deleted mid-day) takes today's use and grants from the history")
  func ledgerLost() throws {
    var first = CoreHarness()
    first.send(.focus(CoreHarness.instagram))
    let save = try #require(
      first.pass(.seconds(61)).compactMap { if case .save(let save) = $0 { save } else { nil } }.last)
    let day = first.core.meter.day
    var ledger = Ledger()
    ledger.recordUsedSeconds(61, for: "social", on: day)
    ledger.recordKnownGrants([day: ["social": 1]])
    var history = History()
    HistoryFigures.record(save, ledger: ledger, rules: RuleSet([first.social]), today: day, into: &history)
    // The ledger gone, the history kept: the day goes on where it was, at its limit.
    let core = ShieldCore(
      rules: RuleSet([first.social]), ledger: Ledger(), history: history,
      settings: ShieldCore.Settings(calendar: .system),
      now: first.now)
    #expect(core.meter.usage(of: "social")?.usedSeconds == 61)
    #expect(core.meter.usage(of: "social")?.grantsToday == 1)
    // And a ledger that holds more than the history is not lowered by it.
    var more = Ledger()
    more.recordUsedSeconds(90, for: "social", on: day)
    let kept = ShieldCore(
      rules: RuleSet([first.social]), ledger: more, history: history, settings: ShieldCore.Settings(calendar: .system),
      now: first.now)
    #expect(kept.meter.usage(of: "social")?.usedSeconds == 90)
  }
}
