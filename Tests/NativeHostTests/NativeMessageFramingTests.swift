import JSON
import Posix
import Spawn
import TestSupport
import Testing

@testable import NativeHost

@Suite("Native-messaging frames read and written over a real pipe, in one process")
struct NativeMessageFramingTests {
  @Test("A frame written a byte at a time is read whole; the end between frames is the end")
  func partialWrites() async throws {
    let (reading, writing) = try FileDescriptor.pipe()
    let message: JSONValue = .object([("type", "focus"), ("site", "instagram.com")])
    let frame = try #require(NativeMessageWriter.frame(message))
    #expect(frame.count == 4 + message.serialized.utf8.count)
    #expect(frame.prefix(4) == withUnsafeBytes(of: UInt32(message.serialized.utf8.count)) { Array($0)[...] })
    detachThread {
      for byte in frame + frame { try? writing.writeAll([byte]) }
      try? writing.close()
    }
    let reader = NativeMessageReader(descriptor: reading)
    let read = try await onOwnThread { () throws -> [[UInt8]?] in
      [try reader.next(), try reader.next(), try reader.next()]
    }
    #expect(read[0].map { try? JSONValue(parsing: $0) } == message)
    #expect(read[1].map { try? JSONValue(parsing: $0) } == message)
    #expect(read[2] == nil)
  }

  @Test("The reader refuses a length over its limit before reading the body, and a cut frame")
  func limits() throws {
    let (reading, writing) = try FileDescriptor.pipe()
    try writing.writeAll(withUnsafeBytes(of: UInt32(101)) { Array($0) })
    #expect(throws: NativeMessageError.tooLong(length: 101, limit: 100)) {
      try NativeMessageReader(descriptor: reading, limit: 100).next()
    }
    try writing.writeAll(withUnsafeBytes(of: UInt32(10)) { Array($0) } + [0x7B])
    try writing.close()
    #expect(throws: NativeMessageError.truncated(part: .body, received: 1, expected: 10)) {
      try NativeMessageReader(descriptor: reading).next()
    }
  }

  @Test("The writer sends at most 1 MB, the browsers' limit")
  func writerLimit() throws {
    let fits = JSONValue.string(String(repeating: "a", count: NativeMessageWriter.limit - 2))
    #expect(NativeMessageWriter.frame(fits)?.count == NativeMessageWriter.limit + 4)
    let over = JSONValue.string(String(repeating: "a", count: NativeMessageWriter.limit - 1))
    #expect(NativeMessageWriter.frame(over) == nil)
    let (_, writing) = try FileDescriptor.pipe()
    #expect(throws: Errno.messageTooLong) { try NativeMessageWriter(descriptor: writing).write(over) }
  }
}
