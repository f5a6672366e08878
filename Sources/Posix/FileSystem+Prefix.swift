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
    try readRegularFile(path) { _ in max(limit, 0) }
  }
}
