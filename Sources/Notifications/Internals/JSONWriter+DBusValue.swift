import DBus
import JSON

extension JSONWriter {
  /// A hint's value as the record keeps it: its D-Bus signature and its exact value.
  ///
  /// `{"signature":"t","value":18446744073709551615}`: the value inside the
  /// hint's variant, so that a record is a faithful copy of what the client
  /// sent, every type told apart. Written straight into the writer: the
  /// embedded server records every notification with its hints, and building
  /// a `JSONValue` tree first cost it more than answering the call.
  mutating func typedValue(_ value: DBusValue) {
    // Every hint arrives in a variant (a{sv}); the signature is what it holds.
    let held: DBusValue
    if case .variant(let inner) = value { held = inner } else { held = value }
    beginObject()
    member("signature", held.type.description)
    key("value")
    exactValue(held)
    endObject()
  }

  /// A D-Bus value with nothing lost, its type given by the signature beside it.
  ///
  /// Integers of every width in full (`UInt64.max` too); a double always with
  /// a fraction or an exponent (`2.0`, `1e+300`), and one that is not finite
  /// as the string `NaN`, `Infinity` or `-Infinity`, which JSON cannot hold as
  /// numbers; arrays and structures as arrays; a dictionary as an object
  /// whose keys are its keys as text (`7`, `true`, `2.5`), in the order sent;
  /// a variant inside as a `{"signature":…,"value":…}` object of its own.
  mutating func exactValue(_ value: DBusValue) {
    switch value {
    case .byte(let number): integer(number)
    case .boolean(let flag): bool(flag)
    case .int16(let number): integer(number)
    case .uint16(let number): integer(number)
    case .int32(let number): integer(number)
    case .uint32(let number): integer(number)
    case .int64(let number): integer(number)
    case .uint64(let number): integer(number)
    case .double(let number):
      if number.isFinite {
        self.number(roundTrip: number)
      } else {
        string(Self.exactText(number))
      }
    case .string(let text): string(text)
    case .objectPath(let path): string(path.rawValue)
    case .signature(let signature): string(signature.rawValue)
    case .variant(let inner):
      beginObject()
      member("signature", inner.type.description)
      key("value")
      exactValue(inner)
      endObject()
    case .array(_, let values), .structure(let values):
      beginArray()
      for element in values { exactValue(element) }
      endArray()
    case .dictionary(_, _, let entries):
      beginObject()
      for entry in entries {
        key(escaping: Self.keyText(entry.key))
        exactValue(entry.value)
      }
      endObject()
    }
  }

  /// A double as text that reads back as the same double, and as a double.
  ///
  /// Swift's shortest round-trip form, which has a `.` or an `e` for every
  /// finite value (`2.0`, `0.1`, `1e-300`).
  static func exactText(_ number: Double) -> String {
    if number.isNaN { return "NaN" }
    if number.isInfinite { return number < 0 ? "-Infinity" : "Infinity" }
    return number.description
  }

  /// A dictionary key (always a basic type) as an object key.
  static func keyText(_ key: DBusValue) -> String {
    switch key {
    case .byte(let number): String(number)
    case .boolean(let flag): flag ? "true" : "false"
    case .int16(let number): String(number)
    case .uint16(let number): String(number)
    case .int32(let number): String(number)
    case .uint32(let number): String(number)
    case .int64(let number): String(number)
    case .uint64(let number): String(number)
    case .double(let number): exactText(number)
    case .string(let text): text
    case .objectPath(let path): path.rawValue
    case .signature(let signature): signature.rawValue
    // Not a basic type: D-Bus allows none as a key.
    case .variant, .array, .dictionary, .structure: ""
    }
  }
}
