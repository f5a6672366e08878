public import Posix

/// Where the current time comes from: the system clock, or one a test controls.
///
/// The ledger asks its clock for "now" every time it decides which local day
/// a grant belongs to, so a test (or a demo) can move time across midnight
/// without waiting for it.
public struct WallClock: Sendable {
  /// Returns the current instant.
  public var now: @Sendable () -> WallTime

  /// A clock that answers with `now()`.
  public init(now: @escaping @Sendable () -> WallTime) {
    self.now = now
  }

  /// The system's real-time clock.
  public static let system = WallClock { WallTime.now }

  /// A clock that always answers `time`.
  public static func fixed(_ time: WallTime) -> WallClock {
    WallClock { time }
  }
}
