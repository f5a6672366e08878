import Posix

extension String {
  /// Whether the string holds a NUL byte, which no D-Bus string may.
  ///
  /// Searched with Posix's `memchr` over the contiguous UTF-8 of a native
  /// string: `utf8.contains(0)` walks the bytes one at a time in a debug
  /// build, which takes a fifth of a second for a string of a few megabytes
  /// that a peer sent.
  var containsNUL: Bool {
    utf8.withContiguousStorageIfAvailable { $0.firstIndex(ofByte: 0) != nil } ?? utf8.contains(0)
  }
}
