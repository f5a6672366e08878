#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Whole-file and path operations on top of ``FileDescriptor``.
public enum FileSystem {
  /// Reads a whole regular file of at most `limit` bytes.
  ///
  /// The file is opened without blocking and checked with `fstat` before the
  /// first read, so a FIFO, a device or a directory is refused at once: a
  /// reader never hangs on a pipe nobody writes to, nor reads forever from
  /// `/dev/zero`. The array is sized from `fstat`, one byte more to see a file
  /// that grows while it is read.
  ///
  /// - Throws: ``ReadFileError``; ``ReadFileError/isNotFound`` tells a missing file.
  public static func readFile(_ path: String, limit: Int) throws(ReadFileError) -> [UInt8] {
    try readRegularFile(path) { (size) throws(ReadFileError) -> Int in
      guard size <= limit else { throw .tooLarge(limit: limit) }
      // One byte more than `fstat` says, to see a file that grows while it is read.
      return Int(size) + 1
    } checking: { (bytes, capacity) throws(ReadFileError) in
      guard bytes.count < capacity else { throw .changed }
    }
  }

  /// Opens `path` without blocking, refuses anything but a regular file, and
  /// reads until its end or `capacity(size)` bytes; `check` sees what was read.
  ///
  /// The one read loop of ``readFile(_:limit:)`` and ``readPrefix(_:limit:)``.
  static func readRegularFile(
    _ path: String, capacity: (_ size: Int64) throws(ReadFileError) -> Int,
    checking check: (_ bytes: [UInt8], _ capacity: Int) throws(ReadFileError) -> Void = { _, _ in }
  ) throws(ReadFileError) -> [UInt8] {
    let (descriptor, size) = try openRegularFile(path)
    let capacity = try capacity(size)
    var failure: Errno?
    let bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
      do throws(Errno) { count = try descriptor.readAll(into: UnsafeMutableRawBufferPointer(buffer)) } catch {
        failure = error
      }
    }
    if let failure { throw .system(failure) }
    try check(bytes, capacity)
    return bytes
  }

  /// Opens `path` without blocking and refuses anything but a regular file; its size as `fstat` says.
  static func openRegularFile(_ path: String) throws(ReadFileError) -> (FileDescriptor, size: Int64) {
    let descriptor: FileDescriptor
    do { descriptor = try FileDescriptor.open(path, [.readOnly, .nonBlocking]) } catch { throw .system(error) }
    let status: FileStatus
    do { status = try descriptor.status() } catch { throw .system(error) }
    guard status.kind == .regular else { throw .notRegularFile(status.kind) }
    return (descriptor, status.size)
  }

  /// Reads a whole regular file like ``readFile(_:limit:)``, `nil` when it does not exist.
  ///
  /// - Throws: ``ReadFileError`` for every other failure.
  public static func readFileIfPresent(_ path: String, limit: Int) throws(ReadFileError) -> [UInt8]? {
    do {
      return try readFile(path, limit: limit)
    } catch  where error.isNotFound {
      return nil
    }
  }

  /// What `stat` (or `lstat` when `followingLinks` is `false`) says about `path`.
  ///
  /// - Throws: ``Errno`` when the call failed.
  public static func status(_ path: String, followingLinks: Bool = true) throws(Errno) -> FileStatus {
    var status = stat()
    try nothingOrErrno { followingLinks ? stat(path, &status) : lstat(path, &status) }
    return FileStatus(status)
  }

  /// Whether anything exists at `path` (a dangling symbolic link counts).
  public static func exists(_ path: String) -> Bool {
    (try? status(path, followingLinks: false)) != nil
  }

  /// `path` with every symbolic link in it followed (`realpath`): where the
  /// file really is; `nil` when it, or a folder on the way, does not exist.
  public static func resolvingLinks(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// Whether `path` names a directory (following symbolic links).
  public static func isDirectory(_ path: String) -> Bool {
    (try? status(path))?.kind == .directory
  }

  /// Whether `path` names a regular file (following symbolic links).
  public static func isRegularFile(_ path: String) -> Bool {
    (try? status(path))?.kind == .regular
  }

  /// Renames `source` to `target`, replacing it.
  ///
  /// - Throws: ``Errno`` when `rename` failed.
  public static func rename(_ source: String, to target: String) throws(Errno) {
    try nothingOrErrno { systemRename(source, target) }
  }

  /// Removes the file (not a directory) at `path`.
  ///
  /// - Throws: ``Errno`` when `unlink` failed.
  public static func removeFile(_ path: String) throws(Errno) {
    try nothingOrErrno { unlink(path) }
  }

  /// Removes the empty directory at `path`.
  ///
  /// - Throws: ``Errno`` when `rmdir` failed.
  public static func removeDirectory(_ path: String) throws(Errno) {
    try nothingOrErrno { rmdir(path) }
  }

  /// Removes `path` and, when it is a directory, everything in it (not following links).
  public static func removeTree(_ path: String) {
    if (try? status(path, followingLinks: false))?.kind == .directory {
      for name in (try? contentsOfDirectory(path)) ?? [] {
        removeTree(path.appendingPathComponent(name))
      }
      try? removeDirectory(path)
    } else {
      try? removeFile(path)
    }
  }

  /// The names in the directory `path`, without `.` and `..`, sorted by their bytes.
  ///
  /// - Throws: ``Errno`` when it cannot be opened.
  public static func contentsOfDirectory(_ path: String) throws(Errno) -> [String] {
    guard let stream = opendir(path) else { throw .current }
    defer { closedir(stream) }
    var names: [String] = []
    while let entry = readdir(stream) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name != "." && name != ".." { names.append(name) }
    }
    // Sorted, so that what is made from a listing does not depend on the file system's order.
    return names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
  }

  /// Creates a new directory `prefix` followed by six random characters (`mkdtemp`), mode 0700.
  ///
  /// - Returns: The path of the new directory.
  /// - Throws: ``Errno`` when `mkdtemp` failed.
  public static func makeTemporaryDirectory(prefix: String) throws(Errno) -> String {
    var template = Array((prefix + "XXXXXX").utf8CString)
    guard let made = mkdtemp(&template) else { throw .current }
    return String(cString: made)
  }

  /// The target of the symbolic link at `path` (`readlink`).
  ///
  /// - Throws: ``Errno`` when `readlink` failed.
  public static func destinationOfSymbolicLink(_ path: String) throws(Errno) -> String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = try valueOrErrno { readlink(path, &buffer, buffer.count - 1) }
    return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// The path of the running executable, from `/proc/self/exe`.
  public static func executablePath() -> String? {
    try? destinationOfSymbolicLink("/proc/self/exe")
  }

  /// The current working directory.
  public static func currentDirectory() -> String? {
    guard let pointer = getcwd(nil, 0) else { return nil }
    defer { free(pointer) }
    return String(cString: pointer)
  }
}

extension FileSystem {
  /// What ``checkAccess(_:_:)`` asks of a path (`access(2)`'s mode).
  public struct Access: OptionSet, Sendable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// `R_OK`.
    public static let read = Access(rawValue: R_OK)
    /// `W_OK`.
    public static let write = Access(rawValue: W_OK)
    /// `X_OK`: run a file, or enter a directory.
    public static let search = Access(rawValue: X_OK)
  }

  /// Checks that this process may use `path` as `mode` asks (`access(2)`;
  /// an empty `mode` asks only whether it exists).
  ///
  /// The kernel answers for root too where permission bits do not bind it: a
  /// read-only file system (`EROFS`) and an immutable file (`EPERM`).
  ///
  /// - Throws: ``Errno`` saying why not (`ENOENT` when nothing is there).
  public static func checkAccess(_ path: String, _ mode: Access) throws(Errno) {
    try nothingOrErrno { access(path, mode.isEmpty ? F_OK : mode.rawValue) }
  }
}
