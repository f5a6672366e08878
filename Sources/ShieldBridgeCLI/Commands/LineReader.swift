#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Reads stdin line by line without ever holding more than a bounded line.
///
/// A line longer than ``maximumLength`` is cut there (the rest is skipped), so
/// endless input without a line end cannot fill the memory.
struct LineReader {
  static let maximumLength = 4096

  private var buffer: [UInt8] = []
  private var atEnd = false

  /// The next line without its line end, or `nil` at the end of input.
  ///
  /// A last line without a line end is still returned.
  mutating func next() -> String? {
    var line: [UInt8] = []
    while true {
      if let newline = buffer.firstIndex(of: 0x0A) {
        append(buffer[..<newline], to: &line)
        buffer.removeSubrange(...newline)
        return String(decoding: line, as: UTF8.self)
      }
      append(buffer[...], to: &line)
      buffer.removeAll(keepingCapacity: true)
      if atEnd || !fill() {
        atEnd = true
        return line.isEmpty ? nil : String(decoding: line, as: UTF8.self)
      }
    }
  }

  private func append(_ bytes: ArraySlice<UInt8>, to line: inout [UInt8]) {
    line.append(contentsOf: bytes.prefix(max(0, LineReader.maximumLength - line.count)))
  }

  /// Reads more from fd 0; `false` at the end of input or on an error.
  private mutating func fill() -> Bool {
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return false }
      buffer.append(contentsOf: chunk[..<count])
      return true
    }
  }
}
