public import JSON

extension Ledger {
  /// The version of the file format written by ``json``.
  public static let formatVersion: Int64 = 1

  /// The ledger as stored: `{"version":1,"days":[{"date":"2026-11-29","grants":{"social":1}}]}`,
  /// days and rule names sorted so that equal ledgers are equal files.
  public var json: JSONValue {
    let sortedDays = days.keys.sorted().map { day -> JSONValue in
      let grants = (days[day] ?? [:]).sorted { $0.key < $1.key }.filter { $0.value > 0 }
      return .object([
        ("date", .string(day.description)),
        ("grants", .object(grants.map { ($0.key, .int($0.value)) })),
      ])
    }
    return .object([("version", .integer(Ledger.formatVersion)), ("days", .array(sortedDays))])
  }

  /// Reads a ledger from its stored form.
  ///
  /// Unknown keys are ignored, so a later version may add some.
  ///
  /// - Throws: ``LedgerFormatError`` naming what is wrong; ``LedgerFormatError/isNewerVersion``
  ///   tells a file from a newer ShieldBridge (to be left alone) from a corrupt one.
  public init(json: JSONValue) throws(LedgerFormatError) {
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
    for (index, entry) in entries.enumerated() {
      guard let text = entry["date"]?.stringValue, let day = LocalDay(text) else {
        throw LedgerFormatError("days[\(index)].date is not a date like 2026-11-29")
      }
      guard days[day] == nil else {
        throw LedgerFormatError("days[\(index)]: \(day) appears twice")
      }
      guard let grants = entry["grants"]?.objectValue else {
        throw LedgerFormatError("days[\(index)].grants is missing or not an object")
      }
      var counts: [String: Int] = [:]
      for (rule, count) in grants {
        guard let count = count.integerValue, (0...10_000).contains(count), counts[rule] == nil
        else {
          throw LedgerFormatError("days[\(index)].grants: the count for '\(rule)' is not valid")
        }
        counts[rule] = Int(count)
      }
      days[day] = counts
    }
    self.init(days: days)
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
