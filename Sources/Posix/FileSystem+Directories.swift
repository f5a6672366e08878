#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Why ``FileSystem/makeDirectories(_:permissions:)`` failed: the step and the path it failed on.
public struct MakeDirectoriesError: Error, Hashable, Sendable {
  /// What failed.
  public enum Step: Hashable, Sendable {
    /// `mkdir` of ``MakeDirectoriesError/path``.
    case create
    /// `stat` of the final directory.
    case inspect
    /// The final path exists and is not a directory (``MakeDirectoriesError/errno`` is `ENOTDIR`).
    case notDirectory
  }

  public var step: Step
  /// The path that failed (a parent, for `create`).
  public var path: String
  public var errno: Errno

  public init(step: Step, path: String, errno: Errno) {
    self.step = step
    self.path = path
    self.errno = errno
  }
}

/// Why ``FileSystem/makePrivateDirectory(_:)`` refused a folder.
public enum PrivateDirectoryError: Error, Hashable, Sendable {
  /// `mkdir` failed.
  case create(Errno)
  /// `lstat` failed.
  case inspect(Errno)
  /// The path exists and is not a folder (a symbolic link counts as not a folder).
  case notDirectory
  /// The folder belongs to another user.
  case otherOwner
  /// Other users can enter the folder; its permission bits.
  case openToOthers(permissions: UInt32)
}

extension FileSystem {
  /// Creates `path` and its missing parents, each with `permissions` (`mkdir -p`).
  ///
  /// - Throws: ``MakeDirectoriesError`` when a directory cannot be made or the
  ///   final path is not a directory.
  public static func makeDirectories(_ path: String, permissions: UInt32 = 0o700) throws(MakeDirectoriesError) {
    var prefix = path.hasPrefix("/") ? "" : "."
    for component in path.split(separator: "/", omittingEmptySubsequences: true) {
      prefix += "/" + component
      do {
        try nothingOrErrno { mkdir(prefix, mode_t(permissions)) }
      } catch  where error == .fileExists {
      } catch {
        throw MakeDirectoriesError(step: .create, path: prefix, errno: error)
      }
    }
    let found: FileStatus
    do { found = try status(path) } catch { throw MakeDirectoriesError(step: .inspect, path: path, errno: error) }
    guard found.kind == .directory else {
      throw MakeDirectoriesError(step: .notDirectory, path: path, errno: .notDirectory)
    }
  }

  /// Makes sure `path` is a folder only this user can enter: creates it with
  /// mode 0700 when missing, then checks that it is a folder (not a link to
  /// one), owned by this user, with no permission bits for anyone else.
  ///
  /// - Throws: ``PrivateDirectoryError`` naming what is wrong.
  public static func makePrivateDirectory(_ path: String) throws(PrivateDirectoryError) {
    do {
      try nothingOrErrno { mkdir(path, 0o700) }
    } catch  where error == .fileExists {
    } catch {
      throw .create(error)
    }
    let found: FileStatus
    do { found = try status(path, followingLinks: false) } catch { throw .inspect(error) }
    guard found.kind == .directory else { throw .notDirectory }
    guard found.owner == getuid() else { throw .otherOwner }
    guard found.permissions & 0o077 == 0 else { throw .openToOthers(permissions: found.permissions & 0o777) }
  }
}
