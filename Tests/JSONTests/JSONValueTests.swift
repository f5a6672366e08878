import JSON
import Testing

@Suite("JSON values keep their key order, write compact JSON and parse strictly")
struct JSONValueTests {
  @Test func objectsKeepTheOrderTheirKeysWereWrittenIn() {
    let value: JSONValue = .object([("ok", true), ("action", "puzzle"), ("app", .null), ("grant", 5)])
    #expect(value.serialized == #"{"ok":true,"action":"puzzle","app":null,"grant":5}"#)
  }

  @Test func stringsAreEscapedForJSONAndJavaScript() {
    let value = JSONValue.string("a\"b\\c\n\t\u{1}\u{7F}é😀\u{2028}\u{2029}/")
    #expect(value.serialized == #""a\"b\\c\n\t\u0001\u007fé😀\u2028\u2029/""#)
  }

  @Test func numbersAreWrittenWithoutNeedlessFractions() {
    #expect(JSONValue.number(5).serialized == "5")
    #expect(JSONValue.number(0.5).serialized == "0.5")
    #expect(JSONValue.number(.infinity).serialized == "null")
    #expect(JSONValue.integer(.min).serialized == "-9223372036854775808")
  }

  @Test func whatIsWrittenParsesBackToTheSameValue() throws {
    let value: JSONValue = .object([
      ("list", [1, 2.5, "three", nil, true, .object([])]), ("nested", .object([("deep", ["\u{10FFFF}"])])),
    ])
    #expect(try JSONValue(parsing: value.serialized) == value)
  }

  @Test func escapesAndSurrogatePairsAreDecoded() throws {
    #expect(try JSONValue(parsing: #""\u00e9\ud83d\ude00\/\b\f""#) == .string("é😀/\u{8}\u{C}"))
  }

  @Test(arguments: [
    ("", 1, 1), ("{", 1, 2), ("[1,]", 1, 4), ("{\"a\":1,}", 1, 8), ("01", 1, 2), ("1.", 1, 3), ("tru", 1, 1),
    ("\"\\ud800\"", 1, 8), ("\"\\udc00\"", 1, 2), ("\"a\nb\"", 1, 3), ("[1]\n x", 2, 2), ("\"\\x\"", 1, 2),
    ("{1:2}", 1, 2), ("nul", 1, 1), ("1e", 1, 3), ("-", 1, 2),
  ])
  func malformedTextIsAnErrorWithItsLineAndColumn(_ text: String, line: Int, column: Int) {
    let error = #expect(throws: JSONParseError.self) { try JSONValue(parsing: text) }
    #expect(error?.line == line, "\(text): \(String(describing: error))")
    #expect(error?.column == column, "\(text): \(String(describing: error))")
  }

  @Test func deepNestingIsAnErrorNotAStackOverflow() {
    let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    let error = #expect(throws: JSONParseError.self) { try JSONValue(parsing: deep) }
    #expect(error?.message.contains("deeper") == true)
    let fine =
      String(repeating: "[", count: JSONValue.maximumDepth) + String(repeating: "]", count: JSONValue.maximumDepth)
    #expect(throws: Never.self) { try JSONValue(parsing: fine) }
  }

  @Test func invalidUTF8IsAnError() {
    #expect(throws: JSONParseError.self) { try JSONValue(parsing: [0x22, 0xC3, 0x28, 0x22]) }
  }

  @Test func accessorsReadTheValueOrNil() throws {
    let value = try JSONValue(parsing: #"{"a":"x","n":3,"f":2.0,"b":false,"l":[1],"a":"last"}"#)
    #expect(value["a"]?.stringValue == "last")
    #expect(value["n"]?.integerValue == 3)
    #expect(value["f"]?.integerValue == 2)
    #expect(value["b"]?.boolValue == false)
    #expect(value["l"]?.arrayValue?.count == 1)
    #expect(value["missing"] == nil)
    #expect(value["n"]?.stringValue == nil)
    #expect(JSONValue.integer(3) == JSONValue.number(3))
  }
}
