import DeepLink
import TestSupport
import Testing

@Suite("Building links and parsing them back")
struct LinkBuildingTests {
  let router = Router(configuration: .standard)

  @Test("a puzzle link is written out in full, app encoded")
  func puzzleLink() throws {
    let link = try router.link(for: .puzzle(app: "Insta gram+", grant: 15, id: "shield-open"))
    #expect(link.description == "shieldbridge://puzzle?app=Insta%20gram%2B&grant=15&id=shield-open")
  }

  @Test("the builder never writes an empty or missing app")
  func noEmptyApp() throws {
    #expect(
      try router.link(for: .puzzle(app: nil, grant: 5, id: "x")).description
        == "shieldbridge://puzzle?grant=5&id=x")
    #expect(
      try router.link(for: .puzzle(app: "", grant: 5, id: "x")).description
        == "shieldbridge://puzzle?grant=5&id=x")
    #expect(
      codeAndOffset { () throws(DeepLinkError) in
        try router.link(for: .view(app: "", view: "home", id: "x"))
      } == "missing-parameter@0")
  }

  @Test("the builder refuses what the parser would refuse")
  func builderChecks() {
    #expect(
      codeAndOffset { () throws(DeepLinkError) in
        try router.link(for: .puzzle(app: nil, grant: 0, id: "x"))
      } == "invalid-value@0")
    #expect(
      codeAndOffset { () throws(DeepLinkError) in
        try router.link(for: .puzzle(app: nil, grant: 5, id: "a/b"))
      } == "invalid-value@1")
    #expect(
      codeAndOffset { () throws(DeepLinkError) in
        try router.link(for: .view(app: "A", view: "Feed", id: "x"))
      } == "invalid-value@0")
    #expect(
      codeAndOffset { () throws(DeepLinkError) in
        try router.link(for: .puzzle(app: "a\tb", grant: 5, id: "x"))
      } == "control-character@1")
    let huge = String(repeating: "語", count: 300)
    #expect(
      codeAndOffset { () throws(DeepLinkError) in
        try router.link(for: .puzzle(app: huge, grant: 5, id: "x"))
      } == "too-long@2048")
  }

  @Test("the scheme of the configuration is written in lowercase")
  func scheme() throws {
    let router = Router(configuration: try LinkConfiguration(scheme: "FocusApp"))
    #expect(
      try router.link(for: .view(app: "Mail", view: "inbox", id: "m")).description
        == "focusapp://view?app=Mail&view=inbox&id=m")
  }

  @Test("parse(build(x)) == x for 10,000 random actions")
  func roundTripProperty() async throws {
    var generator = SeededGenerator(seed: 0x5EED_0002)
    let identifierCharacters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-"
    let viewCharacters = "abcdefghijklmnopqrstuvwxyz0123456789-"
    for round in 0..<10_000 {
      await yieldToOtherTests(round: round)
      let app = RandomText.string(using: &generator, maximumLength: 60, controls: false)
      let id = RandomText.token(from: identifierCharacters, length: 1...64, using: &generator)
      let action: ShieldAction
      if Bool.random(using: &generator) {
        action = .puzzle(
          app: app.isEmpty ? nil : app, grant: Int.random(in: 1...120, using: &generator), id: id)
      } else {
        let view = RandomText.token(from: viewCharacters, length: 1...32, using: &generator)
        action = .view(app: app.isEmpty ? "x" : app, view: view, id: id)
      }
      let link = try router.link(for: action)
      #expect(try router.resolve(link.description).action == action, "\(link)")
      #expect(try DeepLink(parsing: link.description) == link)
    }
  }

  @Test("a DeepLink value checks each part as it is built")
  func deepLinkBuilder() throws {
    var link = try DeepLink(scheme: "ShieldBridge", route: "Puzzle")
    try link.append("app", "Café & Co")
    try link.append("x-1", "")
    #expect(link.description == "shieldbridge://puzzle?app=Caf%C3%A9%20%26%20Co&x-1=")
    #expect(try DeepLink(parsing: link.description) == link)
    #expect(
      codeAndOffset { () throws(DeepLinkError) in try link.append("app", "again") }
        == "duplicate-parameter@0")
    #expect(
      codeAndOffset { () throws(DeepLinkError) in try link.append("App", "x") }
        == "malformed-parameter@0")
    #expect(
      codeAndOffset { () throws(DeepLinkError) in try link.append("", "x") }
        == "malformed-parameter@0")
    #expect(
      codeAndOffset { () throws(DeepLinkError) in try DeepLink(scheme: "", route: "a") }
        == "bad-scheme@0")
    #expect(
      codeAndOffset { () throws(DeepLinkError) in try DeepLink(scheme: "a", route: "b/c") }
        == "unknown-route@0")
  }

  @Test("a DeepLink value round-trips through its text for random parameters")
  func deepLinkRoundTrip() async throws {
    var generator = SeededGenerator(seed: 0x5EED_0003)
    for round in 0..<2_000 {
      await yieldToOtherTests(round: round)
      var link = try DeepLink(scheme: "s", route: "r")
      for index in 0..<Int.random(in: 0...5, using: &generator) {
        try link.append(
          "k\(index)", RandomText.string(using: &generator, maximumLength: 20, controls: false))
      }
      #expect(try DeepLink(parsing: link.description) == link)
    }
  }
}
