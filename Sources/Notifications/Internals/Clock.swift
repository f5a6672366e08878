import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The date and time part of the last timestamp, by the second it was made for:
/// formatting it is worth doing once a second, not once a notification.
private let lastSecond = Mutex<(second: Int, prefix: [UInt8])>((-1, []))

/// The current time as an RFC 3339 UTC timestamp with milliseconds: `2025-05-01T12:00:00.123Z`.
func utcTimestamp() -> String {
  var now = timespec()
  clock_gettime(CLOCK_REALTIME, &now)
  let second = now.tv_sec
  let prefix = lastSecond.withLock { cached in
    if cached.second != second {
      cached = (second, Array(formatSecond(second).utf8))
    }
    return cached.prefix
  }
  let milliseconds = now.tv_nsec / 1_000_000
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

/// `2025-05-01T12:00:00` for a number of seconds since 1970 (UTC).
private func formatSecond(_ second: Int) -> String {
  var seconds = second
  var parts = tm()
  gmtime_r(&seconds, &parts)
  func pad(_ value: Int32, _ width: Int) -> String {
    let text = String(value)
    return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
  }
  return pad(parts.tm_year + 1900, 4) + "-" + pad(parts.tm_mon + 1, 2) + "-" + pad(parts.tm_mday, 2)
    + "T"
    + pad(parts.tm_hour, 2) + ":" + pad(parts.tm_min, 2) + ":" + pad(parts.tm_sec, 2)
}
