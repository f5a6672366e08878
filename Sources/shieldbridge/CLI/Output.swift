import Posix

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

// Our own stdio stream on fd 1: C's `stdout` is a mutable global that strict
// concurrency does not let us touch, and nothing here writes to fd 1 otherwise.
nonisolated(unsafe) private let standardOutput = fdopen(1, "w")

/// Writing to stdout and stderr without Foundation.
///
/// stdout goes through C's stdio buffer (line-buffered on a terminal, fully
/// buffered into a pipe, flushed at exit); commands that answer line by line
/// call ``flush()`` when they are about to wait for more input.
enum Output {
  /// Writes `text` and a newline to stdout.
  static func out(_ text: String) {
    fputs(text, standardOutput)
    fputc(0x0A, standardOutput)
  }

  /// Writes raw bytes to stdout.
  static func out(bytes: [UInt8]) {
    _ = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, standardOutput) }
  }

  /// Writes `text` and a newline to stderr.
  static func err(_ text: String) {
    // Unbuffered, so that it is never held behind stdout; nothing is left to tell of a failure.
    try? FileDescriptor.standardError.writeAll(text + "\n")
  }

  /// Pushes what stdout holds to the reader.
  static func flush() {
    fflush(standardOutput)
  }
}
