#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// An error number from the C library (`errno`), as a typed error.
///
/// Like swift-system's `Errno`: a `RawRepresentable` over the C value, with
/// Swift names for the codes this package tells apart, and the C library's
/// own text (`strerror`) as its description, so messages read as every other
/// program on the system prints them.
public struct Errno: Error, RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  /// The C value, such as `ENOENT`.
  public var rawValue: Int32

  public init(rawValue: Int32) {
    self.rawValue = rawValue
  }

  /// The calling thread's current `errno`.
  public static var current: Errno { Errno(rawValue: errno) }

  /// The C library's text for the code, such as `No such file or directory`.
  public var description: String { String(cString: strerror(rawValue)) }

  /// `EINTR`: a signal interrupted the call before it did anything.
  public static let interrupted = Errno(rawValue: EINTR)
  /// `ENOENT`: no such file or directory.
  public static let noSuchFileOrDirectory = Errno(rawValue: ENOENT)
  /// `EEXIST`: the file exists.
  public static let fileExists = Errno(rawValue: EEXIST)
  /// `ENOTDIR`: a component of the path is not a directory.
  public static let notDirectory = Errno(rawValue: ENOTDIR)
  /// `EISDIR`: the path names a directory.
  public static let isDirectory = Errno(rawValue: EISDIR)
  /// `EINVAL`: an invalid argument (also what some file systems answer to `fsync` on a directory).
  public static let invalidArgument = Errno(rawValue: EINVAL)
  /// `EAGAIN` (`EWOULDBLOCK`): the call would block.
  public static let wouldBlock = Errno(rawValue: EWOULDBLOCK)
  /// `EMSGSIZE`: a message too long for its channel.
  public static let messageTooLong = Errno(rawValue: EMSGSIZE)
  /// `EACCES`: permission denied.
  public static let permissionDenied = Errno(rawValue: EACCES)
  /// `EPERM`: the operation is not permitted (an immutable file, for root too).
  public static let notPermitted = Errno(rawValue: EPERM)
  /// `EROFS`: the file system is mounted read-only.
  public static let readOnlyFileSystem = Errno(rawValue: EROFS)
}
