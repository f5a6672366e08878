import JSON
public import Model
import Posix

/// The history on disk: `history.json` beside `ledger.json` in the state
/// directory, and `history-open.json` beside it, holding the days the
/// service still saves (today, and the day before while the ledger holds it).
///
/// A save of those days (``update(days:keeping:today:_:)``) reads and
/// replaces only the small open file, so it costs the same with a year of
/// days as with none; once a day that is no longer saved is in it (a new day
/// began), its days are folded into `history.json` and the open file removed.
/// A day in both files is read from the open one, which is never older: so
/// each step is safe to stop after, and a reader sees one history.
///
/// Written as the ledger is: a read–modify–write under the ledger's own
/// lock (`ledger.lock`, so a `report --forget` and the service's save never
/// cross), replacing each file atomically. A history that cannot be read is
/// renamed to `history.json.corrupt-<UTC time>` (`history-open.json.corrupt-…`)
/// and a new one started, with a ``HistoryWarning``: it never stops the
/// service, and the ledger is not touched.
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
  /// `history-open.json` in ``directory``: the days still saved, newer than their lines in ``path``.
  public var openPath: String { directory + "/history-open.json" }

  /// The history as stored; empty when there is none, or when it is damaged
  /// (then it is left in place for the next write to move aside, and a warning says so).
  ///
  /// - Throws: ``LedgerError`` when the file cannot be read or is from a newer version.
  public func load() throws(LedgerError) -> HistoryResult {
    // The open file first: a save that folds it in between leaves its days in history.json.
    let open = try readOpen()
    let result =
      switch try readStored() {
      case .missing: HistoryResult(History())
      case .valid(let history): HistoryResult(history)
      case .damaged(let problem): HistoryResult(History(), warnings: [.unreadable(path: path, problem: problem)])
      }
    return withOpenDays(open, on: result, where: { _ in true })
  }

  /// `result` with the open file's days `wanted` accepts in place of its own, and a warning when that file cannot be read.
  private func withOpenDays(_ open: Open, on result: HistoryResult, where wanted: (LocalDay) -> Bool) -> HistoryResult {
    switch open {
    case .missing:
      return result
    case .damaged(let problem):
      return HistoryResult(result.value, warnings: result.warnings + [.unreadable(path: openPath, problem: problem)])
    case .days(let open, _):
      return HistoryResult(Self.overlaid(result.value, with: open, where: wanted), warnings: result.warnings)
    }
  }

  /// `history` with the days of `open` that `wanted` accepts in place of its own.
  private static func overlaid(_ history: History, with open: History, where wanted: (LocalDay) -> Bool) -> History {
    let forgottenBefore = history.forgottenBefore ?? open.forgottenBefore
    let newer = open.days.filter { entry in
      wanted(entry.key) && forgottenBefore.map { entry.key >= $0 } ?? true
    }
    if newer.isEmpty && forgottenBefore == history.forgottenBefore { return history }
    return History(days: history.days.merging(newer) { $1 }, forgottenBefore: forgottenBefore)
  }

  /// The days of `range` alone, as ``load()`` reads them, parsing only their
  /// lines of the file (the whole file when it is laid out otherwise).
  public func load(only range: ClosedRange<LocalDay>) throws(LedgerError) -> HistoryResult {
    let open = try readOpen()
    let bytes: [UInt8]?
    do {
      bytes = try FileSystem.readFileIfPresent(path, limit: HistoryStore.maximumFileSize)
    } catch {
      // What the whole read says of a file it cannot read.
      return try load()
    }
    guard let bytes else { return withOpenDays(open, on: HistoryResult(History()), where: range.contains) }
    if let history = History(fileBytes: bytes, only: range) {
      return withOpenDays(open, on: HistoryResult(history), where: range.contains)
    }
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
    // The open days' lines are read in place of the file's (a damaged open file takes the whole way).
    let open: (bytes: [UInt8], lines: [LocalDay: ArraySlice<UInt8>])?
    switch try readOpen() {
    case .missing: open = ([], [:])
    case .damaged: open = nil
    case .days(_, let bytes):
      var lines: [LocalDay: ArraySlice<UInt8>] = [:]
      for (day, line) in History.dayLines(of: bytes)?.lines ?? [] { lines[day] = line }
      open = (bytes, lines)
    }
    // Read once into memory faulted in one go: a week's report parses a few lines, a year's all of them once.
    let read = try? FileSystem.withFileBytesIfPresent(path, limit: HistoryStore.maximumFileSize) {
      bytes -> HistoryReport.Table? in
      guard let open, let file = History.dayLines(in: bytes) else { return nil }
      var lines: [LocalDay: Range<Int>] = [:]
      var twice = false
      // The first day of the whole history: the days before it are before anything was recorded.
      var first = open.lines.keys.min()
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
          if let line = open.lines[day] {
            return line.withUnsafeBufferPointer { reader.read($0, day: day, into: &stored) }
          }
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
  /// The open days are written into `history.json` (``path``), and the open file removed.
  ///
  /// - Returns: The history as written, with what the caller should tell the user.
  /// - Throws: ``LedgerError``; the stored file is left as it was.
  public func update(
    keeping keptDays: Int, today: LocalDay, _ change: (inout History) -> Void
  ) throws(LedgerError) -> HistoryResult {
    try withLock { () throws(LedgerError) in
      removeLeftovers()
      var warnings: [HistoryWarning] = []
      var open: History?
      switch try readOpen() {
      case .missing: break
      case .days(let days, _): open = days
      case .damaged(let problem):
        warnings.append(.movedAside(path: openPath, keptAt: try moveAside(openPath), problem: problem))
      }
      var history = History()
      switch try readStored() {
      case .missing: break
      case .valid(let stored): history = stored
      case .damaged(let problem):
        warnings.append(.movedAside(path: path, keptAt: try moveAside(path), problem: problem))
      }
      if let open { history = Self.overlaid(history, with: open, where: { _ in true }) }
      let before = history
      change(&history)
      history.forgetOldDays(keeping: keptDays, today: today)
      guard history != before || !warnings.isEmpty || open != nil else {
        return HistoryResult(history, warnings: warnings)
      }
      if let open, open.days.contains(where: { history.days[$0.key] != $0.value }) {
        // The change reaches the open days: they go into history.json as they were
        // first, so that an open file left by a stop between the writes says nothing
        // the change undid.
        try save(before)
        try removeOpen()
      }
      try save(history)
      if open != nil { try removeOpen() }
      return HistoryResult(history, warnings: warnings)
    }
  }

  /// Changes the days of `touched` alone, as ``update(keeping:today:_:)``
  /// changes them: `change` is given a history of those days, and only the
  /// open file (``openPath``) is written, so that a save costs the same with
  /// a year of days as with none. `history.json` is read only for a touched
  /// day the open file does not hold yet (once a day), and written only when
  /// the open file holds a day not touched (a day that closed): its days are
  /// folded in first (``History/changingDays(_:inFile:keeps:_:)``: the other
  /// days' lines are copied, not read). A damaged file, a change that
  /// forgets, and a file laid out otherwise take the whole way.
  ///
  /// - Returns: What the caller should tell the user.
  /// - Throws: ``LedgerError``; the stored files are left as they were.
  public func update(
    days touched: Set<LocalDay>, keeping keptDays: Int, today: LocalDay, _ change: (inout History) -> Void
  ) throws(LedgerError) -> [HistoryWarning] {
    let keeps = { (day: LocalDay) in History.keeps(day, keeping: keptDays, today: today) }
    let done = try withLock { () throws(LedgerError) -> Bool in
      removeLeftovers()
      var open: History
      switch try readOpen() {
      case .missing: open = History()
      case .damaged: return false
      case .days(let days, _): open = days
      }
      if open.days.keys.contains(where: { !touched.contains($0) }) {
        // A day closed: its figures go into history.json, and the open file starts again.
        guard try fold(open, keeps: keeps) else { return false }
        open = History()
      }
      var forgottenBefore = open.forgottenBefore
      var days = open.days
      if open.days.isEmpty || touched.contains(where: { open.days[$0] == nil }) {
        // A day history.json may hold and the open file does not yet: read from there, with its forgotten date.
        switch try StoredBytes.read(path, limit: HistoryStore.maximumFileSize) {
        case .missing: break
        case .damaged: return false
        case .bytes(let bytes):
          guard let stored = History(fileBytes: bytes, where: { touched.contains($0) && open.days[$0] == nil })
          else { return false }
          forgottenBefore = stored.forgottenBefore
          days.merge(stored.days) { open, _ in open }
        }
      }
      let before = History(days: days, forgottenBefore: forgottenBefore)
      var history = before
      change(&history)
      // A change that forgets or drops a day takes the whole way.
      guard history.forgottenBefore == forgottenBefore, days.keys.allSatisfy({ history.days[$0] != nil }),
        history.days.keys.allSatisfy(touched.contains)
      else { return false }
      let kept = History(days: history.days.filter { keeps($0.key) }, forgottenBefore: forgottenBefore)
      if kept.days == open.days { return true }
      try replace(openPath, with: kept.fileBytes)
      return true
    }
    if done { return [] }
    return try update(keeping: keptDays, today: today, change).warnings
  }

  /// Writes the days of `open` into `history.json`, in place of their lines
  /// there, and removes the open file; `false` when `history.json` is
  /// damaged or laid out otherwise (the whole way then moves it aside).
  private func fold(_ open: History, keeps: (LocalDay) -> Bool) throws(LedgerError) -> Bool {
    switch try StoredBytes.read(path, limit: HistoryStore.maximumFileSize) {
    case .missing:
      try save(History(days: open.days.filter { keeps($0.key) }, forgottenBefore: open.forgottenBefore))
    case .damaged:
      return false
    case .bytes(let bytes):
      let folded = History.changingDays(Set(open.days.keys), inFile: bytes, keeps: keeps) { history in
        history = History(days: history.days.merging(open.days) { $1 }, forgottenBefore: history.forgottenBefore)
      }
      guard let folded else { return false }
      if let file = folded.file { try replace(path, with: file) }
    }
    try removeOpen()
    return true
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

  /// The open days' file as read: its days and its bytes, missing, or why it cannot be used.
  private enum Open {
    case missing
    case days(History, [UInt8])
    case damaged(String)
  }

  /// Reads ``openPath``: a file of the store's own layout (``History/fileBytes``), or damaged.
  private func readOpen() throws(LedgerError) -> Open {
    switch try StoredBytes.read(openPath, limit: HistoryStore.maximumFileSize) {
    case .missing: return .missing
    case .damaged(let problem): return .damaged(problem)
    case .bytes(let bytes):
      guard let days = History(fileBytes: bytes, where: { _ in true }) else {
        return .damaged("not a history as the store writes it")
      }
      return .days(days, bytes)
    }
  }

  /// The ledger's lock, which the history shares.
  private func withLock<Result>(_ body: () throws(LedgerError) -> Result) throws(LedgerError) -> Result {
    try LedgerStore(directory: directory, clock: clock, lockTimeout: lockTimeout).withLock(body)
  }

  /// Removes what a writer of either file left when it died; under the lock.
  private func removeLeftovers() {
    FileSystem.removeLeftoverTemporaryFiles(of: path, openPath)
  }

  /// Renames the damaged file at `damaged` to a name no earlier damaged one has.
  private func moveAside(_ damaged: String) throws(LedgerError) -> String {
    try LedgerStore.moveAside(damaged, at: clock.now())
  }

  private func save(_ history: History) throws(LedgerError) {
    try replace(path, with: history.fileBytes)
  }

  /// Removes the open file once its days are in `history.json`.
  private func removeOpen() throws(LedgerError) {
    do {
      try FileSystem.removeFile(openPath)
    } catch  where error == .noSuchFileOrDirectory {
      return
    } catch {
      throw .io(operation: "unlink", path: openPath, errno: error.rawValue)
    }
  }

  private func replace(_ file: String, with bytes: [UInt8]) throws(LedgerError) {
    do {
      try FileSystem.replaceAtomically(file, with: bytes)
    } catch {
      throw LedgerError(error, replacing: file)
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
