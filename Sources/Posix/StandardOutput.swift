#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

// Our own stdio stream on fd 1: C's `stdout` is a mutable global that strict
// concurrency does not let us touch, and nothing else writes to fd 1.
nonisolated(unsafe) private let stream = fdopen(1, "w")

/// Buffered writing to stdout through the C library's stdio buffer:
/// line-buffered on a terminal, fully buffered into a pipe, flushed at exit.
///
/// Programs that answer line by line call ``flush()`` when they are about to
/// wait for more input. stderr needs no buffer: write it with
/// ``FileDescriptor/standardError``.
public enum StandardOutput {
  /// Writes `text` and a newline.
  public static func writeLine(_ text: String) {
    fputs(text, stream)
    fputc(0x0A, stream)
  }

  /// Writes raw bytes.
  public static func write(_ bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { write($0) }
  }

  /// Writes raw bytes in place, without copying them into an array first.
  public static func write(_ bytes: UnsafeBufferPointer<UInt8>) {
    _ = fwrite(bytes.baseAddress, 1, bytes.count, stream)
  }

  /// Pushes what the buffer holds to the reader.
  public static func flush() {
    fflush(stream)
  }
}
