#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Reading `config.json` with POSIX calls, so a missing file (the defaults)
/// is told apart from one that cannot be read.
enum ConfigurationFile {
  struct ReadFailure: Error, CustomStringConvertible {
    var description: String
  }

  /// The file's bytes, or `nil` when it does not exist.
  ///
  /// - Throws: ``ReadFailure`` when it exists but cannot be read or is larger than `limit`.
  static func read(_ path: String, limit: Int) throws(ReadFailure) -> [UInt8]? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      if errno == ENOENT { return nil }
      throw ReadFailure(description: "cannot open: \(String(cString: strerror(errno)))")
    }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 16_384)
    while true {
      let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count >= 0 else {
        throw ReadFailure(description: "cannot read: \(String(cString: strerror(errno)))")
      }
      if count == 0 { return bytes }
      bytes.append(contentsOf: chunk[..<count])
      guard bytes.count <= limit else {
        throw ReadFailure(description: "larger than \(limit) bytes")
      }
    }
  }
}
