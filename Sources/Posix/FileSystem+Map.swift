#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension FileSystem {
  /// Hands the bytes of a regular file of at most `limit` bytes to `body`,
  /// mapped read-only rather than copied; `nil` when the file does not exist.
  ///
  /// Refused as ``readFile(_:limit:)`` refuses (opened without blocking, a
  /// FIFO, a device or a directory refused at once, the limit checked with
  /// `fstat`). The pages are the page cache's, mapped in one go
  /// (`MAP_POPULATE`): no copy and no zeroed memory, which for a file of
  /// megabytes is most of the cost of reading it. The bytes are valid only
  /// inside `body`. Only for files replaced by renaming a new one over them
  /// (``replaceAtomically(_:with:permissions:)``): the mapping then keeps the
  /// old file whole, whereas a file cut short in place while mapped would
  /// fault when its lost end is read.
  ///
  /// - Throws: ``ReadFileError``, never ``ReadFileError/isNotFound``.
  public static func withMappedFileIfPresent<Result>(
    _ path: String, limit: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result
  ) throws(ReadFileError) -> Result? {
    let descriptor: FileDescriptor
    do {
      descriptor = try FileDescriptor.open(path, [.readOnly, .nonBlocking])
    } catch {
      let failure = ReadFileError.system(error)
      if failure.isNotFound { return nil }
      throw failure
    }
    let status: FileStatus
    do { status = try descriptor.status() } catch { throw .system(error) }
    guard status.kind == .regular else { throw .notRegularFile(status.kind) }
    guard status.size <= limit else { throw .tooLarge(limit: limit) }
    let size = Int(status.size)
    if size == 0 { return body(UnsafeBufferPointer(start: nil, count: 0)) }
    let address = mmap(nil, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, descriptor.rawValue, 0)
    guard let address, address != UnsafeMutableRawPointer(bitPattern: -1) else {
      throw .system(Errno.current)
    }
    defer { munmap(address, size) }
    return body(UnsafeBufferPointer(start: address.assumingMemoryBound(to: UInt8.self), count: size))
  }
}
