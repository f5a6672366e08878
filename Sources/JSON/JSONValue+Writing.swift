extension JSONValue {
  /// The value as compact JSON text on one line (RFC 8259), keys in their order.
  ///
  /// Written by ``JSONWriter``: non-ASCII characters as they are (UTF-8);
  /// control characters, `"` and `\` escaped, and so are U+2028 and U+2029 so
  /// that the line is also valid JavaScript. A number that is not finite is
  /// written as `null`.
  public var serialized: String {
    var writer = JSONWriter(capacity: 64)
    writer.value(self)
    return writer.text
  }

  /// Appends the compact JSON text of the value to `output`.
  public func write(to output: inout [UInt8]) {
    var writer = JSONWriter(capacity: 64)
    writer.value(self)
    writer.withBytes { output.append(contentsOf: $0) }
  }
}

extension JSONWriter {
  /// Writes `value`, keys in their order, numbers as ``number(_:)`` writes them.
  public mutating func value(_ value: JSONValue) {
    switch value {
    case .null: null()
    case .bool(let flag): bool(flag)
    case .integer(let number): integer(number)
    case .number(let number): self.number(number)
    case .string(let text): string(text)
    case .array(let values):
      beginArray()
      for element in values { self.value(element) }
      endArray()
    case .object(let members):
      beginObject()
      for (key, member) in members {
        self.key(escaping: key)
        self.value(member)
      }
      endObject()
    }
  }
}
