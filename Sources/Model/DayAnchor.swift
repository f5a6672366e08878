public import Time

/// Where the meter's day began: the one rule that says which local day a
/// reading of the clocks belongs to, for the meter and for every process that
/// records a grant.
///
/// The meter keeps it and writes it to the ledger at every save, so that a
/// restart of the service on the same boot, `shieldbridge puzzle` and the
/// browser's native host all reach the same day from the same anchor, however
/// the wall clock or `TZ` were set meanwhile. A boot-time reading means
/// something only beside others of its boot: an anchor of another boot (the
/// machine restarted) is not used, and the wall clock is all there is. The
/// boot time it is given is the one the kernel vouches for
/// (``CheckedBootClock``): a process's own `CLOCK_BOOTTIME` can be faked for
/// it (libfaketime), the kernel's uptime cannot.
public struct DayAnchor: Hashable, Sendable {
  /// The boot the boot-time reading belongs to (``BootTime/bootID``).
  public var bootID: String
  /// The boot time when the day began (or when the meter started on it).
  public var boot: BootTime
  /// The wall time then, as far as the boot time vouched for it.
  public var wall: WallTime
  /// The local day.
  public var day: LocalDay
  /// Its end: the start of the day after, as the zone said when the day began,
  /// and never sooner than ``UsageMeter/minimumDayLength`` after the day before
  /// ended; `nil` on the last day a ``LocalDay`` can name.
  public var midnight: WallTime?

  public init(bootID: String, boot: BootTime, wall: WallTime, day: LocalDay, midnight: WallTime?) {
    self.bootID = bootID
    self.boot = boot
    self.wall = wall
    self.day = day
    self.midnight = midnight
  }

  /// The anchor of a day begun at `wall` by the wall clock alone: its local
  /// day in the process's zone (days beginning at `dayStart`) and that day's end.
  public init(
    bootID: String, boot: BootTime, wall: WallTime, dayStart: ClockTime = .midnight, in calendar: LocalCalendar
  ) {
    let day = LocalDay.containing(wall, dayStart: dayStart, in: calendar)
    self.init(
      bootID: bootID, boot: boot, wall: wall, day: day,
      midnight: day.adding(days: 1)?.start(dayStart: dayStart, in: calendar))
  }

  /// How a reading of the wall and boot clocks stands against this anchor.
  public struct Reading: Hashable, Sendable {
    /// The wall time to believe: the reading, but no further ahead of the
    /// anchor than the boot time has moved since, plus ``UsageMeter/wallClockTolerance``.
    public var wall: WallTime
    /// The wall time the boot time vouches for, without the tolerance.
    public var vouched: WallTime
    /// Whether the anchor's day has ended by ``wall``.
    public var dayEnded: Bool
    /// The local day of the reading: the anchor's until it ended; then the
    /// day of ``wall`` in the zone of now, and at least the day after.
    public var day: LocalDay
  }

  /// Where the clocks' reading `wall` and `boot` (of this anchor's boot) stand.
  ///
  /// A wall clock set forward counts only as far as the boot time has moved
  /// since the anchor, so it does not end the day early; one set back keeps
  /// the day until it reaches the day's end again.
  public func reading(wall now: WallTime, boot: BootTime, dayStart: ClockTime = .midnight, in calendar: LocalCalendar)
    -> Reading
  {
    let vouched = wall.adding(boot.duration(since: self.boot))
    let wall = min(now, vouched.adding(UsageMeter.wallClockTolerance))
    let dayEnded = midnight.map { wall >= $0 } ?? false
    let nowDay =
      dayEnded ? max(day.adding(days: 1) ?? day, LocalDay.containing(wall, dayStart: dayStart, in: calendar)) : day
    return Reading(wall: wall, vouched: vouched, dayEnded: dayEnded, day: nowDay)
  }

  /// The local day of the reading `wall`, `boot` (``reading(wall:boot:)``'s ``Reading/day``).
  public func day(wall: WallTime, boot: BootTime, dayStart: ClockTime = .midnight, in calendar: LocalCalendar)
    -> LocalDay
  {
    reading(wall: wall, boot: boot, dayStart: dayStart, in: calendar).day
  }

  /// The anchor of `newDay`, a later day, entered at `wall` and `boot`: its
  /// end is the start of the day after it (in the zone of now), and no
  /// sooner than ``UsageMeter/minimumDayLength`` a day after this day's end,
  /// so that a zone moved east makes no short day with a fresh limit.
  public func moved(
    to newDay: LocalDay, wall: WallTime, boot: BootTime, dayStart: ClockTime = .midnight, in calendar: LocalCalendar
  ) -> DayAnchor {
    let earliestEnd = midnight.map { $0.adding(UsageMeter.minimumDayLength * day.days(to: newDay)) }
    var end = newDay.adding(days: 1)?.start(dayStart: dayStart, in: calendar)
    if let next = end, let earliestEnd { end = max(next, earliestEnd) }
    return DayAnchor(bootID: bootID, boot: boot, wall: wall, day: newDay, midnight: end)
  }

  /// The anchor for a meter that starts at `now` on the boot `bootID`:
  /// `stored` (the ledger's) when it is of this boot and not from a later
  /// boot-time reading, moved on to the day its rule gives; else a day begun
  /// by the wall clock alone.
  public static func resuming(
    _ stored: DayAnchor?, bootID: String, at now: MeterInstant, dayStart: ClockTime = .midnight,
    in calendar: LocalCalendar
  ) -> DayAnchor {
    guard let stored, stored.bootID == bootID, stored.boot <= now.boot else {
      return DayAnchor(bootID: bootID, boot: now.boot, wall: now.wall, dayStart: dayStart, in: calendar)
    }
    let reading = stored.reading(wall: now.wall, boot: now.boot, dayStart: dayStart, in: calendar)
    guard reading.dayEnded, reading.day != stored.day else { return stored }
    return stored.moved(
      to: reading.day, wall: min(now.wall, reading.vouched), boot: now.boot, dayStart: dayStart, in: calendar)
  }
}
