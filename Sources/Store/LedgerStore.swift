public import JSON
public import Model
public import Posix

/// The ledger on disk: `ledger.json` in the state directory, shared by every
/// ShieldBridge process of the user.
///
/// Every change is a read–modify–write under an exclusive `flock` on
/// `ledger.lock`, and the new file replaces the old one atomically (temporary
/// file, `fsync`, rename, `fsync` of the directory). So two processes that
/// record a grant at the same moment both keep theirs, a crash mid-write leaves
/// the old ledger in place, and a reader never sees half a file.
///
/// A ledger that cannot be read is never silently lost: it is renamed to
/// `ledger.json.corrupt-<UTC time>`, a new one is started, and the operation
/// returns a ``LedgerWarning`` for the caller to show. A ledger written by a
/// newer version is left alone and reported as an error instead.
public final class LedgerStore: Sendable {
  /// The largest ledger file read; a bigger one is treated as damaged.
  public static let maximumFileSize = 1 << 20

  /// The directory holding `ledger.json` and `ledger.lock`.
  public let directory: String
  /// Where "now" comes from, to decide the local day of a grant.
  public let clock: WallClock
  /// When a local day begins (`dayStartsAt` in `config.json`); midnight unless set.
  public let dayStart: ClockTime
  /// How long to wait for another process's lock before giving up.
  public let lockTimeout: Duration

  /// A store in `directory`, which is created when the first grant is recorded.
  public init(
    directory: String, clock: WallClock = .system, lockTimeout: Duration = .seconds(5), dayStart: ClockTime = .midnight
  ) {
    self.directory = directory
    self.clock = clock
    self.dayStart = dayStart
    self.lockTimeout = lockTimeout
  }

  /// The store in `$XDG_STATE_HOME/shieldbridge` (default `~/.local/state/shieldbridge`).
  ///
  /// - Throws: ``LedgerError/noStateDirectory`` when neither variable is an absolute path.
  public static func standard(
    environment: [String: String] = Environment.all,
    clock: WallClock = .system, dayStart: ClockTime = .midnight
  ) throws(LedgerError) -> LedgerStore {
    guard let directory = BaseDirectory.state.shieldBridgePath(environment: environment) else {
      throw .noStateDirectory
    }
    return LedgerStore(directory: directory, clock: clock, dayStart: dayStart)
  }

  /// `ledger.json` in ``directory``.
  public var path: String { directory + "/ledger.json" }

  /// The lock file every writer (and the write check) takes first.
  var lockPath: String { directory + "/ledger.lock" }

  /// Today, as the meter has it: ``today(in:)`` of the stored ledger (the
  /// wall clock's day when it cannot be read).
  public var today: LocalDay {
    today(in: (try? load().value) ?? Ledger())
  }

  /// ``today`` from the file as it is, for a reader that reports nothing: a
  /// damaged file counts as none and stays where it is, for the next
  /// ``load()`` to move aside and report.
  public var todayLeavingTheFile: LocalDay {
    today(in: storedLedgerLeavingTheFile ?? Ledger())
  }

  /// The ledger as stored, for a reader that reports nothing: empty when
  /// there is none, `nil` when it cannot be read (a damaged file stays where
  /// it is, for the next ``load()`` to move aside and report).
  public var storedLedgerLeavingTheFile: Ledger? {
    switch try? readStoredLedger() {
    case .valid(let ledger, _)?: ledger
    case .missing?: Ledger()
    case .damaged?, nil: nil
    }
  }

  /// Today by the rule the meter follows: the day the ledger's
  /// ``Ledger/dayAnchor`` gives for the clock's "now" when the anchor is of
  /// this boot (``DayAnchor/day(wall:boot:)``), else the local day of the
  /// wall clock (after a reboot, or before a meter ever saved).
  ///
  /// So a grant is recorded on the day the meter counts, with the clock set
  /// forward or the zone changed. The boot time is checked against the
  /// kernel's here (``WallClock/recheckBoot``): a process whose clocks are
  /// faked (libfaketime) reaches the meter's day too.
  public func today(in ledger: Ledger) -> LocalDay {
    let now = clock.now()
    guard let anchor = ledger.dayAnchor, let bootID = clock.bootID(), anchor.bootID == bootID else {
      return LocalDay.containing(now, dayStart: dayStart, in: .system)
    }
    let boot = clock.recheckBoot(clock.boot())
    guard anchor.boot <= boot else { return LocalDay.containing(now, dayStart: dayStart, in: .system) }
    return anchor.day(wall: now, boot: boot, dayStart: dayStart, in: .system)
  }

  /// The ledger as stored; empty when there is none yet.
  ///
  /// Reading takes no lock (writers replace the file atomically) unless the
  /// file is damaged and has to be moved aside.
  ///
  /// - Throws: ``LedgerError`` when the file cannot be read or is from a newer version.
  public func load() throws(LedgerError) -> LedgerResult<Ledger> {
    switch try readStoredLedger() {
    case .missing: return LedgerResult(Ledger())
    case .valid(let ledger, let warnings): return LedgerResult(ledger, warnings: warnings)
    case .damaged:
      return try withLock { () throws(LedgerError) in try loadForUpdate() }
    }
  }

  /// The ledger the meter of `rules` starts from: ``load(for:)`` (``load()``
  /// without rules), and a ``LedgerWarning/usageOnLaterDays(days:today:)``
  /// when it holds use on days after today (the clock was set back; that use
  /// stays but does not count today).
  public func loadForMeter(rules: RuleSet? = nil) throws(LedgerError) -> LedgerResult<Ledger> {
    var loaded: LedgerResult<Ledger>
    if let rules { loaded = try load(for: rules) } else { loaded = try load() }
    let today = today(in: loaded.value)
    let later = loaded.value.daysWithUsage(after: today)
    if !later.isEmpty { loaded.warnings.append(.usageOnLaterDays(days: later, today: today)) }
    return loaded
  }

  /// Where `rules` stand today; grants above a rule's maximum count as the
  /// maximum, with a ``LedgerWarning/grantsAboveMaximum(day:rule:found:maximum:)``.
  public func status(of rules: RuleSet) throws(LedgerError) -> LedgerResult<DayStatus> {
    let loaded = try load(for: rules)
    return LedgerResult(loaded.value.status(of: rules, on: today(in: loaded.value)), warnings: loaded.warnings)
  }

  /// Where `rule` stands today, as ``status(of:)-(RuleSet)`` says it.
  public func status(of rule: Rule) throws(LedgerError) -> LedgerResult<RuleStatus> {
    let loaded = try load(for: RuleSet([rule]))
    let day = today(in: loaded.value)
    let grants = loaded.value.grants(for: rule.name, on: day)
    return LedgerResult(RuleStatus(rule: rule, day: day, grantsToday: grants), warnings: loaded.warnings)
  }

  /// ``load()``, with a warning for each of `rules` that holds more grants
  /// today than its `maxGrantsPerDay` (only the maximum counts, see ``Rule/countedGrants(_:)``).
  public func load(for rules: RuleSet) throws(LedgerError) -> LedgerResult<Ledger> {
    var loaded = try load()
    loaded.warnings += loaded.value.grantsAboveMaximum(of: rules, on: today(in: loaded.value))
    return loaded
  }

  /// Records one solved puzzle for `rule` on today's local day.
  ///
  /// The check (``Ledger/grantStanding(of:on:)``: `maxGrantsPerDay`, and for
  /// a metered rule the meter's word that it is at its limit) and the write
  /// happen under the lock, so two processes cannot both take the last
  /// grant, nor two grants one limit. Days older than ``Ledger/keptDays``
  /// are dropped on the way. A puzzle records through ``PuzzleRun``.
  ///
  /// - Returns: The day the grant was recorded on and the rule's status after it.
  /// - Throws: ``LedgerError/inDowntime(rule:until:)`` during the rule's
  ///   downtime, ``LedgerError/grantsUsedUp(rule:maximum:day:)`` when today's
  ///   grants are used up, ``LedgerError/notAtLimit(rule:grantsToday:day:)``
  ///   when a meter counts the rule and it is not at its limit (nothing is
  ///   written either way), or a state error.
  public func recordGrant(for rule: Rule) throws(LedgerError) -> LedgerResult<RecordedGrant> {
    let now = clock.now()
    if let end = Downtime.until(rule.downtime, at: now, dayStart: dayStart, in: .system) {
      throw .inDowntime(rule: rule.name, until: Downtime.endText(end, from: now, in: .system))
    }
    return try withLock { () throws(LedgerError) in
      let loaded = try loadForUpdate()
      var ledger = loaded.value
      let day = today(in: ledger)
      let grants: Int
      do throws(GrantRefusal) { grants = try ledger.recordGrant(for: rule, on: day) } catch { throw LedgerError(error) }
      ledger.forgetOldDays(before: day)
      try save(ledger)
      return LedgerResult(
        RecordedGrant(day: day, status: RuleStatus(rule: rule, day: day, grantsToday: grants)),
        warnings: loaded.warnings)
    }
  }

  /// Records the seconds the rules' apps were used on `day`, as the meter counted them.
  ///
  /// Under the same lock and with the same atomic write as a grant; for each
  /// rule the larger of the stored and the given count is kept, so two
  /// writers, or a service restarted from an older file, never lose use.
  /// Days older than ``Ledger/keptDays`` are dropped on the way. When nothing
  /// would change, nothing is written.
  ///
  /// - Returns: The ledger as it stands after the write, with the grants and
  ///   use other processes recorded.
  /// - Throws: A state error; the stored ledger is left as it was.
  public func recordUsage(_ seconds: [String: Int], on day: LocalDay) throws(LedgerError)
    -> LedgerResult<Ledger>
  {
    try recordUsage([day: seconds])
  }

  /// Records the seconds used on several days at once (the day before
  /// midnight and the day after it), as ``recordUsage(_:on:)`` does for one.
  public func recordUsage(_ secondsByDay: [LocalDay: [String: Int]]) throws(LedgerError)
    -> LedgerResult<Ledger>
  {
    try update { ledger in
      for (day, seconds) in secondsByDay { ledger.recordUsedSeconds(seconds, on: day) }
    }
  }

  /// The meter's one write: the seconds used, as ``recordUsage(_:)`` records
  /// them, the grants it knows per day (``Ledger/recordKnownGrants(_:)``: the
  /// larger of stored and known), and on `day` the rules it counts and the
  /// rules that reached their limit, with the grants they had then.
  ///
  /// The meter is the authority on reaching a limit; this is how the
  /// processes that grant (`shieldbridge puzzle`, the browser's native host)
  /// learn it (see ``Ledger/grantStanding(of:on:)``). The meter writes
  /// `metered` when it starts, when its rules change and at every save, its
  /// day's `anchor` (the one ``today(in:)`` reads) with each, and
  /// `limitReached[rule] = grantsToday` in the save at the limit. Both only
  /// grow during a day (``Ledger/recordMeter(metered:limitReached:on:)``).
  /// With `rulesInForce` (the rules in force in `config.json`'s form, an
  /// empty array for the built-in rule), they are kept as `day`'s in the
  /// same write (``Ledger/rulesInForce(on:)``), so that the rules and the
  /// counts carried to them are stored together. Under the same lock and
  /// with the same atomic write as a grant; nothing is written when nothing
  /// would change.
  ///
  /// - Returns: The ledger as it stands after the write, with the grants and
  ///   use other processes recorded.
  /// - Throws: A state error; the stored ledger is left as it was.
  public func recordMeter(
    usage: [LocalDay: [String: Int]], replacing saved: [LocalDay: [String: Int]] = [:],
    grants: [LocalDay: [String: Int]] = [:], metered: Set<String>,
    limitReached: [String: Int], on day: LocalDay, anchor: DayAnchor? = nil, rulesInForce: JSONValue? = nil
  ) throws(LedgerError) -> LedgerResult<Ledger> {
    try update { ledger in
      if let rulesInForce { ledger.setRulesInForce(rulesInForce, on: day) }
      if let anchor { ledger.dayAnchor = anchor }
      for (day, seconds) in usage { ledger.recordUsedSeconds(seconds, on: day, replacing: saved[day] ?? [:]) }
      ledger.recordKnownGrants(grants)
      ledger.recordMeter(metered: metered, limitReached: limitReached, on: day)
    }
  }

  /// Changes the ledger under the lock and writes it when it changed.
  func update(_ change: (inout Ledger) -> Void) throws(LedgerError) -> LedgerResult<Ledger> {
    try withLock { () throws(LedgerError) in
      let loaded = try loadForUpdate()
      var ledger = loaded.value
      change(&ledger)
      ledger.forgetOldDays(before: today(in: ledger))
      // The clamped counts of a ledger read with warnings are written even when nothing else changed.
      if ledger != loaded.value || !loaded.warnings.isEmpty { try save(ledger) }
      return LedgerResult(ledger, warnings: loaded.warnings)
    }
  }

  /// Runs `body` under the lock every writer of the state folder takes (the ledger's, the history's).
  func withLock<Result>(_ body: () throws(LedgerError) -> Result) throws(LedgerError)
    -> Result
  {
    do {
      try FileSystem.makeDirectories(directory)
    } catch {
      throw LedgerError(error)
    }
    let lockPath = self.lockPath
    return try FileLock.withLock(
      path: lockPath, timeout: lockTimeout, lockFailure: { LedgerError($0, path: lockPath) }, body)
  }

  /// Reads the ledger while holding the lock, replacing a damaged one.
  private func loadForUpdate() throws(LedgerError) -> LedgerResult<Ledger> {
    FileSystem.removeLeftoverTemporaryFiles(of: path)
    switch try readStoredLedger() {
    case .missing: return LedgerResult(Ledger())
    case .valid(let ledger, let warnings): return LedgerResult(ledger, warnings: warnings)
    case .damaged(let problem):
      let keptAt = try moveAside()
      try save(Ledger())
      return LedgerResult(
        Ledger(), warnings: [.corruptLedgerMovedAside(path: path, keptAt: keptAt, problem: problem)]
      )
    }
  }

  private enum Stored {
    case missing
    case valid(Ledger, [LedgerWarning])
    case damaged(String)
  }

  private func readStoredLedger() throws(LedgerError) -> Stored {
    let bytes: [UInt8]
    // What reading a directory has always said; a FIFO or a device is refused, unread, as what it is.
    let directory = LedgerError.io(operation: "read", path: path, errno: Errno.isDirectory.rawValue)
    switch try StoredBytes.read(path, limit: LedgerStore.maximumFileSize, directory: directory) {
    case .missing: return .missing
    case .damaged(let problem): return .damaged(problem)
    case .bytes(let read): bytes = read
    }
    let json: JSONValue
    do {
      json = try JSONValue(parsing: bytes)
    } catch {
      return .damaged("not JSON: \(error)")
    }
    do {
      var warnings: [LedgerWarning] = []
      let ledger = try Ledger(json: json, warnings: &warnings)
      return .valid(ledger, warnings)
    } catch  where error.isNewerVersion {
      throw .newerVersion(path: path, problem: error.message)
    } catch {
      return .damaged(error.message)
    }
  }

  /// Renames the damaged ledger to a name no earlier damaged ledger has.
  private func moveAside() throws(LedgerError) -> String {
    try Self.moveAside(path, at: clock.now())
  }

  /// Renames the damaged file at `path` (the ledger, the history) to
  /// `PATH.corrupt-<UTC time>`, a name no earlier damaged one has.
  static func moveAside(_ path: String, at now: WallTime) throws(LedgerError) -> String {
    let base = "\(path).corrupt-\(LedgerStore.timestamp(now))"
    var target = base
    var attempt = 1
    while FileSystem.exists(target) {
      attempt += 1
      target = "\(base)-\(attempt)"
    }
    do {
      try FileSystem.rename(path, to: target)
    } catch {
      throw .io(operation: "rename to \(target)", path: path, errno: error.rawValue)
    }
    return target
  }

  private func save(_ ledger: Ledger) throws(LedgerError) {
    var bytes: [UInt8] = []
    ledger.json.write(to: &bytes)
    bytes.append(0x0A)
    do {
      try FileSystem.replaceAtomically(path, with: bytes)
    } catch {
      throw LedgerError(error, replacing: path)
    }
  }

  /// `20261129T101503Z`: UTC, sortable, safe in a file name.
  static func timestamp(_ time: WallTime) -> String {
    guard let fields = time.utc else { return "unknown-time" }
    return fields.compactStamp + "Z"
  }
}

/// A value read from the ledger, with anything the caller should tell the user.
public struct LedgerResult<Value: Sendable>: Sendable {
  public var value: Value
  /// Problems that were handled (a damaged ledger moved aside); print them.
  public var warnings: [LedgerWarning]

  public init(_ value: Value, warnings: [LedgerWarning] = []) {
    self.value = value
    self.warnings = warnings
  }
}

/// A grant just recorded: the local day it belongs to and the rule's standing after it.
public struct RecordedGrant: Hashable, Sendable {
  public var day: LocalDay
  public var status: RuleStatus
}
