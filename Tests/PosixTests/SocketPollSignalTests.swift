import Glibc
import Posix
import Testing

@Suite struct SocketPollSignalTests {
  @Test func aUnixSocketConnectsAndCarriesBytesBothWays() throws {
    try withScratchFolder { folder in
      let path = folder + "/s.sock"
      let listener = try FileDescriptor.listenOnUnixSocket(path)
      let client = try FileDescriptor.connectUnixSocket(path)
      let server = try listener.acceptConnection()
      try client.sendAll(Array("ping".utf8))
      #expect(try Poll.readable([listener, server], timeout: .seconds(30)) == [1])
      var buffer = [UInt8](repeating: 0, count: 16)
      let count = try server.read(into: &buffer)
      #expect(String(decoding: buffer[..<count], as: UTF8.self) == "ping")
      // Nothing more to read: the wait ends with its timeout and no descriptor.
      #expect(try Poll.readable([server], timeout: .milliseconds(20)).isEmpty)
      try server.close()
      #expect(try Poll.readable([client], timeout: .seconds(30)) == [0])
      #expect(try client.read(into: &buffer) == 0)
      // A peer that has gone: EPIPE, not a SIGPIPE that ends the test process.
      #expect(throws: Errno(rawValue: EPIPE)) { try client.sendAll(Array(repeating: 0, count: 1 << 20)) }
    }
  }

  @Test func aSocketPathThatDoesNotFitOrLeadsNowhereIsAnError() throws {
    #expect(throws: Errno(rawValue: ENAMETOOLONG)) {
      try FileDescriptor.connectUnixSocket("/tmp/" + String(repeating: "x", count: 120))
    }
    #expect(throws: Errno(rawValue: ENAMETOOLONG)) { try FileDescriptor.connectUnixSocket("") }
    #expect(throws: Errno.noSuchFileOrDirectory) { try FileDescriptor.connectUnixSocket("/nonexistent/s.sock") }
  }

  @Test func aSignalGoesToOneProcessOnly() {
    #expect(throws: Errno.invalidArgument) { try Signal.terminate.send(to: 0) }
    #expect(throws: Errno.invalidArgument) { try Signal.kill.send(to: -1) }
    // Above the kernel's pid_max: no such process.
    #expect(throws: Errno(rawValue: ESRCH)) { try Signal.terminate.send(to: 4_194_305) }
  }

  @Test func procFilesAreReadUpToTheLimit() throws {
    let comm = try FileSystem.readPrefix("/proc/self/comm", limit: 256)
    #expect(comm.last == UInt8(ascii: "\n"))
    #expect(try FileSystem.readPrefix("/proc/self/cmdline", limit: 3).count == 3)
    #expect(throws: ReadFileError.notRegularFile(.directory)) { try FileSystem.readPrefix("/proc/self", limit: 10) }
    #expect((try? FileSystem.readPrefix("/proc/4194305/comm", limit: 10)) == nil)
  }
}
