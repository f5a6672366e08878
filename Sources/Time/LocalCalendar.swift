/// A time zone as a value: how an instant reads on the local calendar, and
/// which instant a local date and time is.
///
/// The pure parts (the meter's days, downtime hours) are given one and never
/// look the zone up themselves: Posix's `LocalCalendar.system` is the
/// process's zone (`TZ`, `/etc/localtime`), ``utc`` a fixed one.
public struct LocalCalendar: Sendable {
  /// The local calendar fields of an instant; `nil` where the zone cannot say.
  public let fields: @Sendable (WallTime) -> CalendarTime?
  /// One instant of the local fields, normalised; for a time a DST change
  /// skips or repeats, one of the instants near it. `nil` where the zone cannot say.
  public let instant: @Sendable (CalendarTime) -> WallTime?

  public init(
    fields: @escaping @Sendable (WallTime) -> CalendarTime?, instant: @escaping @Sendable (CalendarTime) -> WallTime?
  ) {
    self.fields = fields
    self.instant = instant
  }

  /// Coordinated Universal Time: no offset, no DST.
  public static let utc = LocalCalendar(fields: { $0.utc }, instant: { WallTime(utc: $0) })
}
