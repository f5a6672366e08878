public import DBus
public import JSON

/// A notification as the embedded server received it: every argument of `Notify`, and who sent it.
public struct ReceivedNotification: Sendable {
  /// The id the server gave it.
  public var id: UInt32
  /// The `replaces_id` argument as sent (0 for a new notification).
  public var replacesID: UInt32
  /// The unique bus name of the connection that posted it; signals about it go there.
  public var sender: BusName?
  public var appName: String
  public var icon: String
  public var summary: String
  public var body: String
  /// The actions as key/label pairs (a trailing key without a label is dropped).
  public var actions: [Notification.Action]
  /// The hints in the order they arrived.
  public var hints: [(name: HintName, value: DBusValue)]
  /// The `expire_timeout` argument as sent.
  public var expireTimeout: Int32
  /// When it arrived, as an RFC 3339 UTC timestamp.
  public var time: String
  /// Whether the server cut a text or dropped an action or a hint to keep it
  /// within its limits (see ``NotificationServer/Configuration/textLimit``).
  public var truncated = false

  /// The value of the hint `name`, without its variant wrapper.
  public func hint(_ name: HintName) -> DBusValue? {
    hints.last { $0.name == name }?.value.unwrapped
  }

  /// Whether the `resident` hint is set: the notification stays after an action.
  public var isResident: Bool { hint(.resident)?.boolValue == true }

  /// The notification as one JSON object, fields in the order of the `Notify` arguments.
  public var json: JSONValue {
    var writer = JSONWriter()
    writer.beginObject()
    writeMembers(to: &writer)
    writer.endObject()
    return writer.withBytes { try? JSONValue(parsing: $0) } ?? .null
  }

  /// The bytes of ``json`` as the server writes it.
  var jsonByteCount: Int {
    var writer = JSONWriter()
    writer.beginObject()
    writeMembers(to: &writer)
    writer.endObject()
    return writer.count
  }

  /// Writes the members of ``json`` into an object that is open in `writer`.
  func writeMembers(to writer: inout JSONWriter) {
    writer.member("id", id)
    writer.member("replaces_id", replacesID)
    writer.member("sender", sender?.rawValue ?? "")
    writer.member("app_name", appName)
    writer.member("app_icon", icon)
    writer.member("summary", summary)
    writer.member("body", body)
    writer.key("actions")
    writer.beginArray()
    for action in actions {
      writer.beginObject()
      writer.member("key", action.key)
      writer.member("label", action.label)
      writer.endObject()
    }
    writer.endArray()
    writer.key("hints")
    writer.beginObject()
    for hint in hints {
      writer.key(escaping: hint.name.rawValue)
      writer.typedValue(hint.value)
    }
    writer.endObject()
    writer.member("expire_timeout", expireTimeout)
    writer.member("time", time)
    // Only when it is so: the members of every notification within the limits stay as they were.
    if truncated { writer.member("truncated", true) }
  }
}

extension DBusValue {
  /// The value as JSON: numbers, Booleans and strings as such, arrays and
  /// structures as arrays, dictionaries with string keys as objects (others
  /// as arrays of `[key, value]` pairs), variants as the value inside.
  public var json: JSONValue {
    switch self {
    case .byte(let value): .int(value)
    case .boolean(let value): .bool(value)
    case .int16(let value): .int(value)
    case .uint16(let value): .int(value)
    case .int32(let value): .int(value)
    case .uint32(let value): .int(value)
    case .int64(let value): .int(value)
    case .uint64(let value): Int64(exactly: value).map(JSONValue.integer) ?? .number(Double(value))
    case .double(let value): .number(value)
    case .string(let value): .string(value)
    case .objectPath(let value): .string(value.rawValue)
    case .signature(let value): .string(value.rawValue)
    case .variant(let inner): inner.json
    case .array(_, let values): .array(values.map(\.json))
    case .structure(let members): .array(members.map(\.json))
    case .dictionary(let key, _, let entries):
      if key == .string || key == .objectPath || key == .signature {
        .object(entries.map { ($0.key.stringValue ?? "", $0.value.json) })
      } else {
        .array(entries.map { .array([$0.key.json, $0.value.json]) })
      }
    }
  }
}
