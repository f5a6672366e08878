/// The answers of the link commands, collected as bytes until stdin has no
/// more to give at once, then written in one go.
///
/// A non-copyable struct over a raw buffer, passed `inout`: at a million
/// lines a second, a `[UInt8]`'s uniqueness check on every appended byte, or
/// a class's retain and release around every call, took a third of
/// `link parse --json`'s time.
struct LinkOutput: ~Copyable {
  private var storage: UnsafeMutablePointer<UInt8>
  private var capacity: Int
  private(set) var count = 0

  init(capacity: Int = 1 << 17) {
    self.capacity = max(capacity, 64)
    storage = .allocate(capacity: self.capacity)
  }

  deinit {
    storage.deallocate()
  }

  /// Makes room for `extra` more bytes.
  @inline(__always)
  private mutating func reserve(_ extra: Int) {
    if count + extra > capacity { grow(to: count + extra) }
  }

  private mutating func grow(to needed: Int) {
    var newCapacity = capacity * 2
    while newCapacity < needed { newCapacity *= 2 }
    let newStorage = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
    newStorage.update(from: storage, count: count)
    storage.deallocate()
    storage = newStorage
    capacity = newCapacity
  }

  mutating func append(_ byte: UInt8) {
    reserve(1)
    storage[count] = byte
    count += 1
  }

  mutating func append(bytes: UnsafeBufferPointer<UInt8>) {
    guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
    reserve(bytes.count)
    LinkOutput.copy(base, to: storage + count, count: bytes.count)
    count += bytes.count
  }

  /// Appends a literal, such as `{"ok":true,"action":`, straight from the binary's constants.
  mutating func append(literal: StaticString) {
    append(bytes: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
  }

  /// Copies `count` bytes; most are a few bytes long, for which a loop beats a call to `memmove`.
  @inline(__always)
  private static func copy(_ source: UnsafePointer<UInt8>, to target: UnsafeMutablePointer<UInt8>, count: Int) {
    if count > 16 {
      target.update(from: source, count: count)
      return
    }
    for index in 0..<count { target[index] = source[index] }
  }

  mutating func append(_ text: String) {
    LinkOutput.withUTF8(text) { append(bytes: $0) }
  }

  /// Appends a value known to need no escaping (a token, a key, a scheme) in quotes.
  mutating func appendQuoted(_ token: String) {
    LinkOutput.withUTF8(token) { bytes in
      reserve(bytes.count + 2)
      storage[count] = UInt8(ascii: "\"")
      if let base = bytes.baseAddress { LinkOutput.copy(base, to: storage + count + 1, count: bytes.count) }
      storage[count + 1 + bytes.count] = UInt8(ascii: "\"")
      count += bytes.count + 2
    }
  }

  /// Calls `body` with the UTF-8 of `text`, without copying a native string.
  private static func withUTF8(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
    if text.utf8.withContiguousStorageIfAvailable(body) == nil {
      var text = text
      text.withUTF8(body)
    }
  }

  /// Appends `number`, which is not negative, in decimal.
  mutating func append(decimal number: Int) {
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for the 20 digits of any Int
    withUnsafeMutableBytes(of: &digits) { buffer in
      var remaining = number.magnitude
      var start = buffer.count
      repeat {
        start -= 1
        buffer[start] = UInt8(ascii: "0") + UInt8(remaining % 10)
        remaining /= 10
      } while remaining > 0
      append(
        bytes: UnsafeBufferPointer(
          start: buffer.baseAddress.map { $0.assumingMemoryBound(to: UInt8.self) + start }, count: buffer.count - start)
      )
    }
  }

  /// Appends `text` as a quoted JSON string, escaped as ``JSONValue`` escapes
  /// it: `"`, `\`, control characters, and U+2028 and U+2029.
  mutating func appendJSONString(_ text: String) {
    LinkOutput.withUTF8(text) { bytes in
      // Every byte escaped is at most six bytes, plus the quotes.
      reserve(bytes.count * 6 + 2)
      storage[count] = UInt8(ascii: "\"")
      count += 1
      var start = 0
      var index = 0
      while index < bytes.count {
        let byte = bytes[index]
        let isSeparator =
          byte == 0xE2 && index + 2 < bytes.count && bytes[index + 1] == 0x80
          && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9)
        guard byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F || isSeparator else {
          index += 1
          continue
        }
        append(bytes: UnsafeBufferPointer(rebasing: bytes[start..<index]))
        switch byte {
        case 0x22: append(literal: #"\""#)
        case 0x5C: append(literal: #"\\"#)
        case 0x0A: append(literal: #"\n"#)
        case 0x0D: append(literal: #"\r"#)
        case 0x09: append(literal: #"\t"#)
        case 0xE2:
          append(literal: bytes[index + 2] == 0xA8 ? #"\u2028"# : #"\u2029"#)
          index += 2
        default:
          append(literal: #"\u00"#)
          append(LinkOutput.hexDigits[Int(byte >> 4)])
          append(LinkOutput.hexDigits[Int(byte & 0x0F)])
        }
        index += 1
        start = index
      }
      append(bytes: UnsafeBufferPointer(rebasing: bytes[start..<index]))
      append(UInt8(ascii: "\""))
    }
  }

  private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

  /// Writes what was collected to stdout, flushes it, and starts again.
  mutating func write() {
    guard count > 0 else { return }
    Output.out(bytes: Array(UnsafeBufferPointer(start: storage, count: count)))
    Output.flush()
    count = 0
  }
}
