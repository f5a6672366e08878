public import Model
import Posix

extension MeterInstant {
  /// The clocks as they read now.
  public static var now: MeterInstant {
    now(wall: .system)
  }

  /// The clocks as they read now, the wall and boot times from `clock` (which tests and the demo set).
  public static func now(wall clock: WallClock) -> MeterInstant {
    MeterInstant(monotonic: .now, wall: clock.now(), boot: clock.boot())
  }
}
