import DeepLink
import Testing

/// The standard router's verdict on `link`: `code@offset`, or `ok`.
private func verdict(_ link: String) -> String {
  let router = Router(configuration: .standard)
  guard let error = failure({ () throws(DeepLinkError) in try router.resolve(link) }) else {
    return "ok"
  }
  return "\(error.code)@\(error.offset)"
}

/// `shieldbridge://puzzle?app=` is 26 bytes, so a value's first byte is at offset 26.
private let prefix = "shieldbridge://puzzle?app="

@Suite("Every error code, with its offset")
struct LinkErrorTests {
  @Test(
    "a raw character outside the grammar is unencoded-character",
    arguments: [
      (prefix + "Insta gram", 31),
      (prefix + "a+b", 27),
      (prefix + "Café", 29),
      (prefix + "a=b", 27),
      (prefix + "a/b", 27),
      (prefix + "a#b", 27),
      (prefix + "a\nb", 27),
    ])
  func unencodedCharacter(link: String, offset: Int) {
    #expect(verdict(link) == "unencoded-character@\(offset)")
  }

  @Test(
    "a % without two hexadecimal digits is bad-percent-escape",
    arguments: [
      (prefix + "%", 26),
      (prefix + "%G1", 26),
      (prefix + "ab%4", 28),
      (prefix + "%4&grant=5", 26),
      (prefix + "x%%41", 27),
    ])
  func badPercentEscape(link: String, offset: Int) {
    #expect(verdict(link) == "bad-percent-escape@\(offset)")
  }

  @Test(
    "decoded bytes that are not UTF-8 are invalid-utf8, overlong forms included",
    arguments: [
      (prefix + "%C3", 26),
      (prefix + "x%C3&grant=5", 27),
      (prefix + "%C0%AF", 26),
      (prefix + "%E0%80%AF", 26),
      (prefix + "%F0%80%80%AF", 26),
      (prefix + "%ED%A0%80", 26),
      (prefix + "%F4%90%80%80", 26),
      (prefix + "%FF", 26),
      (prefix + "%A9", 26),
    ])
  func invalidUTF8(link: String, offset: Int) {
    #expect(verdict(link) == "invalid-utf8@\(offset)")
  }

  @Test(
    "a decoded control character is control-character",
    arguments: [
      (prefix + "%00", 26),
      (prefix + "a%0A", 27),
      (prefix + "%7F", 26),
      (prefix + "%C2%85", 26),
      ("shieldbridge://puzzle?id=a%09b", 26),
    ])
  func controlCharacter(link: String, offset: Int) {
    #expect(verdict(link) == "control-character@\(offset)")
  }

  @Test("a key given twice is duplicate-parameter, known or not")
  func duplicateParameter() {
    #expect(verdict(prefix + "A&app=B") == "duplicate-parameter@28")
    #expect(verdict(prefix + "&app=B") == "duplicate-parameter@27")
    #expect(verdict("shieldbridge://puzzle?utm=1&utm=2") == "duplicate-parameter@28")
  }

  @Test("a view link without an app, or with an empty one, is missing-parameter at the end")
  func missingParameter() {
    #expect(verdict("shieldbridge://view") == "missing-parameter@19")
    #expect(verdict("shieldbridge://view?app=") == "missing-parameter@24")
    #expect(verdict("shieldbridge://view?view=feed&id=x") == "missing-parameter@34")
  }

  @Test(
    "a value outside its rule is invalid-value at the value",
    arguments: [
      ("shieldbridge://puzzle?grant=0", 28),
      ("shieldbridge://puzzle?grant=121", 28),
      ("shieldbridge://puzzle?grant=abc", 28),
      ("shieldbridge://puzzle?grant=", 28),
      ("shieldbridge://puzzle?grant=-5", 28),
      ("shieldbridge://puzzle?grant=99999999999999999999999", 28),
      ("shieldbridge://puzzle?id=a%20b", 25),
      ("shieldbridge://puzzle?id=", 25),
      ("shieldbridge://puzzle?id=" + String(repeating: "x", count: 65), 25),
      ("shieldbridge://view?app=A&view=Home", 31),
      ("shieldbridge://view?app=A&view=" + String(repeating: "v", count: 33), 31),
    ])
  func invalidValue(link: String, offset: Int) {
    #expect(verdict(link) == "invalid-value@\(offset)")
  }

  @Test(
    "a route the router does not know is unknown-route",
    arguments: [
      ("shieldbridge://settings", 15),
      ("shieldbridge://", 15),
      ("shieldbridge://?app=A", 15),
      ("shieldbridge://puzzle/?app=A", 15),
      ("shieldbridge://puz%7Ale", 15),
      ("shieldbridge://puzzle#top", 15),
    ])
  func unknownRoute(link: String, offset: Int) {
    #expect(verdict(link) == "unknown-route@\(offset)")
  }

  @Test(
    "a malformed or foreign scheme is bad-scheme",
    arguments: [
      ("https://example.org/puzzle", 0),
      ("", 0),
      ("://puzzle", 0),
      ("1shield://puzzle", 0),
      ("shieldbridge:puzzle", 13),
      ("shieldbridge:/puzzle", 14),
      ("shieldbridge", 12),
      ("shield bridge://puzzle", 6),
    ])
  func badScheme(link: String, offset: Int) {
    #expect(verdict(link) == "bad-scheme@\(offset)")
  }

  @Test("a link over 2048 bytes is too-long at byte 2048; 2048 bytes are fine")
  func tooLong() {
    let fits = prefix + String(repeating: "a", count: 2048 - prefix.utf8.count)
    #expect(fits.utf8.count == 2048)
    #expect(verdict(fits) == "ok")
    #expect(verdict(fits + "a") == "too-long@2048")
    #expect(verdict(fits + "%") == "too-long@2048")
  }

  @Test(
    "a parameter without =, with a bad key or left empty is malformed-parameter",
    arguments: [
      ("shieldbridge://puzzle?", 22),
      ("shieldbridge://puzzle?app", 25),
      ("shieldbridge://puzzle?=x", 22),
      ("shieldbridge://puzzle?App=x", 22),
      ("shieldbridge://puzzle?a_b=x", 23),
      ("shieldbridge://puzzle?1a=x", 22),
      ("shieldbridge://puzzle?app=x&", 28),
      ("shieldbridge://puzzle?app=x&&grant=5", 28),
      ("shieldbridge://puzzle?%61pp=x", 22),
    ])
  func malformedParameter(link: String, offset: Int) {
    #expect(verdict(link) == "malformed-parameter@\(offset)")
  }

  @Test("the leftmost problem is the one reported")
  func leftmostFirst() {
    #expect(verdict(prefix + "a b&grant=0") == "unencoded-character@27")
    #expect(verdict("shieldbridge://puzzle?grant=0&app=a b") == "invalid-value@28")
    #expect(verdict("http://nowhere?app=%") == "bad-scheme@0")
  }

  @Test("every error has a message")
  func messages() {
    let router = Router(configuration: .standard)
    for link in ["", prefix + "%", prefix + "%C0%AF", "shieldbridge://view", "shieldbridge://x"] {
      let error = failure { () throws(DeepLinkError) in try router.resolve(link) }
      #expect(error?.message.isEmpty == false)
      #expect(error?.description.contains("at byte") == true)
    }
  }
}
