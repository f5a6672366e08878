extension FileSystem {
  /// Reads at most `limit` bytes from the start of a regular file, whatever size `fstat` tells.
  ///
  /// For the kernel's files under `/proc`, which `fstat` calls regular files
  /// of size 0 and ``readFile(_:limit:)`` therefore cannot read: this reads
  /// until the end or until `limit` bytes, and the caller sees the rest of a
  /// longer file cut off (for `/proc/PID/cmdline`, the first words are what
  /// matter). Like ``readFile(_:limit:)``, it opens without blocking and
  /// refuses anything but a regular file.
  ///
  /// - Throws: ``ReadFileError``; ``ReadFileError/isNotFound`` tells a missing
  ///   file (a process that has ended gives `ENOENT` or `ESRCH`).
  public static func readPrefix(_ path: String, limit: Int) throws(ReadFileError) -> [UInt8] {
    let descriptor: FileDescriptor
    do { descriptor = try FileDescriptor.open(path, [.readOnly, .nonBlocking]) } catch { throw .system(error) }
    let status: FileStatus
    do { status = try descriptor.status() } catch { throw .system(error) }
    guard status.kind == .regular else { throw .notRegularFile(status.kind) }
    let capacity = max(limit, 0)
    var failure: Errno?
    let bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
      while count < capacity {
        do throws(Errno) {
          let read = try descriptor.read(
            into: UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[count...])))
          if read == 0 { break }
          count += read
        } catch {
          failure = error
          break
        }
      }
    }
    if let failure { throw .system(failure) }
    return bytes
  }
}
