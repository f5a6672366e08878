#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension FileSystem {
  /// Hands the bytes of a regular file of at most `limit` bytes to `body`;
  /// `nil` when the file does not exist.
  ///
  /// Refused as ``readFile(_:limit:)`` refuses (opened without blocking, a
  /// FIFO, a device or a directory refused at once, the limit checked with
  /// `fstat`, a file that grows while it is read). The bytes are read into
  /// memory mapped for them and faulted in one go (`MAP_POPULATE`), not into
  /// an array whose pages fault one by one: for a file of megabytes that is
  /// most of the cost of reading it. A copy, not a mapping of the file, so a
  /// file cut short in place while it is read gives fewer bytes, never a
  /// fault. The bytes are valid only inside `body`.
  ///
  /// - Throws: ``ReadFileError``, never ``ReadFileError/isNotFound``.
  public static func withFileBytesIfPresent<Result>(
    _ path: String, limit: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result
  ) throws(ReadFileError) -> Result? {
    let descriptor: FileDescriptor
    let size: Int64
    do {
      (descriptor, size) = try openRegularFile(path)
    } catch  where error.isNotFound {
      return nil
    }
    guard size <= limit else { throw .tooLarge(limit: limit) }
    // One byte more than `fstat` says, to see a file that grows while it is read.
    let capacity = Int(size) + 1
    let address = mmap(nil, capacity, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0)
    guard let address, address != UnsafeMutableRawPointer(bitPattern: -1) else { throw .system(Errno.current) }
    defer { munmap(address, capacity) }
    let count: Int
    do {
      count = try descriptor.readAll(into: UnsafeMutableRawBufferPointer(start: address, count: capacity))
    } catch {
      throw .system(error)
    }
    guard count < capacity else { throw .changed }
    return body(UnsafeBufferPointer(start: address.assumingMemoryBound(to: UInt8.self), count: count))
  }
}
