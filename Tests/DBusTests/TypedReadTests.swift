import DBus
import Testing

@Suite("Typed reads check the whole type of an argument and keep dictionary entries in order")
struct TypedReadTests {
  /// A reply with `values`, read back from a real bus.
  private func reply(_ signature: String, _ values: [DBusValue]) async throws -> Message {
    let pair = try EchoPair(signatures: [signature])
    return try await pair.echo(0, values)
  }

  @Test func dictionaryEntriesComeBackInOrderWithRepeatedKeys() async throws {
    let entries: [DBusValue.DictionaryEntry] = [
      .init(.string("z"), .variant(.byte(1))), .init(.string("a"), .variant(.string("x"))),
      .init(.string("z"), .variant(.boolean(true))),
    ]
    let message = try await reply("a{sv}i", [.dictionary(key: .string, value: .variant, entries), .int32(7)])
    var reader = message.reader()
    let read = try reader.readEntries(String.self, Variant.self)
    #expect(read.map(\.key) == ["z", "a", "z"])
    #expect(read.map(\.value.value) == [.byte(1), .string("x"), .boolean(true)])
    #expect(try reader.read(Int32.self) == 7)
    #expect(reader.isAtEnd)
  }

  @Test func anEmptyDictionaryIsReadAsNoEntries() async throws {
    let message = try await reply("a{sv}", [.dictionary(key: .string, value: .variant, [])])
    var reader = message.reader()
    #expect(try reader.readEntries(String.self, Variant.self).isEmpty)
  }

  @Test(
    "a container of another type is refused, empty or not",
    arguments: [
      ("ai", DBusValue.array(element: .int32, [.int32(1)])), ("ai", .array(element: .int32, [])),
      ("aas", .array(element: .array(.string), [])),
      ("a{ss}", .dictionary(key: .string, value: .string, [])),
      ("a{sv}", .dictionary(key: .string, value: .variant, [])),
    ])
  func containersOfAnotherTypeAreRefused(signature: String, value: DBusValue) async throws {
    let message = try await reply(signature, [value])
    var strings = message.reader()
    let wrongArray = #expect(throws: DBusError.self) { try strings.read([String].self) }
    #expect(wrongArray?.is(.invalidArgs) == true)
    #expect(wrongArray?.message.contains("'as'") == true)
    var entries = message.reader()
    if signature != "a{sv}" {
      let wrongEntries = #expect(throws: DBusError.self) { try entries.readEntries(String.self, Variant.self) }
      #expect(wrongEntries?.message.contains("'a{sv}'") == true)
    }
    var numbers = message.reader()
    let wrongDictionary = #expect(throws: DBusError.self) { try numbers.read([String: UInt32].self) }
    #expect(wrongDictionary?.is(.invalidArgs) == true)
  }

  @Test func nestedContainersAreReadWhenTheirTypesMatch() async throws {
    let value = DBusValue.array(
      element: .array(.int32), [.array(element: .int32, [.int32(1), .int32(2)]), .array(element: .int32, [])])
    let message = try await reply("aai", [value])
    var reader = message.reader()
    #expect(reader.peekType == .array(.array(.int32)))
    #expect(try reader.read([[Int32]].self) == [[1, 2], []])
    #expect(try message.values() == [value])
  }

  @Test func anErrorReplyCarriesTheTextOfItsFirstArgument() async throws {
    let pair = try EchoPair(signatures: ["s"])
    let server = try Connection(.address(pair.bus.address))
    let interface = try Interface(
      "org.example.Fails",
      methods: [try Method("Fail") { _ in throw DBusError(name: "org.example.Error.Broken", message: "it broke") }])
    try server.export([interface], at: pair.path)
    let error = await #expect(throws: DBusError.self) {
      _ = try await pair.client.call(
        server.uniqueName, pair.path, try InterfaceName("org.example.Fails"), try MemberName("Fail"))
    }
    #expect(error?.name == "org.example.Error.Broken")
    #expect(error?.message == "it broke")
  }
}
