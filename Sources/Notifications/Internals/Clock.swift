import Posix
import Synchronization

/// The date and time part of the last timestamp, by the second it was made for:
/// formatting it is worth doing once a second, not once a notification.
private let lastSecond = Mutex<(second: Int64, prefix: [UInt8])>((-1, []))

/// The current time as an RFC 3339 UTC timestamp with milliseconds: `2025-05-01T12:00:00.123Z`.
func utcTimestamp() -> String {
  let now = WallTime.now
  let second = now.secondsSince1970
  let prefix = lastSecond.withLock { cached in
    if cached.second != second {
      cached = (second, Array((now.utc?.rfc3339() ?? "").utf8))
    }
    return cached.prefix
  }
  let milliseconds = now.nanoseconds / 1_000_000
  return String(unsafeUninitializedCapacity: prefix.count + 5) { buffer in
    let end = buffer.initialize(fromContentsOf: prefix)
    buffer[end] = UInt8(ascii: ".")
    buffer[end + 1] = UInt8(ascii: "0") + UInt8(milliseconds / 100)
    buffer[end + 2] = UInt8(ascii: "0") + UInt8(milliseconds / 10 % 10)
    buffer[end + 3] = UInt8(ascii: "0") + UInt8(milliseconds % 10)
    buffer[end + 4] = UInt8(ascii: "Z")
    return end + 5
  }
}
