import Foundation
import Model
import Store
import TestSupport
import Testing

/// Issue 40, point 1: a save reads and writes the days it changes, and copies
/// the others' lines; the file it leaves is the one a whole read, change and
/// write leaves, byte for byte.
@Suite("Changing some days of a history file without reading the others")
struct HistoryDaysChangeTests {
  let today = LocalDay("2026-12-07")!
  let allDays = LocalDay("1970-01-01")!...LocalDay("9999-12-31")!

  /// A history of `count` days up to today, each with a few rules.
  func stored(days count: Int, forgottenBefore: Bool = false) -> History {
    var history = History()
    var random = SeededRandom(seed: UInt64(count))
    for offset in 0..<count {
      let day = today.adding(days: -offset)!
      for rule in ["games", "news", "social"] where random.next() % 3 != 0 {
        let used = Int(random.next() % 3_600)
        history.record(
          HistoryEntry(usedSeconds: used, apps: ["App \(rule)": used], grants: Int(random.next() % 3)), for: rule,
          on: day)
      }
    }
    if forgottenBefore { history.forget(before: today.adding(days: -(count - 3)), today: today) }
    return history
  }

  @Test("The same file as the whole way, for any days touched and any days kept")
  func sameAsTheWholeWay() throws {
    for count in [0, 1, 9, 40] {
      for forgotten in [false, true] {
        let history = stored(days: count, forgottenBefore: forgotten)
        let file = history.fileBytes
        for kept in [7, 30, 366] {
          for touched in [
            [today], [today, today.adding(days: -1)!], [today.adding(days: 1)!], [], [today.adding(days: -8)!],
          ] {
            let change: (inout History) -> Void = { history in
              for day in touched {
                history.record(HistoryEntry(usedSeconds: 61, apps: ["New": 61], grants: 1), for: "social", on: day)
              }
            }
            var whole = history
            change(&whole)
            whole.forgetOldDays(keeping: kept, today: today)
            let keeps = { (day: LocalDay) in History.keeps(day, keeping: kept, today: today) }
            let changed = try #require(History.changingDays(Set(touched), inFile: file, keeps: keeps, change))
            let expected = whole == history ? nil : whole.fileBytes
            #expect(changed.file == expected, "\(count) days, \(kept) kept, \(touched) touched")
            if let written = changed.file { #expect(History(fileBytes: written, only: allDays) == whole) }
            // The history given to the change holds the touched days alone.
            #expect(Set(changed.history.days.keys).isSubset(of: Set(touched)))
          }
        }
      }
    }
  }

  @Test("Nothing changed: nothing written, and the change was given the touched days alone")
  func noChange() throws {
    let file = stored(days: 10).fileBytes
    let keepAll = { (_: LocalDay) in true }
    let unchanged = try #require(History.changingDays([today], inFile: file, keeps: keepAll) { _ in })
    #expect(unchanged.file == nil)
    #expect(unchanged.history.days.keys.sorted() == [today])
  }

  @Test("Another layout, a date twice or a line that does not read: the whole way must judge")
  func otherLayouts() {
    let file = stored(days: 5).fileBytes
    let keepAll = { (_: LocalDay) in true }
    #expect(
      History.changingDays([today], inFile: Array(#"{"version":1,"days":[]}"#.utf8), keeps: keepAll) { _ in } == nil)
    var lines = String(decoding: file, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    lines.insert(lines[1], at: 1)
    #expect(
      History.changingDays([today], inFile: Array(lines.joined(separator: "\n").utf8), keeps: keepAll) { _ in } == nil)
    let broken = String(decoding: file, as: UTF8.self).replacingOccurrences(
      of: #""usedSeconds":"#, with: #""usedSeconds":x"#)
    #expect(History.changingDays([today], inFile: Array(broken.utf8), keeps: keepAll) { _ in } == nil)
  }

  @Test("Today goes into the open file alone, folded in when the day closes; a damaged file is moved aside")
  func theStore() throws {
    let folder = try TemporaryDirectory()
    let store = HistoryStore(directory: folder.path)
    let year = stored(days: 366)
    _ = try store.update(keeping: 366, today: today) { $0 = year }
    let entry = HistoryEntry(usedSeconds: 5, apps: ["New": 5], grants: 0)
    #expect(
      try store.update(days: [today], keeping: 366, today: today) { $0.record(entry, for: "social", on: today) } == [])
    var expected = year
    expected.record(entry, for: "social", on: today)
    #expect(try store.load().value == expected)
    #expect(try store.load(only: today...today).value.days == [today: expected.days[today]!])
    // history.json is as it was; today is in the open file, in the same layout.
    #expect(try Array(String(contentsOfFile: store.path, encoding: .utf8).utf8) == year.fileBytes)
    let open = try Array(String(contentsOfFile: store.openPath, encoding: .utf8).utf8)
    #expect(History(fileBytes: open, only: today...today)?.days == [today: expected.days[today]!])

    // The next day closes today: it goes into history.json, and the open file holds tomorrow alone.
    let tomorrow = today.adding(days: 1)!
    #expect(
      try store.update(days: [tomorrow], keeping: 366, today: tomorrow) {
        $0.record(entry, for: "social", on: tomorrow)
      } == [])
    expected.record(entry, for: "social", on: tomorrow)
    expected.forgetOldDays(keeping: 366, today: tomorrow)
    #expect(try store.load().value == expected)
    let folded = try Array(String(contentsOfFile: store.path, encoding: .utf8).utf8)
    #expect(History(fileBytes: folded, only: today...tomorrow)?.days.keys.sorted() == [today])
    let reopened = try Array(String(contentsOfFile: store.openPath, encoding: .utf8).utf8)
    #expect(History(fileBytes: reopened, only: today...tomorrow)?.days.keys.sorted() == [tomorrow])

    // A damaged history.json is left alone while only the open file is written, read as empty with a
    // warning, and moved aside when the open day closes; the open days are kept.
    try "not a history".write(toFile: store.path, atomically: true, encoding: .utf8)
    #expect(
      try store.update(days: [tomorrow], keeping: 366, today: tomorrow) {
        $0.record(entry, for: "social", on: tomorrow)
      } == [])
    let damaged = try store.load()
    #expect(damaged.warnings.map(\.code) == ["history-unreadable"])
    #expect(damaged.value.days.keys.sorted() == [tomorrow])
    let after = tomorrow.adding(days: 1)!
    let warnings = try store.update(days: [after], keeping: 366, today: after) {
      $0.record(entry, for: "social", on: after)
    }
    #expect(warnings.map(\.code) == ["history-corrupt"])
    #expect(try store.load().value.days.keys.sorted() == [tomorrow, after])
    #expect(!FileManager.default.fileExists(atPath: store.openPath))

    // A damaged open file: moved aside at the next save, history.json kept.
    try "{".write(toFile: store.openPath, atomically: true, encoding: .utf8)
    #expect(try store.load().warnings.map(\.code) == ["history-unreadable"])
    let moved = try store.update(days: [after], keeping: 366, today: after) {
      $0.record(entry, for: "social", on: after)
    }
    #expect(moved.map(\.code) == ["history-corrupt"])
    #expect(try store.load().value.days.keys.sorted() == [tomorrow, after])
  }

  @Test("A forget that reaches the open days writes them first, and leaves no open file")
  func forgetReachesTheOpenDays() throws {
    let folder = try TemporaryDirectory()
    let store = HistoryStore(directory: folder.path)
    _ = try store.update(keeping: 366, today: today) { $0 = stored(days: 30) }
    let yesterday = today.adding(days: -1)!
    let entry = HistoryEntry(usedSeconds: 5, apps: ["New": 5], grants: 0)
    let both: (inout History) -> Void = { history in
      history.record(entry, for: "social", on: yesterday)
      history.record(entry, for: "social", on: today)
    }
    _ = try store.update(days: [yesterday, today], keeping: 366, today: today, both)
    #expect(FileManager.default.fileExists(atPath: store.openPath))
    // Today stays (it is the limit); yesterday, an open day, goes.
    let forgotten = try store.update(keeping: 366, today: today) { _ = $0.forget(before: nil, today: today) }
    #expect(forgotten.value.days.keys.sorted() == [today])
    #expect(try store.load().value == forgotten.value)
    #expect(!FileManager.default.fileExists(atPath: store.openPath))
    // Nothing is recorded for a forgotten day again, through the open file either.
    _ = try store.update(days: [yesterday, today], keeping: 366, today: today, both)
    #expect(try store.load().value.days.keys.sorted() == [today])
  }
}
