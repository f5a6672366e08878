#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The few file-system calls the module needs, straight on libc so that the
/// module stays free of Foundation and loads catalogs without its start-up cost.
enum FileSystem {
  /// Why a file could not be read.
  enum ReadError: Error, Equatable {
    /// `open`, `fstat` or `read` failed with this `errno`.
    case system(Int32)
    /// The file is larger than the limit given to ``readFile(_:limit:)``.
    case tooLarge(Int)
    /// The path names a directory or another non-regular file.
    case notRegularFile
    /// The file grew while it was read.
    case changed

    var description: String {
      switch self {
      case .system(let code): String(cString: strerror(code))
      case .tooLarge(let limit): "the file is larger than \(limit) bytes"
      case .notRegularFile: "not a regular file"
      case .changed: "the file changed while it was read"
      }
    }
  }

  /// Reads a whole regular file, refusing files over `limit` bytes.
  static func readFile(_ path: String, limit: Int) throws(ReadError) -> [UInt8] {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw .system(errno) }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw .system(errno) }
    guard (status.st_mode & S_IFMT) == S_IFREG else { throw .notRegularFile }
    guard status.st_size <= limit else { throw .tooLarge(limit) }
    // Read into an array of the file's size (one more byte to see whether it grew).
    let capacity = Int(status.st_size) + 1
    var failure: Int32 = 0
    let bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
      while count < capacity {
        let result = read(descriptor, buffer.baseAddress.map { $0 + count }, capacity - count)
        if result < 0 {
          if errno == EINTR { continue }
          failure = errno
          break
        }
        if result == 0 { break }
        count += result
      }
    }
    guard failure == 0 else { throw .system(failure) }
    guard bytes.count < capacity else { throw .changed }
    return bytes
  }

  /// The names in a directory, without `.` and `..`, sorted; `nil` when it cannot be listed.
  static func listDirectory(_ path: String) -> [String]? {
    guard let directory = opendir(path) else { return nil }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafePointer(to: &entry.pointee.d_name) { tuple in
        tuple.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: tuple.pointee)) {
          String(cString: $0)
        }
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
  }

  /// Whether `path` names a directory (following symbolic links).
  static func isDirectory(_ path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
  }

  /// Whether `path` names a regular file (following symbolic links).
  static func isRegularFile(_ path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
  }

  /// The path of the running executable, from `/proc/self/exe`.
  static func executablePath() -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard count > 0 else { return nil }
    return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// The current working directory.
  static func currentDirectory() -> String? {
    guard let pointer = getcwd(nil, 0) else { return nil }
    defer { free(pointer) }
    return String(cString: pointer)
  }

  /// This process's environment as a dictionary.
  static func environment() -> [String: String] {
    var result: [String: String] = [:]
    var pointer = environ
    while let entry = pointer.pointee {
      let text = String(cString: entry)
      if let equals = text.firstIndex(of: "=") {
        result[String(text[..<equals])] = String(text[text.index(after: equals)...])
      }
      pointer += 1
    }
    return result
  }
}

extension String {
  /// The path without its last component: `/a/b` → `/a`, `b` → `.`, `/a` → `/`.
  var parentPath: String {
    var path = Substring(self)
    while path.utf8.count > 1, path.utf8.last == UInt8(ascii: "/") { path = path.dropLast() }
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  /// This path with `component` appended.
  func appendingPath(_ component: String) -> String {
    utf8.last == UInt8(ascii: "/") ? self + component : self + "/" + component
  }

  /// The last path component: `/a/de.po` → `de.po`.
  var lastPathComponent: String {
    guard let slash = lastIndex(of: "/") else { return self }
    return String(self[index(after: slash)...])
  }
}
