#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension UnsafeBufferPointer<UInt8> {
  /// The index of the first `byte` at or after `start` (`memchr`, vectorised by the C library); `nil` when none.
  public func firstIndex(ofByte byte: UInt8, from start: Int = 0) -> Int? {
    guard let base = baseAddress, start < count else { return nil }
    guard let found = memchr(base + start, Int32(byte), count - start) else { return nil }
    return UnsafeRawPointer(found) - UnsafeRawPointer(base)
  }

  /// Whether `other` holds the same bytes (`memcmp`).
  public func hasSameBytes(as other: UnsafeBufferPointer<UInt8>) -> Bool {
    guard count == other.count else { return false }
    guard count > 0, let base = baseAddress, let otherBase = other.baseAddress else { return true }
    return memcmp(base, otherBase, count) == 0
  }
}
