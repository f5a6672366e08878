#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Reads a descriptor (stdin by default) line by line, in big chunks, handing
/// each line out as bytes in its own buffer: no allocation per line.
///
/// Lines end with `\n`, which is not part of the line; a last line without
/// one is still handed out. With a ``maximumLineLength``, a longer line is
/// handed out cut to that length as soon as that much of it has arrived, and
/// the rest of it is skipped, so that endless input without a line end
/// cannot fill the memory; without one, the buffer grows to hold the line.
public struct LineReader: ~Copyable {
  /// The longest line handed out whole; `nil` keeps whole lines.
  public let maximumLineLength: Int?
  private let descriptor: Int32
  private var storage: UnsafeMutableRawBufferPointer
  private var start = 0
  private var end = 0
  // After a line was cut at the maximum length, the rest of it is skipped.
  private var skipping = false
  private var atEnd = false

  /// A reader of `descriptor` (not owned, never closed), reading `chunkSize` bytes at a time.
  public init(descriptor: Int32 = 0, chunkSize: Int = 1 << 16, maximumLineLength: Int? = nil) {
    self.descriptor = descriptor
    self.maximumLineLength = maximumLineLength
    storage = .allocate(byteCount: max(chunkSize, (maximumLineLength ?? 0) + 1, 16), alignment: 1)
  }

  deinit {
    storage.deallocate()
  }

  /// Calls `body` with the next line and returns its result; `nil` at the end of the input.
  ///
  /// The bytes are valid only inside `body`.
  ///
  /// - Parameter beforeWaiting: called each time the reader is about to wait
  ///   for more input, so that a caller that answers line by line can flush.
  /// - Throws: ``Errno`` when `read` failed.
  public mutating func withNextLine<Result>(
    beforeWaiting: () -> Void = {}, _ body: (UnsafeBufferPointer<UInt8>) -> Result
  ) throws(Errno) -> Result? {
    while true {
      guard let raw = storage.baseAddress else { return nil }
      let base = raw.assumingMemoryBound(to: UInt8.self)
      if start < end {
        if let newline = memchr(base + start, 0x0A, end - start) {
          let lineStart = start
          let lineEnd = base.distance(to: newline.assumingMemoryBound(to: UInt8.self))
          start = lineEnd + 1
          if skipping {
            skipping = false
            continue
          }
          return body(UnsafeBufferPointer(start: base + lineStart, count: lineEnd - lineStart))
        }
        if skipping {
          start = end
        } else if let limit = maximumLineLength, end - start > limit {
          let lineStart = start
          start = end
          skipping = true
          return body(UnsafeBufferPointer(start: base + lineStart, count: limit))
        }
      }
      if atEnd {
        guard start < end, !skipping else { return nil }
        let lineStart = start
        start = end
        return body(UnsafeBufferPointer(start: base + lineStart, count: end - lineStart))
      }
      beforeWaiting()
      try fill()
    }
  }

  /// The next line as a string (invalid UTF-8 repaired), `nil` at the end of the input.
  ///
  /// - Throws: ``Errno`` when `read` failed.
  public mutating func nextLine() throws(Errno) -> String? {
    try withNextLine { String(decoding: $0, as: UTF8.self) }
  }

  /// Calls `body` with every remaining line.
  ///
  /// - Throws: ``Errno`` when `read` failed; the lines before it were handed out.
  public mutating func forEachLine(
    beforeWaiting: () -> Void = {}, _ body: (UnsafeBufferPointer<UInt8>) -> Void
  ) throws(Errno) {
    while try withNextLine(beforeWaiting: beforeWaiting, body) != nil {}
  }

  /// Moves the unread bytes to the front, grows a full buffer, and reads once more.
  private mutating func fill() throws(Errno) {
    if start > 0 {
      if end > start, let base = storage.baseAddress { memmove(base, base + start, end - start) }
      end -= start
      start = 0
    }
    if end == storage.count {
      let grown = UnsafeMutableRawBufferPointer.allocate(byteCount: storage.count * 2, alignment: 1)
      grown.copyMemory(from: UnsafeRawBufferPointer(rebasing: storage[..<end]))
      storage.deallocate()
      storage = grown
    }
    let count = try FileDescriptor(borrowing: descriptor).read(
      into: UnsafeMutableRawBufferPointer(rebasing: storage[end...]))
    if count == 0 { atEnd = true }
    end += count
  }
}
