import DeepLink
import Testing

@Suite("Parsing links: splitting first, decoding once")
struct LinkParsingTests {
  let router = Router(configuration: .standard)

  @Test("a puzzle link resolves to its typed action with defaults filled in")
  func puzzleWithDefaults() throws {
    let resolution = try router.resolve("shieldbridge://puzzle?app=Instagram")
    #expect(resolution.action == .puzzle(app: "Instagram", grant: 5, id: "shield-open"))
    #expect(resolution.scheme == "shieldbridge")
    #expect(resolution.route == "puzzle")
    #expect(resolution.ignored == [])
  }

  @Test("a view link resolves with app, view and id")
  func viewLink() throws {
    let action = try router.resolve("shieldbridge://view?app=Signal&view=messages&id=n-1").action
    #expect(action == .view(app: "Signal", view: "messages", id: "n-1"))
    #expect(
      try router.resolve("shieldbridge://view?app=Signal").action
        == .view(app: "Signal", view: "home", id: "shield-open"))
  }

  @Test("an empty app counts as absent")
  func emptyAppIsAbsent() throws {
    #expect(
      try router.resolve("shieldbridge://puzzle?app=").action
        == .puzzle(app: nil, grant: 5, id: "shield-open"))
    #expect(
      try router.resolve("shieldbridge://puzzle").action
        == .puzzle(app: nil, grant: 5, id: "shield-open"))
  }

  @Test("escaped delimiters stay data: %2B %26 %2F %3D %3F %25")
  func escapedDelimitersStayData() throws {
    let link = "shieldbridge://puzzle?app=a%2Bb%26c%2Fd%3De%3Ff%25g&grant=7"
    #expect(
      try router.resolve(link).action == .puzzle(app: "a+b&c/d=e?f%g", grant: 7, id: "shield-open"))
  }

  @Test("hexadecimal digits may be upper- or lowercase")
  func hexCase() throws {
    #expect(
      try router.resolve("shieldbridge://puzzle?app=Caf%c3%a9").action
        == .puzzle(app: "Café", grant: 5, id: "shield-open"))
    #expect(
      try router.resolve("shieldbridge://puzzle?app=Caf%C3%A9").action
        == .puzzle(app: "Café", grant: 5, id: "shield-open"))
  }

  @Test("scheme and route are compared without case and reported in lowercase")
  func caseInsensitiveSchemeAndRoute() throws {
    let resolution = try router.resolve("ShieldBridge://PUZZLE?app=X")
    #expect(resolution.scheme == "shieldbridge")
    #expect(resolution.route == "puzzle")
    #expect(resolution.action == .puzzle(app: "X", grant: 5, id: "shield-open"))
  }

  @Test("unknown keys are ignored and reported in order")
  func unknownKeys() throws {
    let resolution = try router.resolve("shieldbridge://puzzle?utm-source=feed&app=X&ref=1")
    #expect(resolution.action == .puzzle(app: "X", grant: 5, id: "shield-open"))
    #expect(resolution.ignored == ["utm-source", "ref"])
  }

  @Test("encoded digits in a number are decoded first")
  func encodedDigits() throws {
    #expect(
      try router.resolve("shieldbridge://puzzle?grant=%31%32").action
        == .puzzle(app: nil, grant: 12, id: "shield-open"))
  }

  @Test(
    "Unicode app names resolve exactly",
    arguments: ["日本語", "👩🏽‍💻 Code", "e\u{301}", "تيك توك", "עברית", "Ünïcödé"])
  func unicodeApps(app: String) throws {
    let link = "shieldbridge://puzzle?app=" + PercentEncoding.encode(app)
    guard case .puzzle(let parsed?, _, _) = try router.resolve(link).action else {
      Issue.record("no app in \(link)")
      return
    }
    #expect(Array(parsed.unicodeScalars) == Array(app.unicodeScalars))
  }

  @Test("the DeepLink value keeps every parameter in order, decoded")
  func syntacticParse() throws {
    let link = try DeepLink(parsing: "Other+X.1://Any-Route?b=2&a=%E2%9C%93&c=")
    #expect(link.scheme == "other+x.1")
    #expect(link.route == "any-route")
    #expect(
      link.parameters == [
        .init(key: "b", value: "2"), .init(key: "a", value: "✓"), .init(key: "c", value: ""),
      ])
    #expect(link["a"] == "✓")
    #expect(link["z"] == nil)
    #expect(link.description == "other+x.1://any-route?b=2&a=%E2%9C%93&c=")
  }

  @Test("the DeepLink value reports the grammar's errors too")
  func syntacticErrors() {
    #expect(
      codeAndOffset { () throws(DeepLinkError) in try DeepLink(parsing: "a://b?x=1&x=2") }
        == "duplicate-parameter@10")
    #expect(
      codeAndOffset { () throws(DeepLinkError) in try DeepLink(parsing: "a://b?x=%") }
        == "bad-percent-escape@8")
    #expect(
      codeAndOffset { () throws(DeepLinkError) in try DeepLink(parsing: "a://") }
        == "unknown-route@4")
  }

  @Test("a router with another scheme refuses the standard one")
  func otherScheme() throws {
    let configured = Router(configuration: try LinkConfiguration(scheme: "Focus"))
    #expect(configured.scheme == "focus")
    #expect(
      try configured.resolve("FOCUS://puzzle").action
        == .puzzle(app: nil, grant: 5, id: "shield-open"))
    #expect(
      codeAndOffset { () throws(DeepLinkError) in try configured.resolve("shieldbridge://puzzle") }
        == "bad-scheme@0")
  }

  @Test("defaults come from the configuration")
  func configuredDefaults() throws {
    let configuration = try LinkConfiguration(grant: 10, identifier: "focus.main", view: "inbox")
    let router = Router(configuration: configuration)
    #expect(
      try router.resolve("shieldbridge://puzzle").action
        == .puzzle(app: nil, grant: 10, id: "focus.main"))
    #expect(
      try router.resolve("shieldbridge://view?app=Mail").action
        == .view(app: "Mail", view: "inbox", id: "focus.main"))
  }

  @Test("a configuration with a bad value is refused")
  func badConfiguration() {
    #expect(
      codeAndOffset { () throws(DeepLinkError) in try LinkConfiguration(scheme: "9x") }
        == "bad-scheme@0")
    #expect(
      codeAndOffset { () throws(DeepLinkError) in try LinkConfiguration(grant: 0) }
        == "invalid-value@0")
    #expect(
      codeAndOffset { () throws(DeepLinkError) in try LinkConfiguration(grant: 121) }
        == "invalid-value@0")
    #expect(
      codeAndOffset { () throws(DeepLinkError) in try LinkConfiguration(identifier: "a b") }
        == "invalid-value@1")
    #expect(
      codeAndOffset { () throws(DeepLinkError) in try LinkConfiguration(view: "Home") }
        == "invalid-value@0")
    #expect(
      codeAndOffset { () throws(DeepLinkError) in try LinkConfiguration(view: "") }
        == "invalid-value@0")
  }

  @Test("parsing raw bytes gives the same answer as parsing the string")
  func bytesAndString() throws {
    let text = "shieldbridge://view?app=Caf%C3%A9&view=feed"
    let bytes = Array(text.utf8)
    let fromBytes = try bytes.withUnsafeBufferPointer { buffer throws(DeepLinkError) in
      try router.resolve(utf8: buffer)
    }
    #expect(fromBytes == (try router.resolve(text)))
  }
}
