/// Why ``FileSystem/readFile(_:limit:)`` returned no bytes.
public enum ReadFileError: Error, Hashable, Sendable, CustomStringConvertible {
  /// `open`, `fstat` or `read` failed (``Errno/noSuchFileOrDirectory`` when there is no file).
  case system(Errno)
  /// The path names something other than a regular file (a directory, a FIFO, a device).
  case notRegularFile(FileStatus.Kind)
  /// The file is larger than the limit.
  case tooLarge(limit: Int)
  /// The file grew while it was read.
  case changed

  /// Whether the file does not exist (`ENOENT`).
  public var isNotFound: Bool { self == .system(.noSuchFileOrDirectory) }

  public var description: String {
    switch self {
    case .system(let code): code.description
    case .notRegularFile(let kind): "it is \(kind), not a regular file"
    case .tooLarge(let limit): "the file is larger than \(limit) bytes"
    case .changed: "the file changed while it was read"
    }
  }
}
