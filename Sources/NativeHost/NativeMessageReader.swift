public import Posix

/// Reads native-messaging frames: a 32-bit length in the machine's byte
/// order, then that many bytes (UTF-8 JSON, which the reader does not look at).
///
/// It reads with blocking `read` calls on its descriptor, exactly the bytes
/// of one frame at a time, so nothing of the next frame is taken early.
/// Memory stays bounded by ``limit``: a longer length is refused before any
/// of its body is read.
public struct NativeMessageReader: Sendable {
  /// The longest message the host takes from the browser: 64 KiB.
  ///
  /// Ours are a few dozen bytes (a site name at most 253); a browser may
  /// send up to 4 GiB, which no host should allocate on a stranger's word.
  public static let defaultLimit = 64 << 10

  public let descriptor: FileDescriptor
  public let limit: Int

  public init(descriptor: FileDescriptor = .standardInput, limit: Int = NativeMessageReader.defaultLimit) {
    self.descriptor = descriptor
    self.limit = limit
  }

  /// The next message's bytes, or `nil` when the input ended between messages.
  ///
  /// - Throws: ``NativeMessageError`` for a length over ``limit``, an input
  ///   that ends inside a frame, or a failed read; the stream cannot go on after any of them.
  public func next() throws(NativeMessageError) -> [UInt8]? {
    var prefix = [UInt8](repeating: 0, count: 4)
    let got = try fill(&prefix)
    if got == 0 { return nil }
    guard got == 4 else { throw .truncated(part: .lengthPrefix, received: got, expected: 4) }
    let length = prefix.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
    guard Int(length) <= limit else { throw .tooLong(length: length, limit: limit) }
    var body = [UInt8](repeating: 0, count: Int(length))
    let received = try fill(&body)
    guard received == body.count else {
      throw .truncated(part: .body, received: received, expected: body.count)
    }
    return body
  }

  /// Reads until `buffer` is full or the input ends; returns how much was read.
  private func fill(_ buffer: inout [UInt8]) throws(NativeMessageError) -> Int {
    do throws(Errno) {
      return try descriptor.readAll(into: &buffer)
    } catch {
      throw .read(error)
    }
  }
}
