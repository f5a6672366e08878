import DBus
import JSON

/// Writes one JSON object straight into bytes, keys in the order they are written.
///
/// The embedded server records every notification; building a `JSONValue`
/// tree first and escaping strings byte by byte cost it more than answering
/// the call. Strings with nothing to escape are copied whole; the others go
/// through `JSONValue.writeString`, so the output is the JSON module's.
struct JSONLineWriter {
  private(set) var bytes: [UInt8] = []
  /// Whether the innermost open object or array has no member yet.
  private var empty: [Bool] = []

  init(capacity: Int = 512) {
    bytes.reserveCapacity(capacity)
  }

  mutating func reset() {
    bytes.removeAll(keepingCapacity: true)
    empty.removeAll(keepingCapacity: true)
  }

  /// Ends the line.
  mutating func newline() {
    bytes.append(0x0A)
  }

  mutating func beginObject() {
    separate()
    bytes.append(UInt8(ascii: "{"))
    empty.append(true)
  }

  mutating func endObject() {
    empty.removeLast()
    bytes.append(UInt8(ascii: "}"))
  }

  mutating func beginArray() {
    separate()
    bytes.append(UInt8(ascii: "["))
    empty.append(true)
  }

  mutating func endArray() {
    empty.removeLast()
    bytes.append(UInt8(ascii: "]"))
  }

  /// Writes `"key":`; the value written next belongs to it.
  mutating func key(_ key: String) {
    separate()
    writeString(key)
    bytes.append(UInt8(ascii: ":"))
    // The value that follows needs no comma of its own.
    if !empty.isEmpty { empty[empty.count - 1] = true }
  }

  /// Writes `"key":"value"`.
  mutating func member(_ key: String, _ value: String) {
    self.key(key)
    string(value)
  }

  /// Writes `"key":value` for a number.
  mutating func member(_ key: String, _ value: some BinaryInteger) {
    self.key(key)
    integer(value)
  }

  mutating func string(_ value: String) {
    separate()
    writeString(value)
  }

  mutating func integer(_ value: some BinaryInteger) {
    separate()
    guard let number = Int64(exactly: value) else {
      bytes.append(contentsOf: String(value).utf8)
      return
    }
    if number < 0 { bytes.append(UInt8(ascii: "-")) }
    // The digits, last first, then reversed into place: no String in between.
    var magnitude = number.magnitude
    let start = bytes.count
    repeat {
      bytes.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
      magnitude /= 10
    } while magnitude > 0
    bytes[start...].reverse()
  }

  mutating func value(_ value: JSONValue) {
    separate()
    value.write(to: &bytes)
  }

  /// A D-Bus value as `DBusValue.json` has it, without building the tree.
  mutating func value(_ value: DBusValue) {
    switch value {
    case .string(let text): string(text)
    case .boolean(let flag): self.value(.bool(flag))
    case .byte, .int16, .uint16, .int32, .uint32, .int64:
      integer(value.integerValue ?? 0)
    case .variant(let inner): self.value(inner)
    case .array(_, let values), .structure(let values):
      beginArray()
      for element in values { self.value(element) }
      endArray()
    case .dictionary(let keyType, _, let entries)
    where keyType == .string || keyType == .objectPath || keyType == .signature:
      beginObject()
      for entry in entries {
        key(entry.key.stringValue ?? "")
        self.value(entry.value)
      }
      endObject()
    default:
      self.value(value.json)
    }
  }

  /// A comma before every member but the first of the innermost container.
  private mutating func separate() {
    guard !empty.isEmpty else { return }
    if empty[empty.count - 1] {
      empty[empty.count - 1] = false
    } else {
      bytes.append(UInt8(ascii: ","))
    }
  }

  private mutating func writeString(_ text: String) {
    var text = text
    let copied = text.withUTF8 { utf8 -> Bool in
      // 0xE2 may start U+2028 or U+2029, which the JSON module escapes too.
      for byte in utf8
      where byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F || byte == 0xE2 {
        return false
      }
      bytes.append(UInt8(ascii: "\""))
      bytes.append(contentsOf: utf8)
      bytes.append(UInt8(ascii: "\""))
      return true
    }
    if !copied { JSONValue.writeString(text, to: &bytes) }
  }
}
