import DeepLink
import Testing

@Suite("The scheme and view-name rules that every user of DeepLink reads")
struct SharedRuleTests {
  @Test("a scheme is a letter, then letters, digits, '+', '-' and '.', of at most 32 bytes, kept in lowercase")
  func schemeRule() throws {
    #expect(try SchemeRule.normalized("ShieldBridge") == "shieldbridge")
    #expect(try SchemeRule.normalized("x-shield.test+app") == "x-shield.test+app")
    let longest = String(repeating: "a", count: SchemeRule.maximumLength)
    #expect(try SchemeRule.normalized(longest) == longest)
    #expect(codeAndOffset { () throws(DeepLinkError) in try SchemeRule.normalized(longest + "a") } == "bad-scheme@32")
    #expect(codeAndOffset { () throws(DeepLinkError) in try SchemeRule.normalized("") } == "bad-scheme@0")
    #expect(codeAndOffset { () throws(DeepLinkError) in try SchemeRule.normalized("1up") } == "bad-scheme@0")
    #expect(codeAndOffset { () throws(DeepLinkError) in try SchemeRule.normalized("shield bridge") } == "bad-scheme@6")
  }

  @Test("the canonical form of a scheme is its lowercase spelling")
  func canonicalScheme() {
    #expect(SchemeRule.isCanonical("shieldbridge"))
    #expect(SchemeRule.isCanonical("x-shield.test+app"))
    #expect(!SchemeRule.isCanonical("ShieldBridge"))
    #expect(!SchemeRule.isCanonical("1up"))
    #expect(!SchemeRule.isCanonical(""))
    #expect(!SchemeRule.isCanonical(String(repeating: "a", count: SchemeRule.maximumLength + 1)))
  }

  @Test("the router, the configuration and the builder take the same scheme rule")
  func sameRuleEverywhere() {
    let tooLong = String(repeating: "s", count: SchemeRule.maximumLength + 1)
    #expect(failure { () throws(DeepLinkError) in try Router<ShieldAction>(scheme: tooLong) }?.code == .badScheme)
    #expect(failure { () throws(DeepLinkError) in try LinkConfiguration(scheme: tooLong) }?.code == .badScheme)
    #expect(failure { () throws(DeepLinkError) in try DeepLink(scheme: tooLong, route: "puzzle") }?.code == .badScheme)
  }

  @Test("a view name matches [a-z0-9-]{1,32}")
  func viewNameRule() {
    #expect(TokenRule.viewName.matches("messages"))
    #expect(TokenRule.viewName.matches("a-1"))
    #expect(TokenRule.viewName.matches(String(repeating: "v", count: 32)))
    #expect(!TokenRule.viewName.matches(String(repeating: "v", count: 33)))
    #expect(!TokenRule.viewName.matches(""))
    #expect(!TokenRule.viewName.matches("Direct"))
    #expect(!TokenRule.viewName.matches("a_b"))
  }

  @Test("a link's bytes resolve in place as they do as a string")
  func bytesResolveLikeText() throws {
    let router = Router(configuration: .standard)
    for link in [
      "shieldbridge://puzzle?app=Caf%C3%A9&grant=7&id=n-1&utm=x", "shieldbridge://view?app=Mail",
      "shieldbridge://view?view=home", "SHIELDBRIDGE://Puzzle",
    ] {
      let text = Result { () throws(DeepLinkError) in try router.resolve(link) }
      let bytes = Array(link.utf8)
      #expect(Result { () throws(DeepLinkError) in try router.resolve(utf8: bytes) } == text)
      #expect(Result { () throws(DeepLinkError) in try router.resolve(utf8: bytes.span) } == text)
      bytes.withUnsafeBufferPointer { buffer in
        #expect(Result { () throws(DeepLinkError) in try router.resolve(utf8: buffer) } == text)
      }
    }
  }
}
