/// A time zone as a value: how an instant reads on the local calendar, and
/// which instant a local date and time is.
///
/// The pure parts (the meter's days, downtime hours) are given one and never
/// look the zone up themselves: Posix's `LocalCalendar.system` is the
/// process's zone (`TZ`, `/etc/localtime`), ``utc`` a fixed one.
///
/// Two calendars are equal when they have one name: the name stands for the
/// zone's rules, which closures cannot compare.
public struct LocalCalendar: Hashable, Sendable, CustomStringConvertible {
  /// What the zone is: `UTC`, `system` (the process's `TZ`).
  public let name: String
  /// The local calendar fields of an instant; `nil` where the zone cannot say.
  public let fields: @Sendable (WallTime) -> CalendarTime?
  /// One instant of the local fields, normalised; for a time a DST change
  /// skips or repeats, one of the instants near it. `nil` where the zone cannot say.
  public let instant: @Sendable (CalendarTime) -> WallTime?

  public init(
    name: String, fields: @escaping @Sendable (WallTime) -> CalendarTime?,
    instant: @escaping @Sendable (CalendarTime) -> WallTime?
  ) {
    self.name = name
    self.fields = fields
    self.instant = instant
  }

  /// Coordinated Universal Time: no offset, no DST.
  public static let utc = LocalCalendar(name: "UTC", fields: { $0.utc }, instant: { WallTime(utc: $0) })

  public var description: String { name }

  public static func == (left: LocalCalendar, right: LocalCalendar) -> Bool {
    left.name == right.name
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(name)
  }
}
