import Posix

/// Writing to stdout and stderr without Foundation.
///
/// stdout goes through C's stdio buffer (line-buffered on a terminal, fully
/// buffered into a pipe, flushed at exit); commands that answer line by line
/// call ``flush()`` when they are about to wait for more input.
enum Output {
  /// Writes `text` and a newline to stdout.
  static func out(_ text: String) {
    StandardOutput.writeLine(text)
  }

  /// Writes raw bytes to stdout.
  static func out(bytes: [UInt8]) {
    StandardOutput.write(bytes)
  }

  /// Writes raw bytes to stdout in place.
  static func out(buffer: UnsafeBufferPointer<UInt8>) {
    StandardOutput.write(buffer)
  }

  /// Writes `text` and a newline to stderr.
  static func err(_ text: String) {
    // Unbuffered, so that it is never held behind stdout; nothing is left to tell of a failure.
    try? FileDescriptor.standardError.writeAll(text + "\n")
  }

  /// Pushes what stdout holds to the reader.
  static func flush() {
    StandardOutput.flush()
  }
}
