import JSON
import Testing

@Suite("Parsing can keep the text of every number that is not an integer as written")
struct NumberTextTests {
  @Test func numbersWithAFractionOrAnExponentKeepTheirTextByPointer() throws {
    let text = #"""
      {"rules":[{"a":4.9999999999999999999,"b":5,"c":1e-400},[5.0,-0,5e0]],"a/b~c":{"":2.5},
       "big":99999999999999999999,"small":-9223372036854775808}
      """#
    let (value, numberTexts) = try JSONValue.parsingKeepingNumberTexts(Array(text.utf8))
    #expect(value == (try JSONValue(parsing: text)))
    #expect(
      numberTexts == [
        "/rules/0/a": "4.9999999999999999999", "/rules/0/c": "1e-400", "/rules/1/0": "5.0",
        "/rules/1/2": "5e0", "/a~1b~0c/": "2.5", "/big": "99999999999999999999",
      ])
    // The Double alone cannot tell: both are 5, the other 0.
    #expect(value["rules"]?.arrayValue?.first?["a"] == .number(5))
    #expect(value["rules"]?.arrayValue?.first?["c"] == .number(0))
    #expect(value["small"] == .integer(.min))
  }

  @Test func aWholeTextThatIsANumberIsKeyedByTheEmptyPointer() throws {
    #expect(try JSONValue.parsingKeepingNumberTexts(Array("1E+2".utf8)).numberTexts == ["": "1E+2"])
    #expect(try JSONValue.parsingKeepingNumberTexts(Array("12".utf8)).numberTexts == [:])
  }

  @Test func errorsAreTheSameAsWithoutTheTexts() {
    for text in ["[1.5,", "{\"a\":1e999}", "[01]", "1 2"] {
      let plain = #expect(throws: JSONParseError.self) { try JSONValue(parsing: text) }
      let keeping = #expect(throws: JSONParseError.self) {
        try JSONValue.parsingKeepingNumberTexts(Array(text.utf8))
      }
      #expect(plain == keeping, "\(text)")
    }
  }
}
