import Posix

/// Reading `config.json` through Posix, so a missing file (the defaults) is
/// told apart from one that cannot be read, in the words users have always seen.
enum ConfigurationFile {
  struct ReadFailure: Error, CustomStringConvertible {
    var description: String
  }

  /// The file's bytes, or `nil` when it does not exist.
  ///
  /// - Throws: ``ReadFailure`` when it exists but cannot be read or is larger than `limit`.
  static func read(_ path: String, limit: Int) throws(ReadFailure) -> [UInt8]? {
    do {
      return try FileSystem.readFileIfPresent(path, limit: limit)
    } catch {
      switch error {
      case .system(let code): throw ReadFailure(description: "cannot open: \(code)")
      case .notRegularFile(.directory): throw ReadFailure(description: "cannot read: \(Errno.isDirectory)")
      case .notRegularFile, .changed: throw ReadFailure(description: "cannot read: \(error)")
      case .tooLarge: throw ReadFailure(description: "larger than \(limit) bytes")
      }
    }
  }
}
