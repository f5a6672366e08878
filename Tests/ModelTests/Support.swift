import Foundation
import Model
import Posix
import Store
import Synchronization

/// The instant of a UTC wall-clock time, computed without any time-zone code.
func utc(
  _ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0
)
  -> WallTime
{
  let epoch = LocalDay(year: 1970, month: 1, day: 1)!
  let days = epoch.days(to: LocalDay(year: year, month: month, day: day)!)
  return WallTime(secondsSince1970: Int64(days * 86_400 + hour * 3_600 + minute * 60 + second))
}

/// Makes this process use the time zone `name`, as `TZ=name` would.
///
/// Only call it inside an exit test: the zone is process-wide, and the other
/// tests of this process must not see it change under them.
func useTimeZone(_ name: String) {
  setenv("TZ", name, 1)
  tzset()
}

/// A clock a test moves by hand.
final class ManualClock: Sendable {
  private let current: Mutex<WallTime>

  init(_ start: WallTime) {
    current = Mutex(start)
  }

  var now: WallTime {
    get { current.withLock { $0 } }
    set { current.withLock { $0 = newValue } }
  }

  var wallClock: WallClock {
    WallClock { [self] in self.now }
  }
}

/// Eight processes' worth of `recordGrant(for:)` at once on the ledger in
/// `directory`, each through a store of its own: how many were granted, and
/// how many refused with an error `refusal` accepts.
func raceGrants(
  for rule: Rule, in directory: String, refusedWith refusal: @escaping @Sendable (LedgerError) -> Bool
) -> (granted: Int, refused: Int) {
  let granted = Atomic<Int>(0)
  let refused = Atomic<Int>(0)
  DispatchQueue.concurrentPerform(iterations: 8) { _ in
    do {
      _ = try LedgerStore(directory: directory).recordGrant(for: rule)
      granted.add(1, ordering: .relaxed)
    } catch let error as LedgerError where refusal(error) {
      refused.add(1, ordering: .relaxed)
    } catch {}
  }
  return (granted.load(ordering: .relaxed), refused.load(ordering: .relaxed))
}
