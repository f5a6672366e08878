import CDBus

extension MessageReader {
  /// Reads the next argument as ``readValue()`` does, unless it is larger
  /// than `limit`: then it is skipped, nothing of it is built, and the result is `nil`.
  ///
  /// A message the bus delivered can hold an array of 64 MiB; built as
  /// ``DBusValue``s, an array of bytes takes many times that. The size counts
  /// 8 for every value and the bytes of every string, before the value is built.
  ///
  /// - Throws: as ``readValue()``.
  public mutating func readValue(limit: Int) throws(DBusError) -> DBusValue? {
    var budget = limit
    var copy = self
    guard let value = try copy.readValue(within: &budget) else {
      dbus_message_iter_next(&iterator)
      return nil
    }
    self = copy
    return value
  }

  /// Reads a dictionary with string keys and variant values (`a{sv}`, hints),
  /// each value as ``readValue(limit:)`` does: one over `limit` is `nil`.
  ///
  /// - Throws: `org.freedesktop.DBus.Error.InvalidArgs` when the next argument is not an `a{sv}`.
  public mutating func readVariantEntries(limit: Int) throws(DBusError) -> [(
    key: String, value: DBusValue?
  )] {
    var inner = try enterArray(.dictionary(key: .string, value: .variant))
    var entries: [(key: String, value: DBusValue?)] = []
    while !inner.isAtEnd {
      var entry = try inner.enterEntry()
      let key = try entry.readString(TypeCode.string)
      var variant = try entry.enter(TypeCode.variant)
      entries.append((key, try variant.readValue(limit: limit)))
    }
    return entries
  }

  /// Reads an array of strings (`as`), at most its first `count`; the rest
  /// are skipped without being built, and `complete` says whether there were none.
  ///
  /// - Throws: `org.freedesktop.DBus.Error.InvalidArgs` when the next argument is not an `as`.
  public mutating func readStrings(atMost count: Int) throws(DBusError) -> (
    strings: [String], complete: Bool
  ) {
    var inner = try enterArray(.array(.string))
    var strings: [String] = []
    while !inner.isAtEnd, strings.count < count {
      strings.append(try inner.readString(TypeCode.string))
    }
    return (strings, inner.isAtEnd)
  }
}
