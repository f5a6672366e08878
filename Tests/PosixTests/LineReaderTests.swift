import Posix
import Testing

@Suite("The line reader hands out every line, cuts long ones and skips their rest")
struct LineReaderTests {
  /// The lines a reader of `maximumLineLength` gives for `input`, written in `chunks`.
  private func lines(_ input: String, maximumLineLength: Int? = nil, chunkSize: Int = 1 << 16) throws -> [String] {
    let (readRaw, writeRaw) = makePipe()
    let readEnd = FileDescriptor(owning: readRaw)
    let bytes = Array(input.utf8)
    let writer = Thread { try? FileDescriptor(owning: writeRaw).writeAll(bytes) }
    defer { writer.join() }
    var reader = LineReader(descriptor: readEnd.rawValue, chunkSize: chunkSize, maximumLineLength: maximumLineLength)
    var result: [String] = []
    try reader.forEachLine { result.append(String(decoding: $0, as: UTF8.self)) }
    return result
  }

  @Test func linesEndAtNewlinesAndTheLastNeedsNone() throws {
    #expect(try lines("a\nbb\n\nccc") == ["a", "bb", "", "ccc"])
    #expect(try lines("a\n") == ["a"])
    #expect(try lines("") == [])
  }

  @Test func aLongLineIsCutAndItsRestSkipped() throws {
    let long = String(repeating: "x", count: 100)
    #expect(try lines("ab\n\(long)\ncd\n", maximumLineLength: 10, chunkSize: 16) == ["ab", "xxxxxxxxxx", "cd"])
    #expect(try lines("\(long)", maximumLineLength: 10, chunkSize: 16) == ["xxxxxxxxxx"])
  }

  @Test func withoutALimitTheBufferGrowsToHoldTheLine() throws {
    let long = String(repeating: "y", count: 100_000)
    #expect(try lines("\(long)\nz\n", chunkSize: 16) == [long, "z"])
  }

  @Test func manyLinesAcrossChunkEdgesArriveInOrder() throws {
    let input = (0..<20_000).map { "line \($0)\n" }.joined()
    let read = try lines(input, chunkSize: 1000)
    #expect(read.count == 20_000)
    #expect(read.last == "line 19999")
    #expect(read == (0..<20_000).map { "line \($0)" })
  }

  @Test func nextLineReadsOneLineAtATime() throws {
    let (readRaw, writeRaw) = makePipe()
    let readEnd = FileDescriptor(owning: readRaw)
    let writeEnd = FileDescriptor(owning: writeRaw)
    try writeEnd.writeAll("first\nsecond\n")
    try writeEnd.close()
    var reader = LineReader(descriptor: readEnd.rawValue)
    #expect(try reader.nextLine() == "first")
    #expect(try reader.nextLine() == "second")
    #expect(try reader.nextLine() == nil)
    #expect(try reader.nextLine() == nil)
  }
}
