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

  /// The pieces a reader of `chunkSize` gives for `input`, and whether each ends its line.
  private func pieces(_ input: [UInt8], chunkSize: Int) throws -> [([UInt8], Bool)] {
    let (readRaw, writeRaw) = makePipe()
    let readEnd = FileDescriptor(owning: readRaw)
    let writer = Thread { try? FileDescriptor(owning: writeRaw).writeAll(input) }
    defer { writer.join() }
    var reader = LineReader(descriptor: readEnd.rawValue, chunkSize: chunkSize)
    var result: [([UInt8], Bool)] = []
    while try reader.withNextPiece({ piece, endsLine in result.append((Array(piece), endsLine)) }) != nil {}
    return result
  }

  @Test func aCutLineComesWithItsWholeLength() throws {
    let (readRaw, writeRaw) = makePipe()
    let readEnd = FileDescriptor(owning: readRaw)
    let input = Array("ab\n\(String(repeating: "x", count: 100_000))\ncd\n\(String(repeating: "y", count: 37))".utf8)
    let writer = Thread { try? FileDescriptor(owning: writeRaw).writeAll(input) }
    defer { writer.join() }
    var reader = LineReader(descriptor: readEnd.rawValue, chunkSize: 16, maximumLineLength: 10)
    var result: [String] = []
    while try reader.withNextMeasuredLine({ line, length in
      result.append("\(String(decoding: line, as: UTF8.self)) \(length)")
    }) != nil {}
    #expect(result == ["ab 2", "xxxxxxxxxx 100000", "cd 2", "yyyyyyyyyy 37"])
  }

  @Test func piecesOfALongLineAreAtMostTheBufferAndTheLastEndsIt() throws {
    let long = (0..<100).map { UInt8(ascii: "a") + UInt8($0 % 26) }
    let input = Array("ab\n".utf8) + long + Array("\n\ncd".utf8)
    let result = try pieces(input, chunkSize: 16)
    #expect(result.first.map { $0.0 == Array("ab".utf8) && $0.1 } == true)
    #expect(result.dropFirst().allSatisfy { $0.0.count <= 16 })
    // Joined, the pieces give the lines back, each ended once.
    var lines: [[UInt8]] = [[]]
    for (piece, endsLine) in result {
      lines[lines.count - 1] += piece
      if endsLine { lines.append([]) }
    }
    #expect(lines == [Array("ab".utf8), long, [], Array("cd".utf8), []])
    #expect(result.count > 7)
  }

  @Test func aLineOfExactlyTheBufferEndsWithAnEmptyPiece() throws {
    let full = [UInt8](repeating: 0x61, count: 16)
    let unterminated = try pieces(full, chunkSize: 16)
    #expect(unterminated.map(\.0) == [full, []])
    #expect(unterminated.map(\.1) == [false, true])
    let terminated = try pieces(full + [0x0A], chunkSize: 16)
    #expect(terminated.map(\.0) == [full, []])
    #expect(terminated.map(\.1) == [false, true])
    #expect(try pieces([], chunkSize: 16).isEmpty)
    #expect(try pieces([0x0A], chunkSize: 16).map(\.0) == [[]])
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
