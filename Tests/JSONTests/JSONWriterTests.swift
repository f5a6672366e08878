import JSON
import Testing

@Suite("The JSON writer escapes by one rule, places the commas, and writes numbers as JSON values do")
struct JSONWriterTests {
  /// What `body` writes, as text.
  private func written(_ body: (inout JSONWriter) -> Void) -> String {
    var writer = JSONWriter(capacity: 1)
    body(&writer)
    return writer.text
  }

  private func quoted(_ text: String) -> String {
    written { $0.string(text) }
  }

  @Test func everyControlCharacterIsEscaped() {
    let short: [UInt8: String] = [0x09: #"\t"#, 0x0A: #"\n"#, 0x0D: #"\r"#]
    let hex = Array("0123456789abcdef")
    for byte in UInt8(0)..<0x20 {
      let expected = short[byte] ?? "\\u00\(hex[Int(byte >> 4)])\(hex[Int(byte & 0x0F)])"
      #expect(quoted(String(UnicodeScalar(byte))) == "\"\(expected)\"", "byte \(byte)")
    }
    #expect(quoted("\u{7F}") == #""\u007f""#)
    // \b and \f have short forms in JSON, but the writer has always used \u.
    #expect(quoted("\u{8}\u{C}") == #""\u0008\u000c""#)
  }

  @Test func quotesAndBackslashesAreEscapedAndSlashesAreNot() {
    #expect(quoted(#"say "hi" \ bye / now"#) == #""say \"hi\" \\ bye / now""#)
    #expect(quoted("") == #""""#)
    #expect(quoted(#"\""#) == #""\\\"""#)
  }

  @Test func nonASCIIIsWrittenAsUTF8ButTheLineSeparatorsAreEscaped() {
    #expect(quoted("Café 東京 😀 € … \u{9F}") == "\"Café 東京 😀 € … \u{9F}\"")
    #expect(quoted("a\u{2028}b\u{2029}") == #""a\u2028b\u2029""#)
    #expect(quoted("\u{2027}\u{202A}") == "\"\u{2027}\u{202A}\"")
  }

  @Test func aCharacterToEscapeIsFoundAtEveryPositionOfEveryLength() {
    // Strings are checked eight bytes at a time, the short ones and the tail in overlapping words.
    let escaped: [(String, String)] = [
      ("\"", #"\""#), ("\\", #"\\"#), ("\u{1}", #"\u0001"#), ("\u{1F}", #"\u001f"#), ("\u{7F}", #"\u007f"#),
      ("\u{2028}", #"\u2028"#), ("…", "…"), ("\u{A0}", "\u{A0}"),
    ]
    for length in 0...24 {
      for position in 0...length {
        let before = String(repeating: "a", count: position)
        let after = String(repeating: "z", count: length - position)
        for (character, escape) in escaped {
          #expect(quoted(before + character + after) == "\"" + before + escape + after + "\"")
        }
      }
    }
  }

  @Test func everyOtherASCIICharacterIsCopied() {
    let printable = String(
      (0x20...0x7E).map { Character(UnicodeScalar(UInt8($0))) }.filter { $0 != "\"" && $0 != "\\" })
    #expect(quoted(printable) == "\"" + printable + "\"")
    #expect(quoted(String(printable.reversed())) == "\"" + String(printable.reversed()) + "\"")
  }

  @Test func longStringsWithManyEscapesGrowTheBuffer() {
    let text = String(repeating: "\u{1}é\"", count: 1000)
    #expect(quoted(text) == "\"" + String(repeating: #"\u0001é\""#, count: 1000) + "\"")
  }

  @Test func stringsAreWrittenAsJSONValueWritesThem() {
    let samples = ["plain", "tab\there", "Zoë\u{0}", "\u{2028}", "x\u{1F}\u{7F}y", #"\\"#, "日本語\n"]
    for text in samples {
      #expect(quoted(text) == JSONValue.string(text).serialized)
    }
  }

  @Test func integersOfEveryWidthAreWrittenInFull() {
    #expect(written { $0.integer(0) } == "0")
    #expect(written { $0.integer(-7) } == "-7")
    #expect(written { $0.integer(Int.min) } == "-9223372036854775808")
    #expect(written { $0.integer(Int.max) } == "9223372036854775807")
    #expect(written { $0.integer(UInt64.max) } == "18446744073709551615")
    #expect(written { $0.integer(Int8.min) } == "-128")
    #expect(written { $0.integer(UInt32.max) } == "4294967295")
    #expect(JSONValue.integer(.min).serialized == "-9223372036854775808")
  }

  @Test(arguments: [
    (5.0, "5"), (-0.0, "0"), (0.5, "0.5"), (0.1, "0.1"), (-2.25, "-2.25"), (1.5e-7, "1.5e-07"), (1e-5, "1e-05"),
    (999_999_999_999_999.0, "999999999999999"), (1e15, "1000000000000000.0"), (1e16, "1e+16"),
    (1.2345678901234568e20, "1.2345678901234568e+20"),
    (Double.infinity, "null"), (-Double.infinity, "null"), (Double.nan, "null"),
  ])
  func doublesAreWrittenAsJSONValueWritesThem(_ number: Double, _ expected: String) {
    #expect(written { $0.number(number) } == expected)
    #expect(JSONValue.number(number).serialized == expected)
  }

  @Test func commasSeparateMembersAndElementsAtEveryDepth() {
    let text = written { writer in
      writer.beginObject()
      writer.member("ok", true)
      writer.key("list")
      writer.beginArray()
      writer.integer(1)
      writer.beginObject()
      writer.endObject()
      writer.beginArray()
      writer.null()
      writer.string("x")
      writer.endArray()
      writer.beginObject()
      writer.key(escaping: "a\"b")
      writer.number(2.5)
      writer.endObject()
      writer.endArray()
      writer.member("app", nil as String?)
      writer.member("grant", 5)
      writer.member("name", "Zoë")
      writer.key("empty")
      writer.beginArray()
      writer.endArray()
      writer.endObject()
    }
    #expect(text == #"{"ok":true,"list":[1,{},[null,"x"],{"a\"b":2.5}],"app":null,"grant":5,"name":"Zoë","empty":[]}"#)
  }

  @Test func aNewlineStartsTheNextValueWithoutAComma() {
    let text = written { writer in
      for id in 1...2 {
        writer.beginObject()
        writer.member("id", id)
        writer.endObject()
        writer.newline()
      }
      writer.bool(false)
    }
    #expect(text == "{\"id\":1}\n{\"id\":2}\nfalse")
  }

  @Test func removeAllStartsAfreshAndKeepsWriting() {
    var writer = JSONWriter()
    writer.beginArray()
    writer.integer(1)
    writer.removeAll()
    #expect(writer.count == 0)
    writer.string("again")
    #expect(writer.text == #""again""#)
    #expect(writer.bytes == Array(#""again""#.utf8))
  }

  @Test func rawAppendsAddNoCommas() {
    let text = written { writer in
      writer.append(literal: "app=")
      writer.append(quoted: "a b")
      writer.append(literal: " grant=")
      writer.append(decimal: 5)
      writer.append(UInt8(ascii: " "))
      writer.append("id=")
      writer.append(quoted: "x")
    }
    #expect(text == #"app="a b" grant=5 id="x""#)
  }

  @Test func valuesAreWrittenAsTheirSerialisation() {
    let value: JSONValue = .object([
      ("list", [1, 2.5, "three", nil, true, .object([])]), ("nested", .object([("deep", ["\u{10FFFF}", "\u{1}"])])),
    ])
    let text = written { writer in
      writer.beginArray()
      writer.value(value)
      writer.value(value)
      writer.endArray()
    }
    #expect(text == "[\(value.serialized),\(value.serialized)]")
    var bytes: [UInt8] = [UInt8(ascii: "x")]
    value.write(to: &bytes)
    #expect(bytes == Array(("x" + value.serialized).utf8))
  }
}
