// libdbus defines its type codes as character literals (`((int) 'y')`), which
// Swift does not import; these are the same values (`DBUS_TYPE_…` in
// dbus-protocol.h), spelled as the ASCII code of each letter.

/// The libdbus type codes, `DBUS_TYPE_…`.
enum TypeCode {
  /// `DBUS_TYPE_INVALID`.
  static let invalid = Int32(0)
  /// `DBUS_TYPE_BYTE`.
  static let byte = Int32(UInt8(ascii: "y"))
  /// `DBUS_TYPE_BOOLEAN`.
  static let boolean = Int32(UInt8(ascii: "b"))
  /// `DBUS_TYPE_INT16`.
  static let int16 = Int32(UInt8(ascii: "n"))
  /// `DBUS_TYPE_UINT16`.
  static let uint16 = Int32(UInt8(ascii: "q"))
  /// `DBUS_TYPE_INT32`.
  static let int32 = Int32(UInt8(ascii: "i"))
  /// `DBUS_TYPE_UINT32`.
  static let uint32 = Int32(UInt8(ascii: "u"))
  /// `DBUS_TYPE_INT64`.
  static let int64 = Int32(UInt8(ascii: "x"))
  /// `DBUS_TYPE_UINT64`.
  static let uint64 = Int32(UInt8(ascii: "t"))
  /// `DBUS_TYPE_DOUBLE`.
  static let double = Int32(UInt8(ascii: "d"))
  /// `DBUS_TYPE_STRING`.
  static let string = Int32(UInt8(ascii: "s"))
  /// `DBUS_TYPE_OBJECT_PATH`.
  static let objectPath = Int32(UInt8(ascii: "o"))
  /// `DBUS_TYPE_SIGNATURE`.
  static let signature = Int32(UInt8(ascii: "g"))
  /// `DBUS_TYPE_VARIANT`.
  static let variant = Int32(UInt8(ascii: "v"))
  /// `DBUS_TYPE_ARRAY`.
  static let array = Int32(UInt8(ascii: "a"))
  /// `DBUS_TYPE_STRUCT`.
  static let structure = Int32(UInt8(ascii: "r"))
  /// `DBUS_TYPE_DICT_ENTRY`.
  static let dictEntry = Int32(UInt8(ascii: "e"))
}
