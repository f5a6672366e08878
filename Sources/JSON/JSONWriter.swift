/// Writes JSON text straight into a growing byte buffer, keys in the order they are written.
///
/// Every JSON ShieldBridge prints goes through this one writer: ``JSONValue``'s
/// serialisation, the embedded notification server's record, and
/// `link parse --json`, which writes a million lines a second. So it is a
/// non-copyable struct over a raw buffer, passed `inout`, with `@inlinable`
/// methods: a `[UInt8]`'s uniqueness check on every appended byte, or a
/// class's retain and release around every call, took a third of
/// `link parse --json`'s time.
///
/// The writer places the commas: a value or key written after another value
/// gets one. One flag is enough for that, because whatever ends a value (a
/// scalar, `endObject()`, `endArray()`) is followed by a comma, and whatever
/// opens a container or names a key is not. ``newline()`` ends a JSON line,
/// so that the next value starts a new one.
///
/// Strings are escaped by one rule, that of ``JSONValue/serialized``:
/// `"` and `\` with a backslash, line feed, carriage return and tab as `\n`,
/// `\r`, `\t`, the other control characters and DEL as `\u00XX` (lowercase
/// hex), and U+2028 and U+2029 as `\u2028` and `\u2029` so that a line is also
/// valid JavaScript. Everything else, non-ASCII included, is copied as UTF-8.
public struct JSONWriter: ~Copyable {
  @usableFromInline var storage: UnsafeMutablePointer<UInt8>
  @usableFromInline var capacity: Int
  @usableFromInline var byteCount = 0
  /// Whether the next value or key follows a value, and so needs a comma first.
  @usableFromInline var needsSeparator = false

  /// A writer with room for `capacity` bytes before it first grows.
  @inlinable
  public init(capacity: Int = 512) {
    self.capacity = max(capacity, 64)
    storage = .allocate(capacity: self.capacity)
  }

  deinit {
    storage.deallocate()
  }

  // MARK: The bytes written

  /// The number of bytes written so far.
  public var count: Int { byteCount }

  /// Calls `body` with the bytes written so far, without copying them.
  @inlinable
  public func withBytes<R, E: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R) throws(E) -> R {
    try body(UnsafeBufferPointer(start: storage, count: byteCount))
  }

  /// A copy of the bytes written so far.
  public var bytes: [UInt8] {
    withBytes { Array($0) }
  }

  /// The bytes written so far as a string (they are UTF-8 when only this writer's methods wrote them).
  public var text: String {
    withBytes { String(decoding: $0, as: UTF8.self) }
  }

  /// Forgets what was written and starts a new line, keeping the buffer for the next one.
  @inlinable
  public mutating func removeAll() {
    byteCount = 0
    needsSeparator = false
  }

  /// Forgets the bytes written so far, but not where the writer is in the
  /// JSON: for a caller that hands a long value on in pieces (`report --json`).
  @inlinable
  public mutating func removeWrittenBytes() {
    byteCount = 0
  }

  // MARK: Structure

  /// Writes `{`; keys and values follow, then ``endObject()``.
  @inlinable
  public mutating func beginObject() {
    separate()
    append(UInt8(ascii: "{"))
    needsSeparator = false
  }

  /// Writes `}`.
  @inlinable
  public mutating func endObject() {
    append(UInt8(ascii: "}"))
    needsSeparator = true
  }

  /// Writes `[`; values follow, then ``endArray()``.
  @inlinable
  public mutating func beginArray() {
    separate()
    append(UInt8(ascii: "["))
    needsSeparator = false
  }

  /// Writes `]`.
  @inlinable
  public mutating func endArray() {
    append(UInt8(ascii: "]"))
    needsSeparator = true
  }

  /// Writes `"name":` for a name written in the code; the value written next belongs to it.
  ///
  /// The name is copied as it is, without the escaping check a ``key(escaping:)``
  /// pays for: a literal such as `"app_name"` has nothing to escape. Always
  /// inlined, so that a literal's length and representation are constants
  /// and the key is a few stores: `link parse --json` writes seven a line.
  @inlinable @inline(__always)
  public mutating func key(_ name: StaticString) {
    guard name.hasPointerRepresentation else {
      // A one-character literal is held as a scalar, not as bytes.
      key(scalar: name)
      return
    }
    let length = name.utf8CodeUnitCount
    assert(
      UnsafeBufferPointer(start: name.utf8Start, count: length).allSatisfy { !JSONWriter.needsEscape($0) },
      "a key literal must need no escaping")
    reserve(length + 4)
    var target = storage + byteCount
    if needsSeparator {
      target.pointee = UInt8(ascii: ",")
      target += 1
    }
    target.pointee = UInt8(ascii: "\"")
    JSONWriter.copy(name.utf8Start, to: target + 1, count: length)
    target[length + 1] = UInt8(ascii: "\"")
    target[length + 2] = UInt8(ascii: ":")
    byteCount = storage.distance(to: target) + length + 3
    needsSeparator = false
  }

  /// ``key(_:)`` for a one-character literal, out of line.
  @usableFromInline
  mutating func key(scalar name: StaticString) {
    key(escaping: name.description)
  }

  /// Writes `"name":` for a name from data, escaped; the value written next belongs to it.
  @inlinable
  public mutating func key(escaping name: String) {
    separate()
    append(quoted: name)
    append(UInt8(ascii: ":"))
    needsSeparator = false
  }

  /// Ends a JSON line with a line feed; the next value starts a new line, without a comma.
  @inlinable
  public mutating func newline() {
    append(0x0A)
    needsSeparator = false
  }

  // MARK: Values

  /// Writes `text` as a JSON string.
  @inlinable
  public mutating func string(_ text: String) {
    separate()
    append(quoted: text)
    needsSeparator = true
  }

  /// Writes UTF-8 bytes as a JSON string, escaped as ``string(_:)-(String)`` escapes a string.
  ///
  /// For values that are never made into strings, such as those a link
  /// lends; `bytes` must be well-formed UTF-8.
  @inlinable @inline(__always)
  public mutating func string(utf8 bytes: UnsafeBufferPointer<UInt8>) {
    separate()
    append(quotedUTF8: bytes)
    needsSeparator = true
  }

  /// Writes `text` as a JSON string, or `null` when there is none.
  @inlinable
  public mutating func string(_ text: String?) {
    if let text { string(text) } else { null() }
  }

  /// Writes an integer in decimal, whatever its width (`UInt64.max` too).
  @inlinable
  public mutating func integer(_ value: some BinaryInteger) {
    separate()
    append(decimal: value)
    needsSeparator = true
  }

  /// Writes a number as ``JSONValue/number(_:)`` is written.
  ///
  /// A whole number below 10¹⁵ in magnitude is written as an integer (`3`, not
  /// `3.0`), any other as Swift's shortest round-trip form (`0.1`,
  /// `1000000000000000.0`, `1e+16`), and a number that is not finite, which
  /// JSON cannot hold, as `null`.
  public mutating func number(_ value: Double) {
    separate()
    if !value.isFinite {
      append(literal: "null")
    } else if abs(value) < 1e15, let integer = Int64(exactly: value) {
      append(decimal: integer)
    } else {
      append(value.description)
    }
    needsSeparator = true
  }

  /// Writes a finite number so that it reads back as the same double, always
  /// with a fraction or an exponent (`2.0`, `0.1`, `1e+300`): Swift's shortest
  /// round-trip form. A number that is not finite is written as `null`.
  public mutating func number(roundTrip value: Double) {
    separate()
    if value.isFinite { append(value.description) } else { append(literal: "null") }
    needsSeparator = true
  }

  /// Writes `true` or `false`.
  @inlinable
  public mutating func bool(_ value: Bool) {
    separate()
    if value { append(literal: "true") } else { append(literal: "false") }
    needsSeparator = true
  }

  /// Writes `null`.
  @inlinable
  public mutating func null() {
    separate()
    append(literal: "null")
    needsSeparator = true
  }

  /// Writes `"key":"value"`.
  @inlinable
  public mutating func member(_ key: StaticString, _ value: String) {
    self.key(key)
    string(value)
  }

  /// Writes `"key":"value"`, or `"key":null` when there is no value.
  @inlinable
  public mutating func member(_ key: StaticString, _ value: String?) {
    self.key(key)
    string(value)
  }

  /// Writes `"key":"value"` for a value in UTF-8 bytes; see ``string(utf8:)``.
  @inlinable @inline(__always)
  public mutating func member(_ key: StaticString, utf8 value: UnsafeBufferPointer<UInt8>) {
    self.key(key)
    string(utf8: value)
  }

  /// Writes `"key":"value"` for a value in UTF-8 bytes, or `"key":null` when there is no value.
  @inlinable @inline(__always)
  public mutating func member(_ key: StaticString, utf8 value: UnsafeBufferPointer<UInt8>?) {
    self.key(key)
    if let value { string(utf8: value) } else { null() }
  }

  /// Writes `"key":` and an integer.
  @inlinable @inline(__always)
  public mutating func member(_ key: StaticString, _ value: some BinaryInteger) {
    self.key(key)
    integer(value)
  }

  /// Writes `"key":true` or `"key":false`.
  @inlinable @inline(__always)
  public mutating func member(_ key: StaticString, _ value: Bool) {
    self.key(key)
    bool(value)
  }

  /// A comma when a value came before in the same container.
  @inlinable
  mutating func separate() {
    if needsSeparator { append(UInt8(ascii: ",")) }
  }

  // MARK: Raw bytes

  // These append without commas or any check, for the line feed at the end of
  // a line and for text formats that quote values as JSON does.

  /// Appends one byte.
  @inlinable
  public mutating func append(_ byte: UInt8) {
    reserve(1)
    storage[byteCount] = byte
    byteCount += 1
  }

  /// Appends `bytes` as they are.
  @inlinable
  public mutating func append(bytes: UnsafeBufferPointer<UInt8>) {
    guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
    reserve(bytes.count)
    JSONWriter.copy(base, to: storage + byteCount, count: bytes.count)
    byteCount += bytes.count
  }

  /// Appends a literal straight from the binary's constants.
  @inlinable
  public mutating func append(literal: StaticString) {
    if literal.hasPointerRepresentation {
      append(bytes: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    } else {
      literal.withUTF8Buffer { append(bytes: $0) }
    }
  }

  /// Appends the UTF-8 of `text` as it is.
  @inlinable
  public mutating func append(_ text: String) {
    JSONWriter.withUTF8(text) { append(bytes: $0) }
  }

  /// Appends an integer in decimal, with a `-` when it is negative.
  @inlinable
  public mutating func append(decimal value: some BinaryInteger) {
    if let number = Int64(exactly: value) {
      if number < 0 { append(UInt8(ascii: "-")) }
      append(digitsOf: number.magnitude)
    } else if let number = UInt64(exactly: value) {
      append(digitsOf: number)
    } else {
      append(String(value))
    }
  }

  // MARK: Internals

  /// Appends the decimal digits of `magnitude`, written from the last one straight into place.
  @inlinable
  mutating func append(digitsOf magnitude: UInt64) {
    var digits = 1
    var probe = magnitude
    while probe >= 10 {
      probe /= 10
      digits += 1
    }
    reserve(digits)
    var position = byteCount + digits
    var remaining = magnitude
    repeat {
      position -= 1
      storage[position] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: remaining % 10)
      remaining /= 10
    } while remaining > 0
    byteCount += digits
  }

  /// Makes room for `extra` more bytes.
  @inlinable @inline(__always)
  mutating func reserve(_ extra: Int) {
    if byteCount + extra > capacity { grow(to: byteCount + extra) }
  }

  @usableFromInline
  mutating func grow(to needed: Int) {
    var newCapacity = capacity * 2
    while newCapacity < needed { newCapacity *= 2 }
    let newStorage = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
    newStorage.update(from: storage, count: byteCount)
    storage.deallocate()
    storage = newStorage
    capacity = newCapacity
  }

  /// Copies `count` bytes; most are a few bytes long, for which two
  /// overlapping loads and stores beat a call to `memmove`.
  @inlinable @inline(__always)
  static func copy(_ source: UnsafePointer<UInt8>, to target: UnsafeMutablePointer<UInt8>, count: Int) {
    let from = UnsafeRawPointer(source)
    let to = UnsafeMutableRawPointer(target)
    if count > 16 {
      target.update(from: source, count: count)
    } else if count >= 8 {
      let first = from.loadUnaligned(as: UInt64.self)
      let last = from.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
      to.storeBytes(of: first, as: UInt64.self)
      to.storeBytes(of: last, toByteOffset: count &- 8, as: UInt64.self)
    } else if count >= 4 {
      let first = from.loadUnaligned(as: UInt32.self)
      let last = from.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
      to.storeBytes(of: first, as: UInt32.self)
      to.storeBytes(of: last, toByteOffset: count &- 4, as: UInt32.self)
    } else {
      for index in 0..<count { target[index] = source[index] }
    }
  }

  /// Calls `body` with the UTF-8 of `text`, without copying a native string.
  @inlinable
  static func withUTF8(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
    if text.utf8.withContiguousStorageIfAvailable(body) == nil {
      var text = text
      text.withUTF8(body)
    }
  }
}
