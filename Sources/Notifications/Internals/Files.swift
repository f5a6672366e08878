#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

// Small file helpers on top of the C library: the module does without
// Foundation so that a one-shot `shieldbridge notify` starts fast.

/// The text of the current `errno`.
func errnoText(_ code: Int32 = errno) -> String {
  String(cString: strerror(code))
}

/// The value of an environment variable, `nil` when unset or empty.
func environmentValue(_ name: String) -> String? {
  guard let value = getenv(name) else { return nil }
  let string = String(cString: value)
  return string.isEmpty ? nil : string
}

/// The whole content of the file at `path`, `nil` when it does not exist or cannot be read.
func readFile(_ path: String, limit: Int = 1 << 20) -> [UInt8]? {
  let descriptor = open(path, O_RDONLY | O_CLOEXEC)
  guard descriptor >= 0 else { return nil }
  defer { close(descriptor) }
  var result: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 16384)
  while result.count <= limit {
    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    if count < 0 {
      if errno == EINTR { continue }
      return nil
    }
    if count == 0 { return result }
    result.append(contentsOf: buffer[..<count])
  }
  return nil
}

/// Writes all of `bytes` to `descriptor`; returns the `errno` of a failure, or 0.
func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Int32 {
  var offset = 0
  while offset < bytes.count {
    let written = bytes.withUnsafeBytes {
      write(descriptor, $0.baseAddress! + offset, $0.count - offset)
    }
    if written < 0 {
      if errno == EINTR { continue }
      return errno
    }
    offset += written
  }
  return 0
}

/// Replaces the file at `path` with `bytes` atomically: a temporary file in the
/// same folder, flushed to disk, then renamed over the old one.
func writeFileAtomically(_ path: String, _ bytes: [UInt8]) throws(NotificationError) {
  var template = Array((path + ".XXXXXX").utf8CString)
  let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
  guard descriptor >= 0 else {
    throw NotificationError(.file, "cannot create a temporary file beside \(path): \(errnoText())")
  }
  _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
  let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
  let failure = writeAll(descriptor, bytes)
  let synced = failure == 0 ? fsync(descriptor) : 0
  let syncError = errno
  close(descriptor)
  guard failure == 0, synced == 0 else {
    unlink(temporary)
    throw NotificationError(
      .file, "cannot write \(temporary): \(errnoText(failure != 0 ? failure : syncError))")
  }
  guard rename(temporary, path) == 0 else {
    let code = errno
    unlink(temporary)
    throw NotificationError(.file, "cannot rename \(temporary) to \(path): \(errnoText(code))")
  }
}

/// Makes sure `path` is a folder only this user can enter (mode 0700, owned by us, not a link).
func ensurePrivateDirectory(_ path: String) throws(NotificationError) {
  if mkdir(path, 0o700) != 0 && errno != EEXIST {
    throw NotificationError(.file, "cannot create \(path): \(errnoText())")
  }
  var status = stat()
  guard lstat(path, &status) == 0 else {
    throw NotificationError(.file, "cannot inspect \(path): \(errnoText())")
  }
  guard status.st_mode & S_IFMT == S_IFDIR else {
    throw NotificationError(.file, "\(path) exists and is not a folder")
  }
  guard status.st_uid == getuid() else {
    throw NotificationError(.file, "\(path) belongs to another user")
  }
  guard status.st_mode & 0o077 == 0 else {
    throw NotificationError(
      .file,
      "\(path) can be entered by other users (mode \(String(status.st_mode & 0o777, radix: 8)))")
  }
}

/// A file opened for appending, written one whole line per call (no buffering in between).
final class AppendOnlyFile: @unchecked Sendable {
  let path: String
  private let descriptor: Int32

  /// Opens (or creates, mode 0644) `path` for appending.
  init(path: String) throws(NotificationError) {
    let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw NotificationError(.file, "cannot open \(path) for writing: \(errnoText())")
    }
    self.path = path
    self.descriptor = descriptor
  }

  deinit { close(descriptor) }

  /// Appends `bytes`; returns the `errno` of a failure, or 0.
  func append(_ bytes: [UInt8]) -> Int32 {
    writeAll(descriptor, bytes)
  }
}

/// An exclusive `flock` on a lock file, held until ``unlock()``.
struct FileLock: ~Copyable {
  private let descriptor: Int32

  /// Opens (or creates) `path` and waits for the exclusive lock.
  init(path: String) throws(NotificationError) {
    let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw NotificationError(.file, "cannot open \(path): \(errnoText())")
    }
    while flock(descriptor, LOCK_EX) != 0 {
      guard errno == EINTR else {
        let code = errno
        close(descriptor)
        throw NotificationError(.file, "cannot lock \(path): \(errnoText(code))")
      }
    }
    self.descriptor = descriptor
  }

  consuming func unlock() {
    close(descriptor)
    discard self
  }

  deinit { close(descriptor) }
}
