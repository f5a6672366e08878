#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The current time as an RFC 3339 UTC timestamp with milliseconds: `2025-05-01T12:00:00.123Z`.
func utcTimestamp() -> String {
  var now = timespec()
  clock_gettime(CLOCK_REALTIME, &now)
  var seconds = now.tv_sec
  var parts = tm()
  gmtime_r(&seconds, &parts)
  func pad(_ value: Int32, _ width: Int) -> String {
    let text = String(value)
    return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
  }
  return pad(parts.tm_year + 1900, 4) + "-" + pad(parts.tm_mon + 1, 2) + "-" + pad(parts.tm_mday, 2)
    + "T"
    + pad(parts.tm_hour, 2) + ":" + pad(parts.tm_min, 2) + ":" + pad(parts.tm_sec, 2) + "."
    + pad(Int32(now.tv_nsec / 1_000_000), 3) + "Z"
}
