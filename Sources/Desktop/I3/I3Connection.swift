import JSON
import Posix

/// One connection to an i3 or sway IPC socket: framed messages out and in, every read bounded.
///
/// A message is `i3-ipc`, a 32-bit payload length and a 32-bit type (both in
/// the machine's byte order), then the payload (JSON). A length over
/// ``maximumPayload`` is never buffered: the connection is dropped with an
/// error, because skipping 100 MB would mean reading them. Once a message has
/// begun, the rest must come within ``partTimeout``: a peer that sends half a
/// message and stalls cannot hold a reader. Not thread-safe: one owner at a time.
final class I3Connection {
  /// The largest payload read (16 MiB: i3's largest trees are a few hundred KiB).
  static let maximumPayload = 16 << 20
  /// How long the rest of a message that has begun may take.
  static let partTimeout = Duration.seconds(5)
  /// How long a reply to a request may take.
  static let replyTimeout = Duration.seconds(5)
  static let magic = Array("i3-ipc".utf8)
  static let headerSize = 14

  let socket: FileDescriptor
  let path: String
  private var buffer: [UInt8] = []
  private var start = 0
  /// What one `read` fills, made once: a window event is read without allocating.
  private var chunk = [UInt8](repeating: 0, count: 64 * 1024)

  /// What ``receive(wake:deadline:)`` returns.
  enum Received {
    case message(I3MessageType, [UInt8])
    /// The wake descriptor became readable (someone stops the reader).
    case woken
  }

  /// Connects to the socket at `path`.
  ///
  /// - Throws: ``DesktopError`` naming the socket and why.
  init(path: String) throws(DesktopError) {
    self.path = path
    do {
      socket = try FileDescriptor.connectUnixSocket(path)
    } catch {
      throw DesktopError("cannot connect to the IPC socket \(path): \(error)")
    }
  }

  func close() {
    try? socket.close()
  }

  /// Sends one message.
  ///
  /// - Throws: ``DesktopError`` when the socket is closed or the write fails.
  func send(_ type: I3MessageType, _ payload: String) throws(DesktopError) {
    let body = Array(payload.utf8)
    var message = Self.magic
    withUnsafeBytes(of: UInt32(body.count)) { message.append(contentsOf: $0) }
    withUnsafeBytes(of: type.rawValue) { message.append(contentsOf: $0) }
    message.append(contentsOf: body)
    do { try socket.sendAll(message) } catch { throw DesktopError("cannot write to the IPC socket \(path): \(error)") }
  }

  /// Sends a request and returns its reply's JSON (events on the way are skipped).
  ///
  /// - Throws: ``DesktopError`` when the reply does not come within
  ///   ``replyTimeout``, is too large, is not JSON, or the socket closes.
  func request(_ type: I3MessageType, _ payload: String = "") throws(DesktopError) -> JSONValue {
    try send(type, payload)
    let deadline = ContinuousClock.now + Self.replyTimeout
    while true {
      guard case .message(let replyType, let body) = try receive(wake: nil, deadline: deadline) else { continue }
      if replyType.isEvent { continue }
      guard replyType == type else {
        throw DesktopError("the IPC socket \(path) answered a request of type \(type) with type \(replyType)")
      }
      return try Self.parse(body, from: path)
    }
  }

  /// Parses a payload as JSON.
  ///
  /// - Throws: ``DesktopError`` saying where the JSON is broken (never quoting it: it may hold titles).
  static func parse(_ payload: [UInt8], from path: String) throws(DesktopError) -> JSONValue {
    do {
      return try JSONValue(parsing: payload)
    } catch {
      throw DesktopError("the IPC socket \(path) sent malformed JSON (\(payload.count) bytes): \(error)")
    }
  }

  /// Reads the next message.
  ///
  /// - Parameters:
  ///   - wake: A descriptor whose readability ends the wait (``Received/woken``).
  ///   - deadline: When the wait for the message's first byte ends (`nil`:
  ///     never); the rest comes within ``partTimeout`` of the first byte, or
  ///     by `deadline` if that is later.
  /// - Throws: ``DesktopError`` when the peer closed, sent a bad header or
  ///   a length over ``maximumPayload``, or did not send in time.
  func receive(wake: FileDescriptor?, deadline: ContinuousClock.Instant?) throws(DesktopError) -> Received {
    var deadline = deadline
    while available < Self.headerSize {
      if available > 0, deadline == nil { deadline = ContinuousClock.now + Self.partTimeout }
      if try fill(wake: wake, deadline: deadline) == false { return .woken }
    }
    guard buffer[start..<(start + 6)].elementsEqual(Self.magic) else {
      throw DesktopError("the IPC socket \(path) sent something that is not an i3 IPC message")
    }
    let (length, type) = buffer.withUnsafeBytes { raw in
      (
        raw.loadUnaligned(fromByteOffset: start + 6, as: UInt32.self),
        raw.loadUnaligned(fromByteOffset: start + 10, as: UInt32.self)
      )
    }
    guard length <= Self.maximumPayload else {
      throw DesktopError(
        "the IPC socket \(path) announced a message of \(length) bytes, more than the \(Self.maximumPayload) read")
    }
    let total = Self.headerSize + Int(length)
    let partDeadline = ContinuousClock.now + Self.partTimeout
    let restDeadline = deadline.map { max($0, partDeadline) } ?? partDeadline
    while available < total {
      if try fill(wake: wake, deadline: restDeadline) == false { return .woken }
    }
    let payload = Array(buffer[(start + Self.headerSize)..<(start + total)])
    start += total
    return .message(I3MessageType(rawValue: type), payload)
  }

  private var available: Int { buffer.count - start }

  /// Waits for and reads what the socket has (at most 64 KiB).
  ///
  /// - Returns: `false` when `wake` became readable instead.
  private func fill(wake: FileDescriptor?, deadline: ContinuousClock.Instant?) throws(DesktopError) -> Bool {
    let descriptors = [socket] + (wake.map { [$0] } ?? [])
    let ready: [Int]
    do {
      ready = try Poll.readable(descriptors, timeout: deadline.map { $0 - ContinuousClock.now })
    } catch {
      throw DesktopError("cannot wait for the IPC socket \(path): \(error)")
    }
    if ready.contains(1) { return false }
    guard ready.contains(0) else { throw DesktopError("the IPC socket \(path) did not answer in time") }
    if start > 0 && start >= buffer.count / 2 {
      buffer.removeSubrange(0..<start)
      start = 0
    }
    let want = max(1, min(chunk.count, Self.headerSize + Self.maximumPayload - available))
    var result: Result<Int, Errno> = .success(0)
    chunk.withUnsafeMutableBytes { raw in
      result = Result { () throws(Errno) in try socket.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[..<want]))
      }
    }
    let count: Int
    do { count = try result.get() } catch {
      throw DesktopError("cannot read the IPC socket \(path): \(error)")
    }
    guard count > 0 else { throw DesktopError("the IPC socket \(path) was closed") }
    buffer.append(contentsOf: chunk[..<count])
    return true
  }
}
