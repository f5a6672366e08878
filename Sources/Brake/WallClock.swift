public import Posix

/// Where the current time comes from: the system clock, or one a test controls.
///
/// The ledger asks its clock for "now" every time it decides which local day
/// a grant belongs to, so a test (or a demo) can move time across midnight
/// without waiting for it. The meter reads the boot time beside it
/// (``MeterInstant/now(wall:)``): a wall clock moved on alone is a clock set
/// forward, which opens no new day; a test that lets a day pass moves both.
public struct WallClock: Sendable {
  /// Returns the current instant.
  public var now: @Sendable () -> WallTime
  /// Returns the current boot time (`CLOCK_BOOTTIME`, which counts suspend).
  public var boot: @Sendable () -> BootTime
  /// Returns the id of the boot ``boot`` counts from (``BootTime/bootID``).
  public var bootID: @Sendable () -> String?

  /// A clock that answers with `now()`, beside the system's boot time or `boot()` and its boot's id.
  public init(
    now: @escaping @Sendable () -> WallTime, boot: @escaping @Sendable () -> BootTime = { BootTime.now },
    bootID: @escaping @Sendable () -> String? = { BootTime.bootID }
  ) {
    self.now = now
    self.boot = boot
    self.bootID = bootID
  }

  /// The system's real-time clock.
  public static let system = WallClock { WallTime.now }

  /// A clock that always answers `time`.
  public static func fixed(_ time: WallTime) -> WallClock {
    WallClock { time }
  }
}
