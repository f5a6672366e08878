import DeepLink
import TestSupport
import Testing

@Suite("Percent-encoding with the strict unreserved set")
struct PercentEncodingTests {
  static let unreserved = Set(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)

  @Test("every one of the 256 byte values is kept or written as uppercase %XX")
  func everyByteValue() throws {
    for value in 0...255 {
      let byte = UInt8(value)
      let encoded = PercentEncoding.encode(bytes: [byte])
      if Self.unreserved.contains(byte) {
        #expect(encoded == String(decoding: [byte], as: UTF8.self), "byte \(value)")
      } else {
        let hex = String(value, radix: 16, uppercase: true)
        #expect(encoded == "%" + (value < 16 ? "0" : "") + hex, "byte \(value)")
      }
      #expect(try PercentEncoding.decodeBytes(encoded) == [byte], "byte \(value)")
    }
    let all = (0...255).map(UInt8.init)
    #expect(try PercentEncoding.decodeBytes(PercentEncoding.encode(bytes: all)) == all)
  }

  @Test("the set keeps exactly ASCII letters, digits and -._~")
  func theSetItself() {
    let set = StrictUnreservedEncodeSet()
    for byte in UInt8(0)..<128 {
      #expect(
        set.shouldPercentEncode(ascii: byte) == !Self.unreserved.contains(byte), "byte \(byte)")
    }
  }

  @Test(
    "Unicode text is encoded as its UTF-8 bytes and decoded back",
    arguments: [
      ("日本語", "%E6%97%A5%E6%9C%AC%E8%AA%9E"),
      ("😀", "%F0%9F%98%80"),
      ("👩🏽‍💻", "%F0%9F%91%A9%F0%9F%8F%BD%E2%80%8D%F0%9F%92%BB"),
      ("e\u{301}", "e%CC%81"),
      ("Café", "Caf%C3%A9"),
      ("مرحبا", "%D9%85%D8%B1%D8%AD%D8%A8%D8%A7"),
      ("שלום", "%D7%A9%D7%9C%D7%95%D7%9D"),
      ("a b+c", "a%20b%2Bc"),
      ("~-._", "~-._"),
    ])
  func unicode(text: String, encoded: String) throws {
    #expect(PercentEncoding.encode(text) == encoded)
    #expect(try PercentEncoding.decode(encoded) == text)
  }

  @Test("combining marks survive unnormalised")
  func combiningMarksStayAsWritten() throws {
    let decomposed = "Cafe\u{301}"
    let composed = "Caf\u{E9}"
    #expect(PercentEncoding.encode(decomposed) != PercentEncoding.encode(composed))
    let back = try PercentEncoding.decode(PercentEncoding.encode(decomposed))
    #expect(Array(back.unicodeScalars) == Array(decomposed.unicodeScalars))
  }

  @Test("the decoder takes hexadecimal digits in either case")
  func hexCase() throws {
    #expect(try PercentEncoding.decode("%c3%a9") == "é")
    #expect(try PercentEncoding.decode("%C3%a9") == "é")
    #expect(try PercentEncoding.decode("%2b%2F") == "+/")
  }

  @Test(
    "the decoder rejects what the encoder never writes, at the right offset",
    arguments: [
      ("%", DeepLinkError.Code.badPercentEscape, 0),
      ("ab%4", .badPercentEscape, 2),
      ("%G1", .badPercentEscape, 0),
      ("a b", .unencodedCharacter, 1),
      ("a+b", .unencodedCharacter, 1),
      ("é", .unencodedCharacter, 0),
      ("%C3", .invalidUTF8, 0),
      ("x%C0%AF", .invalidUTF8, 1),
      ("%E0%80%AF", .invalidUTF8, 0),
      ("%ED%A0%80", .invalidUTF8, 0),
      ("%F4%90%80%80", .invalidUTF8, 0),
      ("%F5%80%80%80", .invalidUTF8, 0),
      ("%80", .invalidUTF8, 0),
      ("%C3a", .invalidUTF8, 0),
    ])
  func strictDecoding(input: String, code: DeepLinkError.Code, offset: Int) {
    #expect(
      codeAndOffset { () throws(DeepLinkError) in try PercentEncoding.decode(input) }
        == "\(code)@\(offset)")
  }

  @Test("control characters decode unless they are rejected")
  func controlCharacters() throws {
    #expect(try PercentEncoding.decode("a%0Ab") == "a\nb")
    for input in ["%00", "%1F", "%7F", "%C2%80", "%C2%9F"] {
      let error = failure { () throws(DeepLinkError) in
        try PercentEncoding.decode(input, rejectingControlCharacters: true)
      }
      #expect(error?.code == .controlCharacter, "\(input)")
    }
    #expect(try PercentEncoding.decode("%C2%A0", rejectingControlCharacters: true) == "\u{A0}")
  }

  @Test("decode(encode(s)) == s for 10,000 random strings")
  func roundTripProperty() async throws {
    var generator = SeededGenerator(seed: 0x5EED_0001)
    for round in 0..<10_000 {
      await yieldToOtherTests(round: round)
      let text = RandomText.string(using: &generator)
      let encoded = PercentEncoding.encode(text)
      #expect(encoded.utf8.allSatisfy { Self.unreserved.contains($0) || $0 == UInt8(ascii: "%") })
      let decoded = try PercentEncoding.decode(encoded)
      #expect(Array(decoded.utf8) == Array(text.utf8), "\(text.debugDescription)")
    }
  }

  @Test("encoding bytes that are not UTF-8 is refused when asked to validate")
  func validatingEncoder() throws {
    let good: [UInt8] = Array("Instagram Reels".utf8)
    #expect(
      try good.withUnsafeBufferPointer { try PercentEncoding.encode(validating: $0) }
        == "Instagram%20Reels")
    let bad: [UInt8] = [0x61, 0x62, 0xC0, 0xAF]
    let result = codeAndOffset { () throws(DeepLinkError) in
      try bad.withUnsafeBufferPointer { bytes throws(DeepLinkError) in
        try PercentEncoding.encode(validating: bytes)
      }
    }
    #expect(result == "invalid-utf8@2")
  }
}
