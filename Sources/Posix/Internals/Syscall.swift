#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Runs a C call that reports failure with -1 and `errno`, and returns its value.
///
/// Every system call of the package goes through here (swift-system's
/// `valueOrErrno`), so the rule "an interrupted call is simply made again"
/// lives in one place. Calls whose interruption must be seen by the caller
/// (a wait that a signal is meant to end) pass `retryOnInterrupt: false`.
///
/// - Throws: ``Errno`` when the call returned -1.
public func valueOrErrno<Value: FixedWidthInteger>(
  retryOnInterrupt: Bool = true, _ call: () -> Value
) throws(Errno) -> Value {
  while true {
    let value = call()
    if value != -1 { return value }
    let code = Errno.current
    if retryOnInterrupt && code == .interrupted { continue }
    throw code
  }
}

/// Runs a C call that returns 0 on success and -1 with `errno` on failure.
///
/// - Throws: ``Errno`` when the call failed.
public func nothingOrErrno<Value: FixedWidthInteger>(
  retryOnInterrupt: Bool = true, _ call: () -> Value
) throws(Errno) {
  _ = try valueOrErrno(retryOnInterrupt: retryOnInterrupt, call)
}

/// Sleeps the calling thread for `duration` (a blocking sleep, for code outside async contexts).
public func sleepThread(_ duration: Duration) {
  let (seconds, attoseconds) = duration.components
  guard seconds >= 0, duration > .zero else { return }
  var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
  var remaining = timespec()
  // nanosleep tells the time left when a signal interrupts it; the retry sleeps that.
  _ = try? valueOrErrno {
    defer { request = remaining }
    return nanosleep(&request, &remaining)
  }
}

// The C calls whose names `FileDescriptor`'s own methods shadow, reached under
// names of their own so that the module reads the same on Glibc and Musl.

func systemOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 { open(path, flags, mode) }
func systemClose(_ descriptor: Int32) -> Int32 { close(descriptor) }
func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
  read(descriptor, buffer, count)
}
func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
  write(descriptor, buffer, count)
}
func systemRename(_ source: String, _ target: String) -> Int32 { rename(source, target) }
func systemPipe(_ ends: inout [Int32]) -> Int32 { pipe(&ends) }
