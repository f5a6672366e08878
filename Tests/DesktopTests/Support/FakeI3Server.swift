import Foundation
import Posix
import Synchronization
import TestSupport

/// A UNIX socket that speaks as much of the i3 IPC protocol as a test scripts, then misbehaves.
///
/// Each accepted connection is handed, with its number (0 for the first),
/// to `script` on a thread of its own; the socket closes when the script returns.
final class FakeI3Server: Sendable {
  let path: String
  private let directory: TemporaryDirectory
  // Both ends live as long as the server: a write to a pipe without a reader would raise SIGPIPE.
  private let wake: (reading: FileDescriptor, writing: FileDescriptor)
  private let connections = Counter()

  /// The number of connections, shared with the accepting thread.
  private final class Counter: Sendable {
    let value = Mutex(0)
  }

  init(_ script: @escaping @Sendable (_ connection: Int, _ peer: Peer) throws -> Void) throws {
    directory = try TemporaryDirectory(prefix: "shieldbridge-fake-i3")
    path = directory.file("ipc.sock")
    let listener = try FileDescriptor.listenOnUnixSocket(path)
    wake = try FileDescriptor.pipe()
    let reading = wake.reading
    let connections = self.connections
    Thread.detachNewThread {
      while let ready = try? Poll.readable([listener, reading], timeout: nil), ready == [0] {
        guard let socket = try? listener.acceptConnection() else { break }
        let number = connections.value.withLock { count in
          defer { count += 1 }
          return count
        }
        Thread.detachNewThread {
          try? script(number, Peer(socket: socket))
          try? socket.close()
        }
      }
      try? listener.close()
    }
  }

  deinit {
    _ = try? wake.writing.write([1])
  }

  /// How many connections were accepted so far.
  var connectionCount: Int { connections.value.withLock { $0 } }

  /// The client's end of one connection, as the server sees it.
  struct Peer: Sendable {
    let socket: FileDescriptor

    /// Reads one request; `nil` when the client closed.
    func request() throws -> (type: UInt32, payload: String)? {
      guard let header = try read(14) else { return nil }
      let length = header.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 6, as: UInt32.self) }
      let type = header.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 10, as: UInt32.self) }
      guard let payload = try read(Int(length)) else { return nil }
      return (type, String(decoding: payload, as: UTF8.self))
    }

    /// Sends a framed message with `payload`, announcing `length` bytes (the payload's own unless told).
    func send(type: UInt32, payload: String, announcing length: UInt32? = nil) throws {
      let body = Array(payload.utf8)
      var message = Array("i3-ipc".utf8)
      withUnsafeBytes(of: length ?? UInt32(body.count)) { message.append(contentsOf: $0) }
      withUnsafeBytes(of: type) { message.append(contentsOf: $0) }
      try socket.sendAll(message + body)
    }

    /// Sends raw bytes.
    func sendRaw(_ bytes: [UInt8]) throws {
      try socket.sendAll(bytes)
    }

    /// Answers `GET_VERSION` as i3 4.22 does.
    func answerVersion() throws {
      guard let (type, _) = try request(), type == 7 else { return }
      try send(type: 7, payload: #"{"major":4,"minor":22,"patch":0,"human_readable":"4.22 (fake)"}"#)
    }

    /// Waits until the client closes its end (or 10 s pass).
    func waitForClose() {
      var byte = [UInt8](repeating: 0, count: 4096)
      let deadline = ContinuousClock.now + .seconds(10)
      while ContinuousClock.now < deadline {
        guard let ready = try? Poll.readable([socket], timeout: .seconds(1)), !ready.isEmpty else { continue }
        guard let count = try? socket.read(into: &byte), count > 0 else { return }
      }
    }

    private func read(_ count: Int) throws -> [UInt8]? {
      var result: [UInt8] = []
      while result.count < count {
        // Never more than this message: the next one stays in the socket.
        var chunk = [UInt8](repeating: 0, count: count - result.count)
        let got = try socket.read(into: &chunk)
        if got == 0 { return nil }
        result.append(contentsOf: chunk[..<got])
      }
      return result
    }
  }
}
