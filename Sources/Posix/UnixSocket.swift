#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension FileDescriptor {
  /// Connects a new stream socket to the UNIX socket at `path` (`socket(AF_UNIX)`, `connect`).
  ///
  /// The socket is made with `SOCK_CLOEXEC`, so no child inherits it, and
  /// connects without blocking: a listener whose backlog is full answers
  /// `EAGAIN` at once instead of holding the caller. Once connected, the
  /// socket blocks again; its readers wait with ``Poll`` and a timeout.
  ///
  /// - Throws: ``Errno``: `ENAMETOOLONG` when `path` does not fit a
  ///   `sockaddr_un`, `ENOENT` or `ECONNREFUSED` when nothing listens there.
  public static func connectUnixSocket(_ path: String) throws(Errno) -> FileDescriptor {
    var address = try unixAddress(path)
    let socket = FileDescriptor(
      owning: try valueOrErrno { systemSocket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | socketFlags(nonBlocking: true)) })
    try nothingOrErrno {
      withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(socket.rawValue, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
        }
      }
    }
    let flags = try valueOrErrno { fcntl(socket.rawValue, F_GETFL) }
    try nothingOrErrno { fcntl(socket.rawValue, F_SETFL, flags & ~O_NONBLOCK) }
    return socket
  }

  /// A new stream socket bound to `path` and listening (`bind`, `listen`), for a server of one's own.
  ///
  /// - Throws: ``Errno`` when `path` is too long, exists or cannot be bound.
  public static func listenOnUnixSocket(_ path: String, backlog: Int32 = 8) throws(Errno) -> FileDescriptor {
    var address = try unixAddress(path)
    let socket = FileDescriptor(
      owning: try valueOrErrno { systemSocket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | socketFlags(nonBlocking: false)) })
    try nothingOrErrno {
      withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          bind(socket.rawValue, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
        }
      }
    }
    try nothingOrErrno { listen(socket.rawValue, backlog) }
    return socket
  }

  /// Accepts the next connection of a listening socket (blocking), with `FD_CLOEXEC`.
  ///
  /// Swift's Glibc module does not export `accept4`, so the flag is set right after `accept`.
  ///
  /// - Throws: ``Errno`` when `accept` failed.
  public func acceptConnection() throws(Errno) -> FileDescriptor {
    let connection = FileDescriptor(owning: try valueOrErrno { accept(rawValue, nil, nil) })
    _ = fcntl(connection.rawValue, F_SETFD, FD_CLOEXEC)
    return connection
  }

  /// Writes all of `bytes` to a socket (`send` with `MSG_NOSIGNAL`), retrying partial writes and `EINTR`.
  ///
  /// A peer that has gone away gives `EPIPE` here rather than a `SIGPIPE` that ends the process.
  ///
  /// - Throws: ``Errno`` of the first `send` that failed.
  public func sendAll(_ bytes: [UInt8]) throws(Errno) {
    var failure: Errno?
    bytes.withUnsafeBytes { raw in
      guard let base = raw.baseAddress else { return }
      var offset = 0
      while offset < raw.count {
        do throws(Errno) {
          offset += try valueOrErrno { send(rawValue, base + offset, raw.count - offset, Int32(MSG_NOSIGNAL)) }
        } catch {
          failure = error
          return
        }
      }
    }
    if let failure { throw failure }
  }
}

/// `SOCK_CLOEXEC`, and `SOCK_NONBLOCK` when asked (Glibc imports them as enum cases).
private func socketFlags(nonBlocking: Bool) -> Int32 {
  Int32(SOCK_CLOEXEC.rawValue) | (nonBlocking ? Int32(SOCK_NONBLOCK.rawValue) : 0)
}

private func systemSocket(_ domain: Int32, _ type: Int32) -> Int32 { socket(domain, type, 0) }

/// The `sockaddr_un` of `path`, which must fit `sun_path` with its terminating NUL.
private func unixAddress(_ path: String) throws(Errno) -> sockaddr_un {
  var address = sockaddr_un()
  address.sun_family = sa_family_t(AF_UNIX)
  let bytes = Array(path.utf8)
  let capacity = MemoryLayout.size(ofValue: address.sun_path)
  guard !bytes.isEmpty, bytes.count < capacity, !bytes.contains(0) else { throw Errno(rawValue: ENAMETOOLONG) }
  withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
  return address
}
