import Posix
import Testing

@Suite("includes and replacingAll: finding and replacing text without string processing")
struct StringReplacingTests {
  @Test func includesFindsTextAnywhereAndTheEmptyText() {
    #expect("org.freedesktop.DBus.Error: NUL in string".includes("NUL"))
    #expect("chrome-app__instagram".includes("__"))
    #expect(!"a _ b".includes("__"))
    #expect("abc".includes(""))
    #expect(!"".includes("a"))
    #expect("abc"[...].includes("bc"))
  }

  @Test func includesComparesCharactersNotBytes() {
    // "é" as one scalar and as e + combining acute are one character to ==, and so here.
    #expect("caf\u{E9}".includes("e\u{301}"))
    #expect(!"cafe\u{301}".includes("cafe"))
  }

  @Test func replacingAllReplacesEveryOccurrenceFromTheLeft() {
    #expect("a&b<c>&".replacingAll("&", with: "&amp;") == "a&amp;b<c>&amp;")
    #expect("it's".replacingAll("'", with: "'\\''") == "it'\\''s")
    #expect("de-DE-x".replacingAll("-", with: "_") == "de_DE_x")
    #expect("aaa".replacingAll("aa", with: "b") == "ba")
    #expect("$1 $$".replacingAll("$", with: "$$") == "$$1 $$$$")
    #expect("a\u{0}b".replacingAll("\u{0}", with: " ") == "a b")
  }

  @Test func replacingAllWithNothingToReplace() {
    #expect("abc".replacingAll("x", with: "y") == "abc")
    #expect("abc".replacingAll("", with: "y") == "abc")
    #expect("".replacingAll("a", with: "b") == "")
  }
}
