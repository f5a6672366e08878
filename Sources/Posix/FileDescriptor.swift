import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// An open file descriptor, closed when the last reference goes away.
///
/// A class rather than a `~Copyable` value: a descriptor is used from the
/// closures of `withUnsafeBytes` and friends, which a non-copyable value
/// cannot be captured by inside a loop, and one allocation per opened file is
/// nothing next to the system calls. It is closed once, by ``close()`` or by
/// `deinit`. Every call retries `EINTR` through
/// ``valueOrErrno(retryOnInterrupt:_:)``. A descriptor this value does not
/// own (stdin, or one a `Subprocess` keeps) is wrapped with
/// ``init(borrowing:)`` and never closed by it.
public final class FileDescriptor: Sendable {
  /// The C descriptor number.
  public let rawValue: Int32
  private let owned: Bool
  // Set by the first close, so that `deinit` does not close a number the kernel may have reused.
  private let open = Atomic(true)

  /// Takes ownership of `rawValue`: it is closed with this value.
  public init(owning rawValue: Int32) {
    self.rawValue = rawValue
    self.owned = true
  }

  /// Wraps `rawValue` without owning it: this value never closes it.
  public init(borrowing rawValue: Int32) {
    self.rawValue = rawValue
    self.owned = false
  }

  /// Standard input (fd 0), not owned.
  public static let standardInput = FileDescriptor(borrowing: 0)
  /// Standard output (fd 1), not owned; for a protocol spoken on it (`native-host`), unbuffered.
  public static let standardOutput = FileDescriptor(borrowing: 1)
  /// Standard error (fd 2), not owned.
  public static let standardError = FileDescriptor(borrowing: 2)

  deinit {
    if owned && open.load(ordering: .relaxed) { _ = systemClose(rawValue) }
  }

  /// Closes the descriptor now and reports the failure `close` may have; a
  /// second call, or one on a borrowed descriptor, does nothing.
  ///
  /// `close` is not retried on `EINTR`: on Linux the descriptor is gone even
  /// then. Do not use the value after closing it.
  ///
  /// - Throws: ``Errno`` when `close` failed (a late write error on some file systems).
  public func close() throws(Errno) {
    guard owned, open.exchange(false, ordering: .relaxed) else { return }
    try nothingOrErrno(retryOnInterrupt: false) { systemClose(rawValue) }
  }

  /// A new pipe, both ends with `O_CLOEXEC` so that no child process inherits them.
  ///
  /// Swift's Glibc module does not export `pipe2`, so the flag is set right after `pipe`.
  ///
  /// - Throws: ``Errno`` when `pipe` failed.
  public static func pipe() throws(Errno) -> (reading: FileDescriptor, writing: FileDescriptor) {
    var ends: [Int32] = [-1, -1]
    try nothingOrErrno { systemPipe(&ends) }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    return (FileDescriptor(owning: ends[0]), FileDescriptor(owning: ends[1]))
  }

  /// Opens `path`, always with `O_CLOEXEC` so that no child process inherits it.
  ///
  /// - Parameters:
  ///   - options: how to open, such as `[.readOnly, .nonBlocking]`.
  ///   - permissions: the mode of a file that `.create` makes.
  /// - Throws: ``Errno`` when `open` failed.
  public static func open(
    _ path: String, _ options: OpenOptions, permissions: UInt32 = 0o600
  ) throws(Errno) -> FileDescriptor {
    let raw = try valueOrErrno { systemOpen(path, options.rawValue | O_CLOEXEC, mode_t(permissions)) }
    return FileDescriptor(owning: raw)
  }

  /// Reads at most `buffer.count` bytes into `buffer`.
  ///
  /// - Returns: The number of bytes read; 0 at the end of the input.
  /// - Throws: ``Errno`` when `read` failed (`wouldBlock` on an empty non-blocking pipe).
  public func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
    guard let base = buffer.baseAddress, !buffer.isEmpty else { return 0 }
    return try valueOrErrno { systemRead(rawValue, base, buffer.count) }
  }

  /// Reads at most `buffer.count` bytes into the start of `buffer`.
  ///
  /// - Returns: The number of bytes read; 0 at the end of the input.
  /// - Throws: ``Errno`` when `read` failed.
  public func read(into buffer: inout [UInt8]) throws(Errno) -> Int {
    var result: Result<Int, Errno> = .success(0)
    buffer.withUnsafeMutableBytes { raw in
      result = Result { () throws(Errno) in try read(into: raw) }
    }
    return try result.get()
  }

  /// Reads until `buffer` is full or the input ends, retrying short reads and
  /// `EINTR`: the reading side of ``writeAll(_:)-([UInt8])``, for a protocol
  /// whose frames say their length (`native-host`).
  ///
  /// - Returns: The number of bytes read: `buffer.count`, or fewer when the input ended first.
  /// - Throws: ``Errno`` of the first `read` that failed.
  public func readAll(into buffer: inout [UInt8]) throws(Errno) -> Int {
    var result: Result<Int, Errno> = .success(0)
    buffer.withUnsafeMutableBytes { raw in
      result = Result { () throws(Errno) in try readAll(into: raw) }
    }
    return try result.get()
  }

  /// ``readAll(into:)-([UInt8])`` into memory the caller owns.
  public func readAll(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
    guard let base = buffer.baseAddress else { return 0 }
    var filled = 0
    while filled < buffer.count {
      let count = try valueOrErrno { systemRead(rawValue, base + filled, buffer.count - filled) }
      if count == 0 { break }
      filled += count
    }
    return filled
  }

  /// Writes what one `write` call takes of `bytes` (a non-blocking descriptor may take less).
  ///
  /// - Returns: The number of bytes written.
  /// - Throws: ``Errno`` when `write` failed (`wouldBlock` when a non-blocking pipe is full).
  public func write(_ bytes: ArraySlice<UInt8>) throws(Errno) -> Int {
    var result: Result<Int, Errno> = .success(0)
    bytes.withUnsafeBytes { raw in
      result = Result { () throws(Errno) in
        guard let base = raw.baseAddress, !raw.isEmpty else { return 0 }
        return try valueOrErrno { systemWrite(rawValue, base, raw.count) }
      }
    }
    return try result.get()
  }

  /// Writes all of `bytes`, retrying partial writes and `EINTR`.
  ///
  /// - Throws: ``Errno`` of the first write that failed.
  public func writeAll(_ bytes: UnsafeRawBufferPointer) throws(Errno) {
    guard let base = bytes.baseAddress else { return }
    var offset = 0
    while offset < bytes.count {
      offset += try valueOrErrno { systemWrite(rawValue, base + offset, bytes.count - offset) }
    }
  }

  /// Writes all of `bytes`, retrying partial writes and `EINTR`.
  ///
  /// - Throws: ``Errno`` of the first write that failed.
  public func writeAll(_ bytes: [UInt8]) throws(Errno) {
    var failure: Errno?
    bytes.withUnsafeBytes { raw in
      do throws(Errno) { try writeAll(raw) } catch { failure = error }
    }
    if let failure { throw failure }
  }

  /// Writes the UTF-8 of `text`, retrying partial writes and `EINTR`.
  ///
  /// - Throws: ``Errno`` of the first write that failed.
  public func writeAll(_ text: String) throws(Errno) {
    var text = text
    var failure: Errno?
    text.withUTF8 { bytes in
      do throws(Errno) { try writeAll(UnsafeRawBufferPointer(bytes)) } catch { failure = error }
    }
    if let failure { throw failure }
  }

  /// Flushes the file's data and metadata to the disk (`fsync`).
  ///
  /// - Throws: ``Errno`` when `fsync` failed.
  public func sync() throws(Errno) {
    try nothingOrErrno { fsync(rawValue) }
  }

  /// What kind of file this is, its size and owner (`fstat`).
  ///
  /// - Throws: ``Errno`` when `fstat` failed.
  public func status() throws(Errno) -> FileStatus {
    var status = stat()
    try nothingOrErrno { fstat(rawValue, &status) }
    return FileStatus(status)
  }

  /// Waits until the descriptor has something to read (or its end), at most `timeout`.
  ///
  /// - Returns: Whether it became readable in time.
  /// - Throws: ``Errno`` when `poll` failed.
  public func waitUntilReadable(timeout: Duration) throws(Errno) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while true {
      let remaining = deadline - ContinuousClock.now
      guard remaining > .zero else { return false }
      var poller = pollfd(fd: rawValue, events: Int16(POLLIN), revents: 0)
      let (seconds, attoseconds) = remaining.components
      let milliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
      // Not retried here: after a signal the remaining time is computed again.
      do {
        return try valueOrErrno(retryOnInterrupt: false) { poll(&poller, 1, milliseconds) } > 0
      } catch  where error == .interrupted {
        continue
      }
    }
  }
}

/// How ``FileDescriptor/open(_:_:permissions:)`` opens a file: the access mode and the `O_` flags.
public struct OpenOptions: OptionSet, Sendable {
  public var rawValue: Int32

  public init(rawValue: Int32) {
    self.rawValue = rawValue
  }

  /// `O_RDONLY` (no bits: the default).
  public static let readOnly = OpenOptions([])
  /// `O_WRONLY`.
  public static let writeOnly = OpenOptions(rawValue: O_WRONLY)
  /// `O_RDWR`.
  public static let readWrite = OpenOptions(rawValue: O_RDWR)
  /// `O_CREAT`: create the file when it does not exist.
  public static let create = OpenOptions(rawValue: O_CREAT)
  /// `O_EXCL`: with `.create`, fail when it exists.
  public static let exclusive = OpenOptions(rawValue: O_EXCL)
  /// `O_APPEND`: every write goes to the end.
  public static let append = OpenOptions(rawValue: O_APPEND)
  /// `O_NONBLOCK`: do not wait (a FIFO without a writer opens at once).
  public static let nonBlocking = OpenOptions(rawValue: O_NONBLOCK)
  /// `O_DIRECTORY`: fail unless the path is a directory.
  public static let directory = OpenOptions(rawValue: O_DIRECTORY)
}
