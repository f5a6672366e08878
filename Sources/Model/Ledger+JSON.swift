public import JSON
import Time

extension Ledger {
  /// The version of the file format written by ``json``.
  ///
  /// Still 1 with the seconds used and with the meter's `metered` and
  /// `limitReached`: every reader of version 1 ignores the keys it does not
  /// know, so an older ShieldBridge still reads the file (and records its
  /// grants and use in it). Raising the version would make older readers
  /// refuse the whole ledger as a newer one. What an older writer costs is
  /// the meter's two keys, which it does not write back: until the meter's
  /// next save (at most 30 s later by default) a metered rule
  /// is treated as unmetered.
  public static let formatVersion: Int64 = 1

  /// The ledger as stored (and, when a meter wrote one, its `dayAnchor`, see ``DayAnchor/json``):
  /// `{"version":1,"days":[{"date":"2026-11-29","grants":{"social":1},"usedSeconds":{"social":190},`
  /// `"metered":["social","video"],"limitReached":{"social":0},"tasksAsked":{"social":2},"backedOut":{"social":1},`
  /// `"rulesInForce":[{"name":"social",…}]}]}`,
  /// days and rule names sorted so that equal ledgers are equal files.
  ///
  /// Every day has `grants` (an empty object on a day with use alone, since
  /// earlier readers require it); `usedSeconds` appears on days with some
  /// use, `metered` (the rules a meter counted, an array of names) and
  /// `limitReached` (rule → the grants it had when the meter saw it reach its
  /// limit) on days a meter ran, `tasksAsked` and `backedOut` (rule → the
  /// tasks asked for more time, the way outs taken) on days with some, and
  /// `tasksAskedAt` (rule → its grants when its last request was counted:
  /// the shield it was for, ``recordTaskAsked(for:on:)``) beside them;
  /// `rulesInForce` (the rules in force, as `config.json` writes them) on
  /// days the service kept them.
  public var json: JSONValue {
    let sortedDays = allDays.map { day -> JSONValue in
      let grants = (days[day] ?? [:]).sorted { $0.key < $1.key }.filter { $0.value > 0 }
      var members: [(String, JSONValue)] = [
        ("date", .string(day.description)),
        ("grants", .object(grants.map { ($0.key, .int($0.value)) })),
      ]
      let used = (usedSecondsByDay[day] ?? [:]).sorted { $0.key < $1.key }.filter { $0.value > 0 }
      if !used.isEmpty {
        members.append(("usedSeconds", .object(used.map { ($0.key, .int($0.value)) })))
      }
      if let metered = meteredByDay[day], !metered.isEmpty {
        members.append(("metered", .array(metered.sorted().map { .string($0) })))
      }
      if let reached = limitReachedByDay[day], !reached.isEmpty {
        members.append(("limitReached", .object(reached.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) })))
      }
      for (key, counts) in [("tasksAsked", tasksAskedByDay[day]), ("backedOut", backedOutByDay[day])] {
        let kept = (counts ?? [:]).sorted { $0.key < $1.key }.filter { $0.value > 0 }
        if !kept.isEmpty { members.append((key, .object(kept.map { ($0.key, .int($0.value)) }))) }
      }
      // The grant count of each rule's last counted request, 0 included.
      if let askedAt = tasksAskedAtByDay[day], !askedAt.isEmpty {
        members.append(("tasksAskedAt", .object(askedAt.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) })))
      }
      if let rules = rulesInForceByDay[day] { members.append(("rulesInForce", rules)) }
      return .object(members)
    }
    var members: [(String, JSONValue)] = [("version", .integer(Ledger.formatVersion)), ("days", .array(sortedDays))]
    if let dayAnchor { members.append(("dayAnchor", dayAnchor.json)) }
    return .object(members)
  }

  /// Reads a ledger from its stored form.
  ///
  /// Unknown keys are ignored, so a later version may add some. Seconds used
  /// that no day can hold are kept within range without a word; read with
  /// ``init(json:warnings:)`` to hear about them.
  ///
  /// - Throws: ``LedgerFormatError`` naming what is wrong; ``LedgerFormatError/isNewerVersion``
  ///   tells a file from a newer ShieldBridge (to be left alone) from a corrupt one.
  public init(json: JSONValue) throws(LedgerFormatError) {
    var ignored: [LedgerWarning] = []
    try self.init(json: json, warnings: &ignored)
  }

  /// Reads a ledger from its stored form, adding to `warnings` what was read leniently.
  ///
  /// The grants are read strictly (a wrong count makes the ledger damaged), the
  /// seconds used forgivingly: a count below zero is read as 0, one above
  /// ``maximumUsedSeconds`` as that, and a value that is not a number as no
  /// use, each with a ``LedgerWarning/usageOutOfRange(day:rule:found:kept:)``.
  /// Use is something the meter measures again; a bad count must not cost the
  /// day's grants, as calling the whole file damaged would. The meter's
  /// `metered` and `limitReached` are read strictly, like the grants: they
  /// decide whether a grant may be taken.
  ///
  /// - Throws: ``LedgerFormatError`` as ``init(json:)`` does.
  public init(json: JSONValue, warnings: inout [LedgerWarning]) throws(LedgerFormatError) {
    guard json.objectValue != nil else { throw LedgerFormatError("expected an object") }
    guard let version = json["version"]?.integerValue else {
      throw LedgerFormatError("\"version\" is missing or not a whole number")
    }
    guard version <= Ledger.formatVersion else {
      throw LedgerFormatError(
        "version \(version) is newer than this ShieldBridge reads", newer: true)
    }
    guard version >= 1 else { throw LedgerFormatError("unknown version \(version)") }
    guard let entries = json["days"]?.arrayValue else {
      throw LedgerFormatError("\"days\" is missing or not an array")
    }
    var days: [LocalDay: [String: Int]] = [:]
    var usedSecondsByDay: [LocalDay: [String: Int]] = [:]
    var meteredByDay: [LocalDay: Set<String>] = [:]
    var limitReachedByDay: [LocalDay: [String: Int]] = [:]
    var tasksAskedByDay: [LocalDay: [String: Int]] = [:]
    var tasksAskedAtByDay: [LocalDay: [String: Int]] = [:]
    var backedOutByDay: [LocalDay: [String: Int]] = [:]
    var rulesInForceByDay: [LocalDay: JSONValue] = [:]
    var seen: Set<LocalDay> = []
    for (index, entry) in entries.enumerated() {
      guard let text = entry["date"]?.stringValue, let day = LocalDay(text) else {
        throw LedgerFormatError("days[\(index)].date is not a date like 2026-11-29")
      }
      guard seen.insert(day).inserted else {
        throw LedgerFormatError("days[\(index)]: \(day) appears twice")
      }
      let usage = entry["usedSeconds"]
      let metered = entry["metered"]
      let reached = entry["limitReached"]
      let asked = entry["tasksAsked"]
      let askedAt = entry["tasksAskedAt"]
      let backedOut = entry["backedOut"]
      // The rules in force are the service's copy of config.json's words: one it cannot use is no copy,
      // never a damaged ledger (that would cost the day's counts).
      let rules = entry["rulesInForce"].flatMap { $0.arrayValue != nil ? $0 : nil }
      let hasMore =
        usage != nil || metered != nil || reached != nil || asked != nil || askedAt != nil || backedOut != nil
        || rules != nil
      // A day with use (or the meter's record) alone may leave out its grants; a day with none is not a day.
      let grants = entry["grants"]?.objectValue ?? (hasMore && entry["grants"] == nil ? [] : nil)
      guard let grants else {
        throw LedgerFormatError("days[\(index)].grants is missing or not an object")
      }
      var counts: [String: Int] = [:]
      for (rule, count) in grants {
        guard let count = count.integerValue, (0...Int64(Ledger.maximumStoredGrants)).contains(count),
          counts[rule] == nil
        else {
          throw LedgerFormatError("days[\(index)].grants: the count for '\(rule)' is not valid")
        }
        counts[rule] = Int(count)
      }
      // A day of use alone stays a day of use alone, so that it reads back as it was written.
      if !counts.isEmpty || !hasMore { days[day] = counts }
      if let metered {
        guard let names = metered.arrayValue?.compactMap(\.stringValue), names.count == metered.arrayValue?.count
        else {
          throw LedgerFormatError("days[\(index)].metered is not an array of rule names")
        }
        if !names.isEmpty { meteredByDay[day] = Set(names) }
      }
      if let reached {
        guard let members = reached.objectValue else {
          throw LedgerFormatError("days[\(index)].limitReached is not an object")
        }
        var counts: [String: Int] = [:]
        for (rule, count) in members {
          guard let count = count.integerValue, (0...Int64(Ledger.maximumStoredGrants)).contains(count),
            counts[rule] == nil
          else {
            throw LedgerFormatError("days[\(index)].limitReached: the count for '\(rule)' is not valid")
          }
          counts[rule] = Int(count)
        }
        if !counts.isEmpty { limitReachedByDay[day] = counts }
      }
      if let asked {
        let counts = try Ledger.counts(asked, key: "tasksAsked", index: index)
        if !counts.isEmpty { tasksAskedByDay[day] = counts }
      }
      if let askedAt {
        let counts = try Ledger.counts(askedAt, key: "tasksAskedAt", index: index, keepingZeros: true)
        if !counts.isEmpty { tasksAskedAtByDay[day] = counts }
      }
      if let rules { rulesInForceByDay[day] = rules }
      if let backedOut {
        let counts = try Ledger.counts(backedOut, key: "backedOut", index: index)
        if !counts.isEmpty { backedOutByDay[day] = counts }
      }
      if let usage {
        guard let members = usage.objectValue else {
          throw LedgerFormatError("days[\(index)].usedSeconds is not an object")
        }
        var used: [String: Int] = [:]
        for (rule, value) in members {
          let seconds = Ledger.usedSeconds(reading: value)
          if seconds.exact == nil {
            warnings.append(
              .usageOutOfRange(day: day, rule: rule, found: Ledger.excerpt(value.serialized), kept: seconds.kept))
          }
          // A key written twice keeps its larger count, as merging does.
          used[rule] = max(used[rule] ?? 0, seconds.kept)
        }
        used = used.filter { $0.value > 0 }
        if !used.isEmpty { usedSecondsByDay[day] = used }
      }
    }
    // The anchor only saves the meter's day across a restart: one that cannot be read is no anchor.
    self.init(
      days: days, usedSecondsByDay: usedSecondsByDay, meteredByDay: meteredByDay,
      limitReachedByDay: limitReachedByDay, dayAnchor: json["dayAnchor"].flatMap(DayAnchor.init(json:)),
      tasksAskedByDay: tasksAskedByDay, tasksAskedAtByDay: tasksAskedAtByDay, backedOutByDay: backedOutByDay,
      rulesInForceByDay: rulesInForceByDay)
  }

  /// A day's counts per rule (`tasksAsked`, `backedOut`, `tasksAskedAt`), read as strictly as the
  /// grants; zeros are dropped unless `keepingZeros` (a grant count of 0 is a count).
  private static func counts(
    _ value: JSONValue, key: String, index: Int, keepingZeros: Bool = false
  ) throws(LedgerFormatError) -> [String: Int] {
    guard let members = value.objectValue else {
      throw LedgerFormatError("days[\(index)].\(key) is not an object")
    }
    var counts: [String: Int] = [:]
    for (rule, count) in members {
      guard let count = count.integerValue, (0...Int64(Ledger.maximumStoredGrants)).contains(count),
        counts[rule] == nil
      else {
        throw LedgerFormatError("days[\(index)].\(key): the count for '\(rule)' is not valid")
      }
      counts[rule] = Int(count)
    }
    return keepingZeros ? counts : counts.filter { $0.value > 0 }
  }

  /// At most 40 characters of `text`, so a huge value makes a short warning.
  private static func excerpt(_ text: String) -> String {
    text.count <= 40 ? text : String(text.prefix(40)) + "…"
  }

  /// A stored count of seconds: `exact` when it was a whole number in range,
  /// `kept` the count read in any case.
  private static func usedSeconds(reading value: JSONValue) -> (exact: Int?, kept: Int) {
    let range = 0...Ledger.maximumUsedSeconds
    switch value {
    case .integer(let count):
      if range.contains(Int(clamping: count)) { return (Int(count), Int(count)) }
      return (nil, count < 0 ? 0 : Ledger.maximumUsedSeconds)
    case .number(let number):
      guard number.isFinite else { return (nil, number > 0 ? Ledger.maximumUsedSeconds : 0) }
      if let whole = Int(exactly: number), range.contains(whole) { return (whole, whole) }
      if number < 0 { return (nil, 0) }
      if number > Double(Ledger.maximumUsedSeconds) { return (nil, Ledger.maximumUsedSeconds) }
      // A fraction of a second in range: the whole seconds below it.
      return (nil, Int(number))
    default:
      return (nil, 0)
    }
  }
}

/// Why a stored ledger could not be read.
public struct LedgerFormatError: Error, Hashable, Sendable, CustomStringConvertible {
  public var message: String
  /// Whether the file was written by a newer version, rather than damaged.
  public var isNewerVersion: Bool

  init(_ message: String, newer: Bool = false) {
    self.message = message
    isNewerVersion = newer
  }

  public var description: String { message }
}

extension DayAnchor {
  /// The anchor as the ledger stores it:
  /// `{"bootId":"…","bootNanoseconds":…,"wall":[seconds,nanoseconds],"day":"2026-12-01","midnight":[seconds,nanoseconds]}`
  /// (no `midnight` on the last day a date can name).
  public var json: JSONValue {
    var members: [(String, JSONValue)] = [
      ("bootId", .string(bootID)),
      ("bootNanoseconds", .integer(Int64(clamping: boot.nanoseconds))),
      ("wall", DayAnchor.json(wall)),
      ("day", .string(day.description)),
    ]
    if let midnight { members.append(("midnight", DayAnchor.json(midnight))) }
    return .object(members)
  }

  /// Reads a stored anchor; `nil` when any part of it is missing or wrong.
  public init?(json: JSONValue) {
    guard let bootID = json["bootId"]?.stringValue, !bootID.isEmpty, bootID.utf8.count <= 64,
      let boot = json["bootNanoseconds"]?.integerValue, boot >= 0,
      let wall = json["wall"].flatMap(DayAnchor.wallTime(json:)),
      let text = json["day"]?.stringValue, let day = LocalDay(text)
    else { return nil }
    var midnight: WallTime?
    if let stored = json["midnight"] {
      guard let time = DayAnchor.wallTime(json: stored) else { return nil }
      midnight = time
    }
    self.init(bootID: bootID, boot: BootTime(nanoseconds: UInt64(boot)), wall: wall, day: day, midnight: midnight)
  }

  private static func json(_ time: WallTime) -> JSONValue {
    .array([.integer(time.secondsSince1970), .integer(Int64(time.nanoseconds))])
  }

  private static func wallTime(json: JSONValue) -> WallTime? {
    guard let parts = json.arrayValue, parts.count == 2, let seconds = parts[0].integerValue,
      let nanoseconds = parts[1].integerValue, (0..<1_000_000_000).contains(nanoseconds)
    else { return nil }
    return WallTime(secondsSince1970: seconds, nanoseconds: Int32(nanoseconds))
  }
}
