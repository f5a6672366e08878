/// Replies that libxcb's iterators would walk by the lengths the server
/// claims, read here within the bytes the reply really has.
enum XWire {
  /// The pid in an X-Resource `QueryClientIds` reply (header 32 bytes, `num_ids` at
  /// offset 8; each id: client, mask, length in bytes, then the value).
  static func clientPid(inQueryClientIDsReply reply: UnsafeRawBufferPointer, mask wanted: UInt32) -> Int32? {
    guard reply.count >= 32 else { return nil }
    let count = reply.loadUnaligned(fromByteOffset: 8, as: UInt32.self)
    var offset = 32
    var seen: UInt32 = 0
    while seen < count, offset + 12 <= reply.count {
      let mask = reply.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
      let length = Int(reply.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self))
      let value = offset + 12
      guard length <= reply.count - value else { return nil }
      if mask & wanted != 0, length >= 4 {
        let pid = reply.loadUnaligned(fromByteOffset: value, as: UInt32.self)
        return pid > 0 && pid <= UInt32(Int32.max) ? Int32(pid) : nil
      }
      offset = value + (length + 3) / 4 * 4
      seen += 1
    }
    return nil
  }

  /// The counter named `name` in a SYNC `ListSystemCounters` reply (header 32 bytes,
  /// `counters_len` at offset 8; each counter: id, resolution (8 bytes), name length
  /// (2 bytes), the name, padded to 4 bytes).
  static func systemCounter(named name: String, inListReply reply: UnsafeRawBufferPointer) -> UInt32? {
    guard reply.count >= 32 else { return nil }
    let count = reply.loadUnaligned(fromByteOffset: 8, as: UInt32.self)
    let wanted = Array(name.utf8)
    var offset = 32
    var seen: UInt32 = 0
    while seen < count, offset + 14 <= reply.count {
      let counter = reply.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
      let length = Int(reply.loadUnaligned(fromByteOffset: offset + 12, as: UInt16.self))
      let start = offset + 14
      guard length <= reply.count - start else { return nil }
      if length == wanted.count, Array(reply[start..<start + length]) == wanted { return counter }
      offset = (start + length + 3) / 4 * 4
      seen += 1
    }
    return nil
  }
}
