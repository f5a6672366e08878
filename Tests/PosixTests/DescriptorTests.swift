import Glibc
import Posix
import Testing

@Suite("Descriptors retry interrupted calls, write everything and close once")
struct DescriptorTests {
  @Test func anInterruptedCallIsMadeAgain() throws {
    var calls = 0
    let value = try valueOrErrno { () -> Int32 in
      calls += 1
      guard calls > 2 else {
        errno = EINTR
        return -1
      }
      return 7
    }
    #expect(value == 7)
    #expect(calls == 3)
  }

  @Test func anInterruptionIsReportedWhenTheCallerAsksForIt() {
    #expect(throws: Errno.interrupted) {
      try valueOrErrno(retryOnInterrupt: false) { () -> Int32 in
        errno = EINTR
        return -1
      }
    }
  }

  @Test func otherErrorsAreTypedAndDescribedByTheCLibrary() {
    #expect(throws: Errno.noSuchFileOrDirectory) { _ = try FileDescriptor.open("/nonexistent/file", .readOnly) }
    #expect(Errno.noSuchFileOrDirectory.description == "No such file or directory")
    #expect(Errno(rawValue: ENOENT) == .noSuchFileOrDirectory)
  }

  @Test func readAllReadsUntilTheBufferIsFullOrTheInputEnds() throws {
    let (reading, writing) = try FileDescriptor.pipe()
    try writing.writeAll([1, 2, 3])
    var first = [UInt8](repeating: 0, count: 2)
    #expect(try reading.readAll(into: &first) == 2)
    #expect(first == [1, 2])
    try writing.writeAll([4])
    try writing.close()
    var rest = [UInt8](repeating: 0, count: 4)
    #expect(try reading.readAll(into: &rest) == 2)
    #expect(rest == [3, 4, 0, 0])
    var none = [UInt8](repeating: 0, count: 1)
    #expect(try reading.readAll(into: &none) == 0)
  }

  @Test func writeAllWritesMoreThanAPipeHoldsAtOnce() throws {
    let (readRaw, writeRaw) = makePipe()
    let readEnd = FileDescriptor(owning: readRaw)
    let reading = FileDescriptor(borrowing: readEnd.rawValue)
    let count = 1 << 20  // a pipe holds 64 KiB: the writer gets partial writes and waits
    let bytes = [UInt8]((0..<count).map { UInt8(truncatingIfNeeded: $0) })
    let writer = Thread { try? FileDescriptor(owning: writeRaw).writeAll(bytes) }
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while received.count < count {
      let read = try buffer.withUnsafeMutableBytes { raw throws(Errno) in try reading.read(into: raw) }
      if read == 0 { break }
      received += buffer[..<read]
    }
    writer.join()
    #expect(received == bytes)
  }

  @Test func closingReportsAndTheDescriptorIsGone() throws {
    let (readRaw, writeRaw) = makePipe()
    let readEnd = FileDescriptor(owning: readRaw)
    let writeEnd = FileDescriptor(owning: writeRaw)
    let raw = writeEnd.rawValue
    try writeEnd.close()
    #expect(fcntl(raw, F_GETFD) == -1)
    var byte: UInt8 = 0
    #expect(try withUnsafeMutableBytes(of: &byte) { raw throws(Errno) in try readEnd.read(into: raw) } == 0)
  }

  @Test func aBorrowedDescriptorIsNotClosed() throws {
    let (readRaw, writeRaw) = makePipe()
    let readEnd = FileDescriptor(owning: readRaw)
    let writeEnd = FileDescriptor(owning: writeRaw)
    do {
      let borrowed = FileDescriptor(borrowing: writeEnd.rawValue)
      try borrowed.writeAll("x")
    }
    #expect(fcntl(writeEnd.rawValue, F_GETFD) != -1)
    #expect(try readEnd.waitUntilReadable(timeout: .seconds(30)))
  }

  @Test func waitingForInputEndsAtTheTimeout() throws {
    let (readRaw, writeRaw) = makePipe()
    let readEnd = FileDescriptor(owning: readRaw)
    let writeEnd = FileDescriptor(owning: writeRaw)
    let start = ContinuousClock.now
    #expect(try !readEnd.waitUntilReadable(timeout: .milliseconds(50)))
    #expect(ContinuousClock.now - start >= .milliseconds(50))
    try writeEnd.writeAll("line\n")
    #expect(try readEnd.waitUntilReadable(timeout: .seconds(30)))
  }
}

/// A thread of its own for the other end of a pipe.
final class Thread: @unchecked Sendable {
  private var thread = pthread_t()
  private let body: () -> Void

  init(_ body: @escaping () -> Void) {
    self.body = body
    let context = Unmanaged.passRetained(self).toOpaque()
    pthread_create(
      &thread, nil,
      { context in
        let thread = Unmanaged<Thread>.fromOpaque(context!).takeRetainedValue()
        thread.body()
        return nil
      }, context)
  }

  func join() {
    pthread_join(thread, nil)
  }

  /// Sends `number` to this thread alone.
  func signal(_ number: Int32) {
    pthread_kill(thread, number)
  }
}
