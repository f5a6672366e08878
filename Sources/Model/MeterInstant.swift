public import Time

/// A moment as the meter sees it: the monotonic reading for durations, the
/// wall time for the day, and the boot-time reading that checks the wall time.
///
/// The three are read together by the caller (the service reads the clocks at
/// each event; a test makes them up). Only the monotonic reading measures
/// use; the wall time says which local day the time belongs to, and the boot
/// time (which counts suspend, as the monotonic reading does not) says how
/// far the wall time can have moved since the day began.
public struct MeterInstant: Hashable, Sendable {
  public var monotonic: MonotonicTime
  public var wall: WallTime
  public var boot: BootTime

  public init(monotonic: MonotonicTime, wall: WallTime, boot: BootTime) {
    self.monotonic = monotonic
    self.wall = wall
    self.boot = boot
  }

  /// A moment of a machine that was never suspended: the boot time reads as the monotonic clock.
  public init(monotonic: MonotonicTime, wall: WallTime) {
    self.init(monotonic: monotonic, wall: wall, boot: BootTime(nanoseconds: monotonic.nanoseconds))
  }

  /// The moment the monotonic reading `earlier` stands for, the wall and boot
  /// times moved back as far as the monotonic one (an event's own stamp, read
  /// now); this moment itself when `earlier` is not before it.
  public func backdated(to earlier: MonotonicTime) -> MeterInstant {
    guard earlier < monotonic else { return self }
    let back = monotonic.duration(since: earlier)
    let bootBack = UInt64(clamping: back.nanosecondsRoundedUp)
    return MeterInstant(
      monotonic: earlier, wall: wall.adding(.zero - back),
      boot: BootTime(nanoseconds: boot.nanoseconds > bootBack ? boot.nanoseconds - bootBack : 0))
  }
}
