import JSON
public import Model
public import Posix

/// What the service remembers of the weekly summary: the week of the last one
/// shown (`weekly-summary.json` in the state folder, beside the ledger), so
/// that a restart does not show it again (see ``WeeklySchedule/due(at:lastShown:)``).
///
/// `{"version":1,"lastShown":"2026-11-29"}`, the day of the occurrence the
/// summary was for; replaced atomically. A missing or unreadable file is no
/// summary shown yet: at worst one comes twice, and nothing else depends on it.
public struct WeeklySummaryStore: Sendable {
  /// The directory holding `weekly-summary.json` (the ledger's).
  public let directory: String

  public init(directory: String) {
    self.directory = directory
  }

  /// `weekly-summary.json` in ``directory``.
  public var path: String { directory + "/weekly-summary.json" }

  /// The week of the last summary shown; `nil` when none was, or the file cannot be read.
  public func lastShown() -> LocalDay? {
    guard let bytes = try? FileSystem.readFileIfPresent(path, limit: 4_096),
      let json = try? JSONValue(parsing: bytes), json["version"]?.integerValue == 1,
      let text = json["lastShown"]?.stringValue
    else { return nil }
    return LocalDay(text)
  }

  /// Remembers that the summary of the week ending `week` was shown.
  public func recordShown(_ week: LocalDay) throws(AtomicReplaceError) {
    let json = JSONValue.object([("version", .integer(1)), ("lastShown", .string(week.description))])
    try FileSystem.replaceAtomically(path, with: Array((json.serialized + "\n").utf8))
  }
}
