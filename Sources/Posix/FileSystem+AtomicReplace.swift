#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Why ``FileSystem/replaceAtomically(_:with:permissions:)`` failed; the file was left as it was.
public struct AtomicReplaceError: Error, Hashable, Sendable {
  /// The step that failed.
  public enum Step: Hashable, Sendable {
    /// Creating the temporary file (``AtomicReplaceError/path`` is the temporary file).
    case create
    /// Writing the temporary file.
    case write
    /// `fsync` of the temporary file.
    case sync
    /// `close` of the temporary file.
    case close
    /// Renaming the temporary file over the target.
    case rename
    /// Opening the folder to flush the rename (``AtomicReplaceError/path`` is the folder).
    case openDirectory
    /// `fsync` of the folder.
    case syncDirectory
  }

  public var step: Step
  /// The file the step was working on: the temporary file, or the folder for the folder steps.
  public var path: String
  /// The temporary file's path (removed again).
  public var temporaryPath: String
  public var errno: Errno
}

extension FileSystem {
  /// The infix of the temporary files of ``replaceAtomically(_:with:permissions:)``:
  /// `ledger.json.tmp-<pid>-<random>`.
  public static let temporaryInfix = ".tmp-"

  /// Replaces the file at `path` with `bytes` so that a reader sees the old or
  /// the new content, never a mix, and the new content survives a power cut.
  ///
  /// The bytes go to a new temporary file in the same folder (so the rename
  /// stays on one file system), which is flushed with `fsync`, renamed over
  /// `path`, and then the folder is flushed so that the rename is durable. A
  /// file system that cannot flush a folder (`EINVAL`) makes the rename as
  /// durable as it can, which is accepted. On any failure before the rename
  /// the temporary file is removed and `path` is unchanged. After the
  /// rename, the temporary files of `path` that writers killed before their
  /// own rename left behind are removed (``removeStaleTemporaryFiles(of:)``).
  ///
  /// - Throws: ``AtomicReplaceError`` naming the step that failed.
  public static func replaceAtomically(
    _ path: String, with bytes: [UInt8], permissions: UInt32 = 0o600
  ) throws(AtomicReplaceError) {
    var random = SystemRandomNumberGenerator()
    let temporary = "\(path)\(temporaryInfix)\(getpid())-\(String(random.next(), radix: 16))"
    func failure(_ step: AtomicReplaceError.Step, _ code: Errno, at failedPath: String? = nil) -> AtomicReplaceError {
      AtomicReplaceError(step: step, path: failedPath ?? temporary, temporaryPath: temporary, errno: code)
    }
    // Each step maps its own Errno, so the error says which step failed.
    var step = AtomicReplaceError.Step.create
    var renamed = false
    defer { if !renamed { try? removeFile(temporary) } }
    let folder = path.parentPath
    do throws(Errno) {
      let descriptor = try FileDescriptor.open(
        temporary, [.writeOnly, .create, .exclusive], permissions: permissions)
      step = .write
      try descriptor.writeAll(bytes)
      step = .sync
      try descriptor.sync()
      step = .close
      try descriptor.close()
      step = .rename
      try rename(temporary, to: path)
      renamed = true
      step = .openDirectory
      let directory = try FileDescriptor.open(folder, [.readOnly, .directory])
      step = .syncDirectory
      do {
        try directory.sync()
      } catch  where error == .invalidArgument {
        // Some file systems cannot flush a folder; the rename is then as durable as they make it.
      }
    } catch {
      throw failure(step, error, at: step == .openDirectory || step == .syncDirectory ? folder : temporary)
    }
    removeStaleTemporaryFiles(of: path)
  }

  /// Removes the temporary files of ``replaceAtomically(_:with:permissions:)``
  /// for `path` (`<name>.tmp-<pid>-<hex>`) whose writer no longer runs: one
  /// killed between its create and its rename (`kill -9`) leaves its file,
  /// and no later write would remove it otherwise.
  ///
  /// The pid in the name decides, so no lock is needed and a live writer's
  /// file is never touched: a file whose pid runs (this process, another
  /// writer at work, or a pid used again since) is left for a later write,
  /// and so is every name of another pattern. A writer in another pid
  /// namespace (a sandbox) would be taken for dead; no ShieldBridge writer
  /// runs in one.
  public static func removeStaleTemporaryFiles(of path: String) {
    let folder = path.parentPath
    let prefix = path.lastPathComponent + temporaryInfix
    for name in (try? contentsOfDirectory(folder)) ?? [] where name.hasPrefix(prefix) {
      let rest = name.utf8.dropFirst(prefix.utf8.count)
      let parts = rest.split(separator: UInt8(ascii: "-"), maxSplits: 1, omittingEmptySubsequences: false)
      guard parts.count == 2, let pid = Int32(String(decoding: parts[0], as: UTF8.self)), pid > 0,
        !parts[1].isEmpty, parts[1].allSatisfy({ Self.isHexDigit($0) }), !Signal.processExists(pid)
      else { continue }
      try? removeFile(folder.appendingPathComponent(name))
    }
  }

  private static func isHexDigit(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
  }

  /// Removes the temporary files that writers of `paths` (files of one
  /// folder) left behind when they died, listing the folder once.
  ///
  /// Only call this while holding the lock that every writer of those files
  /// takes, so that no live writer's file is removed.
  public static func removeLeftoverTemporaryFiles(of paths: String...) {
    guard let folder = paths.first?.parentPath else { return }
    let prefixes = paths.map { $0.lastPathComponent + temporaryInfix }
    for name in (try? contentsOfDirectory(folder)) ?? [] where prefixes.contains(where: name.hasPrefix) {
      try? removeFile(folder.appendingPathComponent(name))
    }
  }
}
