#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Writes an executable script with a close-on-exec descriptor.
///
/// Tests start programs from many threads at once; a script written through a
/// descriptor a concurrent child could inherit would fail to start with
/// "Text file busy" while that child lives.
public func writeExecutable(_ path: String, _ text: String) throws {
  let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
  guard descriptor >= 0 else { throw PollTimedOut(what: "a writable \(path)") }
  defer { close(descriptor) }
  var bytes = Array(text.utf8)[...]
  while !bytes.isEmpty {
    let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    guard written > 0 else { throw PollTimedOut(what: "writing \(path)") }
    bytes = bytes.dropFirst(written)
  }
}
