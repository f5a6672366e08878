public import Model
public import Posix

// The local day in the process's time zone (``LocalCalendar/system``: `TZ`,
// or `/etc/localtime`), for the commands and stores that read the clock
// themselves; the meter is given its calendar.

extension LocalDay {
  /// The local day that contains `time`, in the process's time zone (`TZ`).
  ///
  /// The zone is looked up again when `TZ` changes and at most a second
  /// after the last look (`WallTime.local`), so a long-running service
  /// follows the user to another zone.
  public static func containing(_ time: WallTime) -> LocalDay {
    containing(time, in: .system)
  }

  /// The first instant of this day in the process's time zone (``start(in:)``).
  public var start: WallTime { start(in: .system) }
}

extension LocalMinute {
  /// The local day and minute that contain `time`, in the process's time zone (`TZ`).
  public static func containing(_ time: WallTime) -> LocalMinute {
    containing(time, in: .system)
  }
}
