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

  @Test("The store changes today alone in a file of a year, and takes the whole way for a damaged one")
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
    #expect(try Array(String(contentsOfFile: store.path, encoding: .utf8).utf8) == expected.fileBytes)

    try "not a history".write(toFile: store.path, atomically: true, encoding: .utf8)
    let warnings = try store.update(days: [today], keeping: 366, today: today) {
      $0.record(entry, for: "social", on: today)
    }
    #expect(warnings.map(\.code) == ["history-corrupt"])
    #expect(try store.load().value.days.keys.sorted() == [today])
  }
}
