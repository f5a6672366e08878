import JSON
public import Model
import Posix

/// The history on disk: `history.json` beside `ledger.json` in the state directory.
///
/// Written as the ledger is: a read–modify–write under the ledger's own
/// lock (`ledger.lock`, so a `report --forget` and the service's save never
/// cross), replacing the file atomically. A history that cannot be read is
/// renamed to `history.json.corrupt-<UTC time>` and a new one started, with a
/// ``HistoryWarning``: it never stops the service, and the ledger is not touched.
public final class HistoryStore: Sendable {
  /// The largest history file read: 366 days of 100 rules with a few apps each fit several times.
  public static let maximumFileSize = 64 << 20

  /// The directory holding `history.json` (the ledger's).
  public let directory: String
  /// Where the time in a damaged file's new name comes from.
  public let clock: WallClock
  /// How long to wait for another process's lock before giving up.
  public let lockTimeout: Duration

  public init(directory: String, clock: WallClock = .system, lockTimeout: Duration = .seconds(5)) {
    self.directory = directory
    self.clock = clock
    self.lockTimeout = lockTimeout
  }

  /// The history beside `ledger`.
  public convenience init(beside ledger: LedgerStore) {
    self.init(directory: ledger.directory, clock: ledger.clock, lockTimeout: ledger.lockTimeout)
  }

  /// `history.json` in ``directory``.
  public var path: String { directory + "/history.json" }

  /// The history as stored; empty when there is none, or when it is damaged
  /// (then it is left in place for the next write to move aside, and a warning says so).
  ///
  /// - Throws: ``LedgerError`` when the file cannot be read or is from a newer version.
  public func load() throws(LedgerError) -> HistoryResult {
    switch try readStored() {
    case .missing: return HistoryResult(History())
    case .valid(let history): return HistoryResult(history)
    case .damaged(let problem): return HistoryResult(History(), warnings: [.unreadable(path: path, problem: problem)])
    }
  }

  /// The days of `range` alone, as ``load()`` reads them, parsing only their
  /// lines of the file (the whole file when it is laid out otherwise).
  public func load(only range: ClosedRange<LocalDay>) throws(LedgerError) -> HistoryResult {
    let bytes: [UInt8]?
    do {
      bytes = try FileSystem.readFileIfPresent(path, limit: HistoryStore.maximumFileSize)
    } catch {
      // What the whole read says of a file it cannot read.
      return try load()
    }
    guard let bytes else { return HistoryResult(History()) }
    if let history = History(fileBytes: bytes, only: range) { return HistoryResult(history) }
    var whole = try load()
    let kept = whole.value.days.filter { range.contains($0.key) }
    whole.value = History(days: kept, forgottenBefore: whole.value.forgottenBefore)
    return whole
  }

  /// The report of `from` to `to` (``HistoryReport``), as ``reportTable(ledger:rules:from:to:rule:)`` reads it.
  public func report(
    ledger: Ledger, rules: RuleSet, from: LocalDay, to: LocalDay, rule: String? = nil
  ) throws(LedgerError) -> (report: HistoryReport, warnings: [HistoryWarning]) {
    let read = try reportTable(ledger: ledger, rules: rules, from: from, to: to, rule: rule)
    return (HistoryReport(read.table), read.warnings)
  }

  /// The figures of the report of `from` to `to` (``HistoryReport/Table``),
  /// reading the file's line of each day (of the range and of the period
  /// before it, for the change) straight into them: no ``History`` is
  /// built, the rules not shown are read and dropped. A file laid out
  /// otherwise, a line that does not read, or a date twice is read as
  /// ``load(only:)`` reads it, with the same warnings.
  public func reportTable(
    ledger: Ledger, rules: RuleSet, from: LocalDay, to: LocalDay, rule: String? = nil
  ) throws(LedgerError) -> (table: HistoryReport.Table, warnings: [HistoryWarning]) {
    let before = from.adding(days: -(from.days(to: to) + 1)) ?? from
    // Read once into memory faulted in one go: a week's report parses a few lines, a year's all of them once.
    let read = try? FileSystem.withFileBytesIfPresent(path, limit: HistoryStore.maximumFileSize) {
      bytes -> HistoryReport.Table? in
      guard let file = History.dayLines(in: bytes) else { return nil }
      var lines: [LocalDay: Range<Int>] = [:]
      var twice = false
      // The first day of the whole file: the days before it are before anything was recorded.
      var first: LocalDay?
      for (day, line) in file.lines {
        if first.map({ day < $0 }) ?? true { first = day }
        guard day >= before && day <= to else { continue }
        twice = twice || lines.updateValue(line, forKey: day) != nil
      }
      if twice { return nil }
      var reader = HistoryLine.ReportReader()
      return HistoryReport.Table(
        rules: rules, rule: rule, from: from, to: to, forgottenBefore: file.forgottenBefore, firstStored: first,
        ledger: ledger,
        stored: { day, stored in
          guard let line = lines[day] else { return true }
          return reader.read(UnsafeBufferPointer(rebasing: bytes[line]), day: day, into: &stored)
        })
    }
    if let table = read ?? nil { return (table, []) }
    // Damaged, laid out otherwise, or missing: as the whole read judges it (whole, for its first day).
    let loaded = try load()
    let table = HistoryReport.Table(
      history: loaded.value, ledger: ledger, rules: rules, from: from, to: to, rule: rule)
    return (table, loaded.warnings)
  }

  /// Reads, changes and writes the history under the lock; days older than
  /// `keptDays` before `today` are dropped on the way. A damaged file is moved aside first.
  ///
  /// - Returns: The history as written, with what the caller should tell the user.
  /// - Throws: ``LedgerError``; the stored file is left as it was.
  public func update(
    keeping keptDays: Int, today: LocalDay, _ change: (inout History) -> Void
  ) throws(LedgerError) -> HistoryResult {
    try withLock { () throws(LedgerError) in
      FileSystem.removeLeftoverTemporaryFiles(of: path)
      var warnings: [HistoryWarning] = []
      var history = History()
      switch try readStored() {
      case .missing: break
      case .valid(let stored): history = stored
      case .damaged(let problem):
        warnings.append(.movedAside(path: path, keptAt: try moveAside(), problem: problem))
      }
      let before = history
      change(&history)
      history.forgetOldDays(keeping: keptDays, today: today)
      if history != before || !warnings.isEmpty { try save(history) }
      return HistoryResult(history, warnings: warnings)
    }
  }

  /// Changes the days of `touched` alone, as ``update(keeping:today:_:)``
  /// changes them: `change` is given a history of those days, and the file
  /// is written again with the other days' lines copied, not read
  /// (``History/changingDays(_:inFile:keeps:_:)``), so that a save costs the
  /// same with a year of days as with none. A file laid out otherwise, a day
  /// that does not read, a damaged or a missing file take the whole way.
  ///
  /// - Returns: What the caller should tell the user.
  /// - Throws: ``LedgerError``; the stored file is left as it was.
  public func update(
    days touched: Set<LocalDay>, keeping keptDays: Int, today: LocalDay, _ change: (inout History) -> Void
  ) throws(LedgerError) -> [HistoryWarning] {
    let done = try withLock { () throws(LedgerError) -> Bool in
      FileSystem.removeLeftoverTemporaryFiles(of: path)
      guard case .bytes(let bytes) = try StoredBytes.read(path, limit: HistoryStore.maximumFileSize),
        let changed = History.changingDays(
          touched, inFile: bytes, keeps: { History.keeps($0, keeping: keptDays, today: today) }, change)
      else { return false }
      if let file = changed.file { try replace(with: file) }
      return true
    }
    if done { return [] }
    return try update(keeping: keptDays, today: today, change).warnings
  }

  private enum Stored {
    case missing
    case valid(History)
    case damaged(String)
  }

  private func readStored() throws(LedgerError) -> Stored {
    let bytes: [UInt8]
    switch try StoredBytes.read(path, limit: HistoryStore.maximumFileSize) {
    case .missing: return .missing
    case .damaged(let problem): return .damaged(problem)
    case .bytes(let read): bytes = read
    }
    // The store's own layout, read a line at a time (the same figures, a
    // fraction of the time); any other is read whole, and judged so.
    if let history = History(fileBytes: bytes, where: { _ in true }) { return .valid(history) }
    let json: JSONValue
    do {
      json = try JSONValue(parsing: bytes)
    } catch {
      return .damaged("not JSON: \(error)")
    }
    do {
      return .valid(try History(json: json))
    } catch  where error.isNewerVersion {
      throw .newerVersion(path: path, problem: error.message)
    } catch {
      return .damaged(error.message)
    }
  }

  /// The ledger's lock, which the history shares.
  private func withLock<Result>(_ body: () throws(LedgerError) -> Result) throws(LedgerError) -> Result {
    try LedgerStore(directory: directory, clock: clock, lockTimeout: lockTimeout).withLock(body)
  }

  /// Renames the damaged history to a name no earlier damaged one has.
  private func moveAside() throws(LedgerError) -> String {
    try LedgerStore.moveAside(path, at: clock.now())
  }

  private func save(_ history: History) throws(LedgerError) {
    try replace(with: history.fileBytes)
  }

  private func replace(with bytes: [UInt8]) throws(LedgerError) {
    do {
      try FileSystem.replaceAtomically(path, with: bytes)
    } catch {
      throw LedgerError(error, replacing: path)
    }
  }
}

/// A history read or written, with what the caller should tell the user.
public struct HistoryResult: Sendable {
  public var value: History
  public var warnings: [HistoryWarning]

  public init(_ value: History, warnings: [HistoryWarning] = []) {
    self.value = value
    self.warnings = warnings
  }
}

/// Something about the history file the caller should tell the user, though the operation went on.
public enum HistoryWarning: Hashable, Sendable, CustomStringConvertible {
  /// The history could not be read; it was renamed to `keptAt` and a new one started. The ledger is untouched.
  case movedAside(path: String, keptAt: String, problem: String)
  /// The history could not be read and was left as it is (a reader does not move it); it counts as empty.
  case unreadable(path: String, problem: String)

  public var code: String {
    switch self {
    case .movedAside: "history-corrupt"
    case .unreadable: "history-unreadable"
    }
  }

  public var description: String {
    switch self {
    case .movedAside(let path, let keptAt, let problem):
      "\(path) could not be read (\(problem)); it was kept as \(keptAt) and a new history was started; "
        + "the ledger is not affected"
    case .unreadable(let path, let problem):
      "\(path) could not be read (\(problem)); the service moves it aside at its next save"
    }
  }
}
