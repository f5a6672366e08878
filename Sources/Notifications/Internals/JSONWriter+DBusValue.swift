import DBus
import JSON

extension JSONWriter {
  /// A D-Bus value as `DBusValue.json` has it, without building the tree.
  ///
  /// The embedded server records every notification with its hints; building
  /// a `JSONValue` tree first cost it more than answering the call.
  mutating func value(_ value: DBusValue) {
    switch value {
    case .string(let text): string(text)
    case .boolean(let flag): bool(flag)
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
        key(escaping: entry.key.stringValue ?? "")
        self.value(entry.value)
      }
      endObject()
    default:
      self.value(value.json)
    }
  }
}
