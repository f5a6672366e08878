#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension String {
  /// Whether the string holds a NUL byte, which no D-Bus string may.
  ///
  /// Searched with `memchr` over the contiguous UTF-8 of a native string:
  /// `utf8.contains(0)` walks the bytes one at a time in a debug build, which
  /// takes a fifth of a second for a string of a few megabytes that a peer sent.
  var containsNUL: Bool {
    let found = utf8.withContiguousStorageIfAvailable { bytes in
      guard let start = bytes.baseAddress else { return false }
      return memchr(start, 0, bytes.count) != nil
    }
    return found ?? utf8.contains(0)
  }
}
