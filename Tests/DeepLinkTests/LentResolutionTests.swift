import Testing

@testable import DeepLink

/// The lent resolution (`withResolution(utf8:_:)`) against `resolve`: the same
/// answers, with defaults, unknown keys, errors and a route of a library user's own.
@Suite("A lent resolution gives resolve's answers")
struct LentResolutionTests {
  /// `withResolution`'s answer for `link`, made into a ``Resolution``.
  private func lent(_ router: Router<ShieldAction>, _ link: String) -> Result<Resolution<ShieldAction>, DeepLinkError> {
    var bytes = Array(link.utf8)
    return bytes.withUnsafeMutableBufferPointer { buffer in
      Result { () throws(DeepLinkError) in
        var answer: Resolution<ShieldAction>?
        var calls = 0
        try router.withResolution(utf8: UnsafeBufferPointer(buffer)) { resolution in
          answer = resolution.resolution
          calls += 1
        }
        #expect(calls == 1)
        guard let answer else { throw DeepLinkError(.unknownRoute, at: 0, "the body was not called") }
        return answer
      }
    }
  }

  private func resolved(_ router: Router<ShieldAction>, _ link: String) -> Result<
    Resolution<ShieldAction>, DeepLinkError
  > {
    Result { () throws(DeepLinkError) in try router.resolve(link) }
  }

  @Test(
    "standard links, with defaults, escapes, unknown keys and errors",
    arguments: [
      "shieldbridge://puzzle?app=Instagram&grant=5&id=shield-open",
      "shieldbridge://puzzle",
      "SHIELDBRIDGE://Puzzle?app=Caf%C3%A9%20Feed",
      "shieldbridge://puzzle?app=%22quoted%22%5Cback&id=n-42",
      "shieldbridge://puzzle?app=%E2%80%A8line&utm=1&ref=x",
      "shieldbridge://view?app=Instagram&view=messages&id=focus_2",
      "shieldbridge://view?app=Instagram",
      "shieldbridge://view?view=messages",
      "shieldbridge://puzzle?app=Insta%G1gram",
      "shieldbridge://puzzle?grant=500",
      "https://example.org/puzzle?app=Instagram",
    ])
  func standardLinks(link: String) {
    let router = Router(configuration: .standard)
    #expect(lent(router, link) == resolved(router, link))
  }

  @Test("a route a library user registered lends the strings its closure made")
  func customRoute() throws {
    var router = Router(configuration: .standard)
    let app: Parameter<String> = .text("app")
    try router.register(
      Route<ShieldAction>(
        "open", app, action: { .view(app: $0, view: "home", id: "custom") },
        values: { if case .view(let app, "home", "custom") = $0 { app } else { nil } }))
    for link in ["shieldbridge://open?app=Reels%20Feed&x=1", "shieldbridge://open", "shieldbridge://puzzle?app=A"] {
      #expect(lent(router, link) == resolved(router, link), "\(link)")
    }
  }
}
