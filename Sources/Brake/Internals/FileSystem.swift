#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The few POSIX file operations the ledger needs, each failure a ``LedgerError/io(operation:path:errno:)``.
enum FileSystem {
  /// Creates `path` and its missing parents, each with `mode` (`mkdir -p`).
  static func makeDirectories(_ path: String, mode: mode_t = 0o700) throws(LedgerError) {
    var prefix = ""
    for component in path.split(separator: "/", omittingEmptySubsequences: true) {
      prefix += "/" + component
      if mkdir(prefix, mode) != 0 && errno != EEXIST {
        throw .io(operation: "create directory", path: prefix, errno: errno)
      }
    }
    var status = stat()
    guard stat(path, &status) == 0 else { throw .io(operation: "stat", path: path, errno: errno) }
    guard status.st_mode & S_IFMT == S_IFDIR else {
      throw .io(operation: "use as directory", path: path, errno: ENOTDIR)
    }
  }

  /// The bytes of the file at `path`, at most `limit + 1` of them; `nil` when it does not exist.
  static func read(_ path: String, limit: Int) throws(LedgerError) -> [UInt8]? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      if errno == ENOENT { return nil }
      throw .io(operation: "open", path: path, errno: errno)
    }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 16_384)
    while bytes.count <= limit {
      let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw .io(operation: "read", path: path, errno: errno)
      }
      if count == 0 { break }
      bytes.append(contentsOf: buffer[..<count])
    }
    return bytes
  }

  /// Whether anything exists at `path` (a dangling symbolic link counts).
  static func exists(_ path: String) -> Bool {
    var status = stat()
    return lstat(path, &status) == 0
  }

  /// Renames `source` to `target`, replacing it.
  static func rename(_ source: String, to target: String) throws(LedgerError) {
    guard Glibc.rename(source, target) == 0 else {
      throw .io(operation: "rename to \(target)", path: source, errno: errno)
    }
  }

  /// Replaces the file at `path` with `bytes` so that a reader sees the old or
  /// the new content, never a mix, and the new content survives a power cut.
  ///
  /// The bytes go to a new temporary file in the same directory (so the
  /// rename stays on one file system), which is flushed with `fsync`, renamed
  /// over `path`, and then the directory is flushed so the rename is durable.
  /// On any failure the temporary file is removed and `path` is unchanged.
  static func writeAtomically(_ bytes: [UInt8], to path: String) throws(LedgerError) {
    var random = SystemRandomNumberGenerator()
    let temporary = "\(path)\(temporarySuffix)\(getpid())-\(String(random.next(), radix: 16))"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw .io(operation: "create", path: temporary, errno: errno) }
    var renamed = false
    defer { if !renamed { unlink(temporary) } }
    do throws(LedgerError) {
      try writeAll(bytes, to: descriptor, path: temporary)
      guard fsync(descriptor) == 0 else {
        throw .io(operation: "fsync", path: temporary, errno: errno)
      }
    } catch {
      close(descriptor)
      throw error
    }
    guard close(descriptor) == 0 else {
      throw .io(operation: "close", path: temporary, errno: errno)
    }
    try rename(temporary, to: path)
    renamed = true
    try syncDirectory(of: path)
  }

  /// The infix of temporary files: `ledger.json.tmp-<pid>-<random>`.
  static let temporarySuffix = ".tmp-"

  /// Removes temporary files left next to `path` by a writer that died.
  ///
  /// Only call this while holding the lock that every writer takes, so no
  /// live writer's file is removed.
  static func removeLeftoverTemporaryFiles(of path: String) {
    let (directory, name) = split(path)
    guard let stream = opendir(directory) else { return }
    defer { closedir(stream) }
    let prefix = name + temporarySuffix
    while let entry = readdir(stream) {
      let entryName = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if entryName.hasPrefix(prefix) {
        unlink(directory + "/" + entryName)
      }
    }
  }

  /// The directory and the last component of `path`.
  static func split(_ path: String) -> (directory: String, name: String) {
    guard let slash = path.lastIndex(of: "/") else { return (".", path) }
    let directory = String(path[..<slash])
    return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
  }

  private static func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: String)
    throws(LedgerError)
  {
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
      if written < 0 {
        if errno == EINTR { continue }
        throw .io(operation: "write", path: path, errno: errno)
      }
      offset += written
    }
  }

  private static func syncDirectory(of path: String) throws(LedgerError) {
    let directory = split(path).directory
    let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { throw .io(operation: "open", path: directory, errno: errno) }
    defer { close(descriptor) }
    // Some file systems cannot sync a directory (EINVAL); the rename is then as durable as they make it.
    guard fsync(descriptor) == 0 || errno == EINVAL else {
      throw .io(operation: "fsync", path: directory, errno: errno)
    }
  }
}
