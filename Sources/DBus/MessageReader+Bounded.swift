import CDBus

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

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
    guard let value = try copy.readBounded(&budget) else {
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

  /// The next value if it fits in `budget` (which it uses up), `nil` as soon as it does not.
  private mutating func readBounded(_ budget: inout Int) throws(DBusError) -> DBusValue? {
    budget -= 8
    guard budget >= 0 else { return nil }
    switch nextCode {
    case TypeCode.string, TypeCode.objectPath, TypeCode.signature:
      var copy = iterator
      budget -= CDBus_getString(&copy).map { strlen($0) } ?? 0
      guard budget >= 0 else { return nil }
      return try readValue()
    case TypeCode.variant:
      var inner = try enter(TypeCode.variant)
      return try inner.readBounded(&budget).map { .variant($0) }
    case TypeCode.structure:
      var inner = try enter(TypeCode.structure)
      var members: [DBusValue] = []
      while !inner.isAtEnd {
        guard let member = try inner.readBounded(&budget) else { return nil }
        members.append(member)
      }
      return .structure(members)
    case TypeCode.array:
      var copy = iterator
      // Counted without reading: a fixed-size element type takes no walk at all.
      budget -= 8 * Int(dbus_message_iter_get_element_count(&copy))
      guard budget >= 0, let type = arrayType else { return nil }
      var inner = try enter(TypeCode.array)
      switch type {
      case .dictionary(let keyType, let valueType):
        var entries: [DBusValue.DictionaryEntry] = []
        while !inner.isAtEnd {
          var entry = try inner.enter(TypeCode.dictEntry)
          guard let key = try entry.readBounded(&budget), let value = try entry.readBounded(&budget)
          else { return nil }
          entries.append(.init(key, value))
        }
        return .dictionary(key: keyType, value: valueType, entries)
      case .array(let element):
        var values: [DBusValue] = []
        while !inner.isAtEnd {
          guard let value = try inner.readBounded(&budget) else { return nil }
          values.append(value)
        }
        return .array(element: element, values)
      default:
        return nil
      }
    default:
      return try readValue()
    }
  }
}
