public import Posix

/// A moment as the meter sees it: the monotonic reading for durations and the wall time for the day.
///
/// The two are read together by the caller (the service reads both clocks at
/// each event; a test makes them up). Only the monotonic reading measures time;
/// the wall time only says which local day the time belongs to.
public struct MeterInstant: Hashable, Sendable {
  public var monotonic: MonotonicTime
  public var wall: WallTime

  public init(monotonic: MonotonicTime, wall: WallTime) {
    self.monotonic = monotonic
    self.wall = wall
  }

  /// Both clocks as they read now.
  public static var now: MeterInstant {
    MeterInstant(monotonic: .now, wall: .now)
  }

  /// Both clocks as they read now, the wall time from `clock` (which tests and the demo set).
  public static func now(wall clock: WallClock) -> MeterInstant {
    MeterInstant(monotonic: .now, wall: clock.now())
  }
}
