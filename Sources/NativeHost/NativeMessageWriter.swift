public import JSON
public import Posix

/// Writes native-messaging frames: the 32-bit length in the machine's byte order, then the JSON.
public struct NativeMessageWriter: Sendable {
  /// The longest message a host may send: 1 MB, the browsers' limit.
  public static let limit = 1 << 20

  public let descriptor: FileDescriptor

  public init(descriptor: FileDescriptor = .standardOutput) {
    self.descriptor = descriptor
  }

  /// The frame of `message`: its length, then its serialised JSON.
  ///
  /// - Returns: `nil` when the JSON is over ``limit``.
  public static func frame(_ message: JSONValue) -> [UInt8]? {
    let body = Array(message.serialized.utf8)
    guard body.count <= limit else { return nil }
    var length = UInt32(body.count)
    var frame = withUnsafeBytes(of: &length) { Array($0) }
    frame += body
    return frame
  }

  /// Writes `message` as one frame, with one `write` where the pipe takes it.
  ///
  /// - Throws: ``Errno`` when the write failed (`EPIPE`: the browser closed
  ///   the pipe), `EMSGSIZE` for a message over ``limit``, which is not written.
  public func write(_ message: JSONValue) throws(Errno) {
    guard let frame = Self.frame(message) else { throw .messageTooLong }
    try descriptor.writeAll(frame)
  }
}
