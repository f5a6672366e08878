import DBus
import Testing

@Suite("Bounded reads skip what is too large without building it and go on after it")
struct BoundedReadTests {
  /// A reply with `values`, read back from a real bus.
  private func reply(_ signature: String, _ values: [DBusValue]) async throws -> Message {
    let pair = try EchoPair(signatures: [signature])
    return try await pair.echo(0, values)
  }

  @Test func aValueOverTheLimitIsSkippedAndTheNextIsRead() async throws {
    let bytes = DBusValue.array(element: .byte, Array(repeating: .byte(1), count: 10_000))
    let nested = DBusValue.variant(.variant(.structure([.string("s"), .int32(3)])))
    let message = try await reply("ayvsi", [bytes, nested, .string(String(repeating: "x", count: 5000)), .int32(7)])
    var reader = message.reader()
    #expect(try reader.readValue(limit: 1000) == nil)
    #expect(try reader.readValue(limit: 1000) == nested)
    #expect(try reader.readValue(limit: 1000) == nil)
    #expect(try reader.read(Int32.self) == 7)
    #expect(reader.isAtEnd)
  }

  @Test func hintsOverTheLimitComeBackAsNilInOrder() async throws {
    let entries: [DBusValue.DictionaryEntry] = [
      .init(.string("urgency"), .variant(.byte(2))),
      .init(.string("image-data"), .variant(.array(element: .int32, Array(repeating: .int32(0), count: 5000)))),
      .init(.string("x-map"), .variant(.dictionary(key: .string, value: .int32, [.init(.string("k"), .int32(1))]))),
    ]
    let message = try await reply("a{sv}i", [.dictionary(key: .string, value: .variant, entries), .int32(9)])
    var reader = message.reader()
    let read = try reader.readVariantEntries(limit: 1000)
    #expect(read.map(\.key) == ["urgency", "image-data", "x-map"])
    #expect(read.map(\.value) == [.byte(2), nil, entries[2].value.unwrapped])
    #expect(try reader.read(Int32.self) == 9)
  }

  @Test func stringsPastTheCountAreSkipped() async throws {
    let strings = (0..<10).map { DBusValue.string("s\($0)") }
    let message = try await reply("asi", [.array(element: .string, strings), .int32(4)])
    var first = message.reader()
    let (some, complete) = try first.readStrings(atMost: 3)
    #expect(some == ["s0", "s1", "s2"])
    #expect(!complete)
    #expect(try first.read(Int32.self) == 4)
    var all = message.reader()
    #expect(try all.readStrings(atMost: 10) == ((0..<10).map { "s\($0)" }, true))
  }
}
