import Foundation
import Posix

/// A Unix socket that accepts connections into its backlog and never answers:
/// a bus that hangs before `Hello`.
public final class SilentSocket: Sendable {
  /// The socket's D-Bus address, `unix:path=…`.
  public let address: String
  private let path: String
  private let descriptor: FileDescriptor

  public init() throws {
    path = NSTemporaryDirectory() + "shieldbridge-silent-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
    address = "unix:path=" + path
    descriptor = FileDescriptor(owning: socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0))
    var socketAddress = sockaddr_un()
    socketAddress.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    withUnsafeMutableBytes(of: &socketAddress.sun_path) { $0.copyBytes(from: bytes) }
    let bound = withUnsafePointer(to: &socketAddress) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor.rawValue, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard descriptor.rawValue >= 0, bound == 0, listen(descriptor.rawValue, 8) == 0 else {
      throw POSIXError(.init(rawValue: errno) ?? .EIO)
    }
  }

  deinit {
    try? descriptor.close()
    unlink(path)
  }
}
