#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Waiting on several descriptors at once (`poll`).
public enum Poll {
  /// Blocks until at least one of `descriptors` can be read (or has reached
  /// its end, or failed), at most `timeout` (`nil`: as long as it takes).
  ///
  /// A signal does not end the wait early: the remaining time is waited again.
  ///
  /// - Returns: The indices in `descriptors` that are ready; empty when the time ran out.
  /// - Throws: ``Errno`` when `poll` failed.
  public static func readable(_ descriptors: [FileDescriptor], timeout: Duration?) throws(Errno) -> [Int] {
    let deadline = timeout.map { ContinuousClock.now + $0 }
    var pollers = descriptors.map { pollfd(fd: $0.rawValue, events: Int16(POLLIN), revents: 0) }
    while true {
      var milliseconds: Int32 = -1
      if let deadline {
        let remaining = deadline - ContinuousClock.now
        guard remaining > .zero else { return [] }
        let (seconds, attoseconds) = remaining.components
        milliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
      }
      let count: Int32
      do {
        count = try valueOrErrno(retryOnInterrupt: false) {
          poll(&pollers, nfds_t(pollers.count), milliseconds)
        }
      } catch  where error == .interrupted {
        continue
      }
      if count == 0 { return [] }
      return pollers.indices.filter { pollers[$0].revents != 0 }
    }
  }
}
