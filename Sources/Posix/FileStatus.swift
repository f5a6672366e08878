#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// What `stat` tells about a file, the parts this package uses.
public struct FileStatus: Hashable, Sendable {
  /// What kind of file it is.
  public enum Kind: Hashable, Sendable, CustomStringConvertible {
    case regular
    case directory
    case symbolicLink
    case fifo
    case socket
    case characterDevice
    case blockDevice
    case unknown

    /// The kind with its article, for messages: "a FIFO", "a directory".
    public var description: String {
      switch self {
      case .regular: "a regular file"
      case .directory: "a directory"
      case .symbolicLink: "a symbolic link"
      case .fifo: "a FIFO"
      case .socket: "a socket"
      case .characterDevice: "a character device"
      case .blockDevice: "a block device"
      case .unknown: "a file of an unknown kind"
      }
    }
  }

  /// The kind of file (`st_mode & S_IFMT`).
  public var kind: Kind
  /// The permission bits (`st_mode & 0o7777`).
  public var permissions: UInt32
  /// The size in bytes.
  public var size: Int64
  /// The owner's user id.
  public var owner: UInt32
  /// The device and inode: which file this is. A file replaced by rename is another file.
  public var device: UInt64
  public var inode: UInt64
  /// The last change of the contents (`st_mtim`), in nanoseconds since 1970.
  public var modificationNanoseconds: Int64

  init(_ status: stat) {
    kind =
      switch status.st_mode & S_IFMT {
      case S_IFREG: .regular
      case S_IFDIR: .directory
      case S_IFLNK: .symbolicLink
      case S_IFIFO: .fifo
      case S_IFSOCK: .socket
      case S_IFCHR: .characterDevice
      case S_IFBLK: .blockDevice
      default: .unknown
      }
    permissions = UInt32(status.st_mode & 0o7777)
    size = Int64(status.st_size)
    owner = UInt32(status.st_uid)
    device = UInt64(status.st_dev)
    inode = UInt64(status.st_ino)
    modificationNanoseconds = Int64(status.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(status.st_mtim.tv_nsec)
  }
}
