import DBus
import Notifications
import TestSupport
import Testing

@Suite("Hints in notify-send's TYPE:NAME:VALUE syntax")
struct HintSyntaxTests {
  @Test(arguments: [
    ("int:x:-5", "x", DBusValue.int32(-5)),
    ("double:level:0.25", "level", .double(0.25)),
    ("string:category:im.received", "category", .string("im.received")),
    ("string:image-path:file:///tmp/a:b.png", "image-path", .string("file:///tmp/a:b.png")),
    ("byte:urgency:2", "urgency", .byte(2)),
    ("boolean:transient:true", "transient", .boolean(true)),
    ("boolean:resident:FALSE", "resident", .boolean(false)),
    ("variant:v:42", "v", .int32(42)),
    ("variant:v:true", "v", .boolean(true)),
    ("variant:v:1.5", "v", .double(1.5)),
    ("variant:v:\"a b\"", "v", .string("a b")),
    ("variant:v:uint32 7", "v", .uint32(7)),
    ("variant:v:byte 0x10", "v", .byte(16)),
    ("variant:v:int64 -9223372036854775808", "v", .int64(.min)),
    ("variant:v:@s 'x'", "v", .string("x")),
    ("variant:v:[1, 2, 3]", "v", .array(element: .int32, [.int32(1), .int32(2), .int32(3)])),
    ("variant:v:@as []", "v", .array(element: .string, [])),
    ("variant:v:<'inner'>", "v", .variant(.string("inner"))),
  ])
  func validHintsParse(text: String, name: String, value: DBusValue) throws {
    let parsed = try HintSyntax.parse(text)
    #expect(parsed.name.rawValue == name)
    #expect(parsed.value == value)
  }

  @Test(arguments: [
    "int:x", "x:y:z", "int::5", "int:x:5.5", "int:x:99999999999", "byte:u:256", "byte:u:-1",
    "boolean:b:yes",
    "double:d:abc", "double:d:inf", "variant:v:", "variant:v:[1, 'a']", "variant:v:[]",
    "variant:v:'open",
    "variant:v:byte 300", "variant:v:uint32 -1", "variant:v:@zz 1", "variant:v:<1", "variant:v:1 2",
    "variant:v:'it''s'",
    "variant:v:" + String(repeating: "[", count: 100),
  ])
  func invalidHintsAreRefusedWithAClearMessage(text: String) {
    let error = #expect(throws: NotificationError.self) { try HintSyntax.parse(text) }
    #expect(error?.code == .invalidArgument)
    #expect(error?.message.contains(text) == true)
  }

  @Test func noInputCrashesTheVariantParser() {
    var generator = SeededGenerator(seed: 0xBADC_0FFE)
    let alphabet = Array("@[]<>'\"\\ ,.0123456789abxyintuybe-+".unicodeScalars)
    for _ in 0..<3000 {
      var text = "variant:v:"
      for _ in 0..<Int.random(in: 0...16, using: &generator) {
        text.unicodeScalars.append(alphabet[Int.random(in: 0..<alphabet.count, using: &generator)])
      }
      _ = try? HintSyntax.parse(text)
    }
  }
}
