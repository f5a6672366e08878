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
/// handed out cut to that length, with its whole length, once its end has
/// arrived: its rest is counted and skipped, so that endless input without a
/// line end cannot fill the memory; without one, the buffer grows to hold
/// the line. ``withNextPiece(beforeWaiting:_:)`` hands a line out in pieces
/// instead, for a caller that can answer it as it arrives.
public struct LineReader: ~Copyable {
  /// The longest line handed out whole; `nil` keeps whole lines.
  public let maximumLineLength: Int?
  @usableFromInline let descriptor: Int32
  @usableFromInline var storage: UnsafeMutableRawBufferPointer
  @usableFromInline var start = 0
  @usableFromInline var end = 0
  // While the rest of a cut line is skipped: how many bytes past the kept
  // prefix, which stays at `start`, were skipped so far.
  @usableFromInline var skipped: Int?
  // Whether a piece of the current line was handed out without its end.
  @usableFromInline var inPieces = false
  @usableFromInline var atEnd = false

  /// A reader of `descriptor` (not owned, never closed), reading `chunkSize` bytes at a time.
  public init(descriptor: Int32 = 0, chunkSize: Int = 1 << 16, maximumLineLength: Int? = nil) {
    self.descriptor = descriptor
    self.maximumLineLength = maximumLineLength
    // Room for a cut line's kept prefix and a whole chunk after it, so that
    // skipping its rest reads in chunks too.
    storage = .allocate(byteCount: max(chunkSize, 16) + (maximumLineLength.map { $0 + 1 } ?? 0), alignment: 1)
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
  @inlinable
  public mutating func withNextLine<Result>(
    beforeWaiting: () -> Void = {}, _ body: (UnsafeBufferPointer<UInt8>) -> Result
  ) throws(Errno) -> Result? {
    try withNextMeasuredLine(beforeWaiting: beforeWaiting) { line, _ in body(line) }
  }

  /// Calls `body` with the next line and its whole length in bytes, which is
  /// more than the line's count when it was cut at ``maximumLineLength``;
  /// `nil` at the end of the input.
  ///
  /// The bytes are valid only inside `body`.
  ///
  /// - Parameter beforeWaiting: called each time the reader is about to wait
  ///   for more input, so that a caller that answers line by line can flush.
  /// - Throws: ``Errno`` when `read` failed.
  @inlinable
  public mutating func withNextMeasuredLine<Result>(
    beforeWaiting: () -> Void = {}, _ body: (UnsafeBufferPointer<UInt8>, _ length: Int) -> Result
  ) throws(Errno) -> Result? {
    while true {
      guard let raw = storage.baseAddress else { return nil }
      let base = raw.assumingMemoryBound(to: UInt8.self)
      if let limit = maximumLineLength, let skippedSoFar = skipped {
        // The kept prefix is `start..<start + limit`; what follows it was read since.
        let restStart = start + limit
        var length = limit + skippedSoFar
        if restStart < end {
          if let lineEnd = UnsafeBufferPointer(start: base, count: end).firstIndex(ofByte: 0x0A, from: restStart) {
            let lineStart = start
            start = lineEnd + 1
            skipped = nil
            return body(UnsafeBufferPointer(start: base + lineStart, count: limit), length + lineEnd - restStart)
          }
          length += end - restStart
          skipped = length - limit
          end = restStart
        }
        if atEnd {
          let lineStart = start
          start = end
          skipped = nil
          return body(UnsafeBufferPointer(start: base + lineStart, count: limit), length)
        }
        beforeWaiting()
        try fill()
        continue
      }
      if start < end {
        if let lineEnd = UnsafeBufferPointer(start: base, count: end).firstIndex(ofByte: 0x0A, from: start) {
          let lineStart = start
          start = lineEnd + 1
          return body(UnsafeBufferPointer(start: base + lineStart, count: lineEnd - lineStart), lineEnd - lineStart)
        }
        if let limit = maximumLineLength, end - start > limit {
          // Keep the prefix, drop what came after it, and count the rest from here.
          skipped = end - start - limit
          end = start + limit
          continue
        }
      }
      if atEnd {
        guard start < end else { return nil }
        let lineStart = start
        start = end
        return body(UnsafeBufferPointer(start: base + lineStart, count: end - lineStart), end - lineStart)
      }
      beforeWaiting()
      try fill()
    }
  }

  /// Calls `body` with the next piece of a line and whether it ends the line,
  /// and returns its result; `nil` at the end of the input.
  ///
  /// A line that fits in the buffer (the chunk size) is one piece; a longer
  /// one comes in pieces of the buffer's size, as it arrives, the last of
  /// them (perhaps empty) ending the line, so that the memory used does not
  /// grow with the line. ``maximumLineLength`` does not apply. The bytes are
  /// valid only inside `body`.
  ///
  /// - Parameter beforeWaiting: called each time the reader is about to wait
  ///   for more input, so that a caller that answers line by line can flush.
  /// - Throws: ``Errno`` when `read` failed.
  public mutating func withNextPiece<Result>(
    beforeWaiting: () -> Void = {}, _ body: (UnsafeBufferPointer<UInt8>, _ endsLine: Bool) -> Result
  ) throws(Errno) -> Result? {
    while true {
      guard let raw = storage.baseAddress else { return nil }
      let base = raw.assumingMemoryBound(to: UInt8.self)
      if start < end {
        if let newline = memchr(base + start, 0x0A, end - start) {
          let lineStart = start
          let lineEnd = base.distance(to: newline.assumingMemoryBound(to: UInt8.self))
          start = lineEnd + 1
          inPieces = false
          return body(UnsafeBufferPointer(start: base + lineStart, count: lineEnd - lineStart), true)
        }
        if start == 0 && end == storage.count {
          // A full buffer without a line end: hand it out rather than grow.
          start = end
          inPieces = true
          return body(UnsafeBufferPointer(start: base, count: end), false)
        }
      }
      if atEnd {
        guard start < end || inPieces else { return nil }
        let lineStart = start
        start = end
        inPieces = false
        return body(UnsafeBufferPointer(start: base + lineStart, count: end - lineStart), true)
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
  @usableFromInline
  mutating func fill() throws(Errno) {
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
